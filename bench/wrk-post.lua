-- wrk script for the bench: POSTs BENCH_BODY with the headers in BENCH_HEADERS ("name: value"
-- lines) and prints one machine-readable summary line (latencies in microseconds) when done.
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY") or "{}"
wrk.headers["Content-Type"] = "application/json"
for line in string.gmatch(os.getenv("BENCH_HEADERS") or "", "[^\n]+") do
  local name, value = string.match(line, "^([^:]+):%s*(.*)$")
  if name then wrk.headers[name] = value end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"durationUs":%d,"non2xx":%d,"connectErrors":%d,"readErrors":%d,' ..
    '"writeErrors":%d,"timeouts":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,"meanUs":%.1f}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end

import type { FakeDesktops } from './fake-desktops.ts'
import type { DeskhookReady } from './server-process.ts'
import { type Latency, summarize } from './stats.ts'

export const CALL_BODY = JSON.stringify({ customer: 'ACME-42', amount: 19.99, note: 'bench' })

export interface SyncOverhead {
  /** The whole synchronous call as the caller sees it. */
  total: Latency
  /** The fake agent's own part (run received → result sent). */
  agent: Latency
  /** total − agent, per call: what deskhook (HTTP, SQLite, scheduling, WebSocket) adds. */
  overhead: Latency
  failures: number
}

/**
 * Sequential synchronous calls on one keep-alive connection to the live job, each answered by one
 * fake desktop. The execution id in `x-job-execution-id` pairs a call with the agent's own timing.
 */
export async function syncOverhead(
  server: DeskhookReady,
  desktops: FakeDesktops,
  iterations: number,
  warmup: number,
): Promise<SyncOverhead> {
  const url = `${server.url}${server.jobPath}`
  const headers = { 'x-api-key': server.key, 'content-type': 'application/json' }
  const totals: number[] = []
  const agents: number[] = []
  const overheads: number[] = []
  let failures = 0
  for (let i = 0; i < warmup + iterations; i++) {
    const t0 = performance.now()
    const res = await fetch(url, { method: 'POST', headers, body: CALL_BODY })
    await res.arrayBuffer()
    const ms = performance.now() - t0
    const agentMs = desktops.agentMs.get(res.headers.get('x-job-execution-id') ?? '')
    if (res.status !== 200 || agentMs === undefined) {
      failures++
      continue
    }
    if (i < warmup) continue
    totals.push(ms)
    agents.push(agentMs)
    overheads.push(ms - agentMs)
  }
  return { total: summarize(totals), agent: summarize(agents), overhead: summarize(overheads), failures }
}

/** The same sequential POST against the raw Bun.serve: one HTTP round trip, for reference. */
export async function httpRoundTrip(baseUrl: string, iterations: number, warmup: number): Promise<Latency> {
  const samples: number[] = []
  const headers = { 'content-type': 'application/json' }
  for (let i = 0; i < warmup + iterations; i++) {
    const t0 = performance.now()
    const res = await fetch(`${baseUrl}/`, { method: 'POST', headers, body: CALL_BODY })
    await res.arrayBuffer()
    if (i >= warmup) samples.push(performance.now() - t0)
  }
  return summarize(samples)
}

import { join } from 'node:path'
import { CLIENT_CORE, onCore } from './server-process.ts'

/** One wrk run, as the Lua script's summary reports it (milliseconds here). */
export interface LoadResult {
  requests: number
  durationS: number
  rps: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  /** Answers outside 2xx/3xx: a run with any is not a valid measurement. */
  non2xx: number
  socketErrors: number
}

export interface LoadOptions {
  url: string
  body: string
  headers?: Record<string, string>
  connections: number
  durationS: number
}

interface WrkSummary {
  requests: number
  durationUs: number
  non2xx: number
  connectErrors: number
  readErrors: number
  writeErrors: number
  timeouts: number
  p50Us: number
  p90Us: number
  p99Us: number
  maxUs: number
}

const SCRIPT = join(import.meta.dir, 'wrk-post.lua')

/**
 * wrk (Debian's package) is the load generator: C, epoll, one thread on its own core keeps 50
 * connections busy with far less CPU per request than a JavaScript client would need.
 * Installs it with apt-get when it is missing and this runs as root (as on the project's machines).
 */
export function ensureWrk(): string {
  const found = Bun.which('wrk')
  if (found) return found
  if (process.getuid?.() !== 0)
    throw new Error('wrk is not installed: run `sudo apt-get install -y wrk` (Debian/Ubuntu) and retry')
  console.log('wrk is missing: installing it from Debian (apt-get install -y wrk) …')
  const install = () =>
    Bun.spawnSync(['apt-get', 'install', '-y', '-q', 'wrk'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdout: 'ignore',
      stderr: 'inherit',
    }).success
  if (!install()) {
    Bun.spawnSync(['apt-get', 'update', '-q'], { stdout: 'ignore', stderr: 'inherit' })
    if (!install()) throw new Error('apt-get install -y wrk failed')
  }
  const installed = Bun.which('wrk')
  if (!installed) throw new Error('wrk was installed but is not on PATH')
  return installed
}

/** Runs wrk for a fixed duration (it stops by itself) on the client core. */
export async function runWrk(wrk: string, opts: LoadOptions): Promise<LoadResult> {
  const host = new URL(opts.url).hostname
  if (host !== '127.0.0.1' && host !== 'localhost')
    throw new Error(`refusing to load a non-loopback host: ${host}`)
  const proc = Bun.spawn(
    [
      ...onCore(CLIENT_CORE),
      wrk,
      '-t1',
      `-c${opts.connections}`,
      `-d${opts.durationS}s`,
      '--timeout',
      '5s',
      '-s',
      SCRIPT,
      opts.url,
    ],
    {
      env: {
        ...process.env,
        BENCH_BODY: opts.body,
        BENCH_HEADERS: Object.entries(opts.headers ?? {})
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n'),
      },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '))
  if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${err || out}`)
  const s = JSON.parse(line.slice('BENCH_RESULT '.length)) as WrkSummary
  const durationS = s.durationUs / 1e6
  return {
    requests: s.requests,
    durationS,
    rps: s.requests / durationS,
    p50Ms: s.p50Us / 1000,
    p90Ms: s.p90Us / 1000,
    p99Ms: s.p99Us / 1000,
    maxMs: s.maxUs / 1000,
    non2xx: s.non2xx,
    socketErrors: s.connectErrors + s.readErrors + s.writeErrors + s.timeouts,
  }
}

import { type Completions, completions } from './completions.ts'
import { FakeDesktops } from './fake-desktops.ts'
import { type LoadResult, runWrk } from './load.ts'
import { OthersCpu } from './machine.ts'
import { type BaselineReady, type ChildServer, startDeskhook } from './server-process.ts'
import type { Latency } from './stats.ts'
import { CALL_BODY, httpRoundTrip, type SyncOverhead, syncOverhead } from './sync-overhead.ts'
import { echoLatency, echoThroughput } from './ws-echo.ts'

export const SETTINGS = {
  enqueue: { connections: 50, warmupS: 2, durationS: 10 },
  sync: { iterations: 3000, warmup: 200 },
  completions: { agents: 50, count: 3000, concurrency: 50, timeoutMs: 60_000 },
  echoThroughputMs: 3000,
}

/** A figure and the share of the machine's CPU other processes used while it was measured. */
export interface Watched<T> {
  result: T
  othersCpu: number | null
}

async function watched<T>(measure: () => Promise<T>): Promise<Watched<T>> {
  const watch = new OthersCpu().start()
  const result = await measure()
  return { result, othersCpu: watch.stop() }
}

export const log = (msg: string) => console.log(`· ${msg}`)

export interface EnqueuePart {
  baseline: Watched<LoadResult>
  deskhook: Watched<LoadResult>
}

/** (a) wrk against the raw POST handler, then against a live job's async URL. */
export async function enqueuePart(wrk: string, baseline: ChildServer<BaselineReady>): Promise<EnqueuePart> {
  const { connections, warmupS, durationS } = SETTINGS.enqueue
  const load = (url: string, seconds: number, headers?: Record<string, string>) =>
    runWrk(wrk, { url, headers, body: CALL_BODY, connections, durationS: seconds })

  log(`(a) baseline: raw Bun.serve POST, wrk ${connections} connections, ${durationS} s`)
  const rawUrl = `${baseline.ready.url}/`
  await load(rawUrl, warmupS)
  const base = await watched(() => load(rawUrl, durationS))

  const server = await startDeskhook(0)
  try {
    const url = `${server.ready.url}${server.ready.jobPath}?async=1`
    const headers = { 'x-api-key': server.ready.key }
    log(`(a) deskhook: POST ${server.ready.jobPath}?async=1, same load`)
    await load(url, warmupS, headers)
    const deskhook = await watched(() => load(url, durationS, headers))
    return { baseline: base, deskhook }
  } finally {
    await server.stop()
  }
}

export interface SyncPart {
  deskhook: Watched<SyncOverhead>
  echo: Watched<Latency>
  http: Latency
}

/** (b) sequential sync calls on one fake desktop, then the WebSocket echo and raw HTTP floors. */
export async function syncPart(baseline: ChildServer<BaselineReady>): Promise<SyncPart> {
  const { iterations, warmup } = SETTINGS.sync
  const server = await startDeskhook(1)
  const desktops = await FakeDesktops.connect(server.ready.url, server.ready.tokens)
  try {
    log(`(b) deskhook: ${iterations} sequential sync calls, one fake desktop`)
    const deskhook = await watched(() => syncOverhead(server.ready, desktops, iterations, warmup))
    log(`(b) baseline: ${iterations} WebSocket echo round trips; raw HTTP POST round trips`)
    const echo = await watched(() => echoLatency(baseline.ready.url, iterations, warmup))
    const http = await httpRoundTrip(baseline.ready.url, iterations, warmup)
    return { deskhook, echo, http }
  } finally {
    desktops.close()
    await server.stop()
  }
}

export interface CompletionsPart {
  deskhook: Watched<Completions>
  echoTripsPerS: Watched<number>
}

/** (c) async calls worked off by 50 fake desktops, then 50 WebSocket echo clients. */
export async function completionsPart(baseline: ChildServer<BaselineReady>): Promise<CompletionsPart> {
  const opts = SETTINGS.completions
  const server = await startDeskhook(opts.agents)
  const desktops = await FakeDesktops.connect(server.ready.url, server.ready.tokens)
  try {
    log(`(c) deskhook: ${opts.count} async calls, ${opts.agents} fake desktops`)
    const deskhook = await watched(() => completions(server.ready, desktops, opts))
    log(`(c) baseline: ${opts.agents} WebSocket echo clients, ${SETTINGS.echoThroughputMs / 1000} s`)
    const echoTripsPerS = await watched(() =>
      echoThroughput(baseline.ready.url, opts.agents, SETTINGS.echoThroughputMs),
    )
    return { deskhook, echoTripsPerS }
  } finally {
    desktops.close()
    await server.stop()
  }
}

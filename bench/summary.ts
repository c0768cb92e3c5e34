import type { LoadResult } from './load.ts'
import type { CompletionsPart, EnqueuePart, SyncPart } from './parts.ts'
import { ms, perS, type Row, times } from './report.ts'

export const TARGET = { enqueueRatio: 0.2, enqueueP99Ms: 20, syncOverheadP50Ms: 3 }

const validLoad = (r: LoadResult) => r.non2xx === 0 && r.socketErrors === 0
const worst = (...shares: (number | null)[]) =>
  shares.some((s) => s === null) ? null : Math.max(...(shares as number[]))

/** The table: each deskhook figure beside its baseline, the ratio and the target. */
export function rows(a: EnqueuePart, b: SyncPart, c: CompletionsPart): Row[] {
  const dh = a.deskhook.result
  const raw = a.baseline.result
  const aValid = validLoad(dh) && validLoad(raw)
  const aNoise = worst(a.deskhook.othersCpu, a.baseline.othersCpu)
  const enqueueRatio = dh.rps / raw.rps
  const sync = b.deskhook.result
  const o = sync.overhead
  const echo = b.echo.result
  const bNoise = worst(b.deskhook.othersCpu, b.echo.othersCpu)
  const done = c.deskhook.result
  return [
    {
      what: '(a) async enqueue throughput',
      value: perS(dh.rps, 'req/s'),
      baseline: perS(raw.rps, 'req/s'),
      ratio: times(enqueueRatio),
      target: `≥ ${TARGET.enqueueRatio}× baseline`,
      met: aValid && enqueueRatio >= TARGET.enqueueRatio,
      othersCpu: aNoise,
    },
    {
      what: '(a) async enqueue p50',
      value: ms(dh.p50Ms),
      baseline: ms(raw.p50Ms),
      ratio: times(dh.p50Ms / raw.p50Ms),
      target: '',
      othersCpu: aNoise,
    },
    {
      what: '(a) async enqueue p99',
      value: ms(dh.p99Ms),
      baseline: ms(raw.p99Ms),
      ratio: times(dh.p99Ms / raw.p99Ms),
      target: `≤ ${TARGET.enqueueP99Ms} ms`,
      met: aValid && dh.p99Ms <= TARGET.enqueueP99Ms,
      othersCpu: aNoise,
    },
    {
      what: '(b) sync overhead p50 (3 steps)',
      value: ms(o.p50Ms),
      baseline: `${ms(echo.p50Ms)} (WS echo)`,
      ratio: times(o.p50Ms / echo.p50Ms),
      target: `≤ ${TARGET.syncOverheadP50Ms} ms`,
      met: sync.failures === 0 && o.p50Ms <= TARGET.syncOverheadP50Ms,
      othersCpu: bNoise,
    },
    {
      what: '(b) sync overhead p99 (3 steps)',
      value: ms(o.p99Ms),
      baseline: `${ms(echo.p99Ms)} (WS echo)`,
      ratio: times(o.p99Ms / echo.p99Ms),
      target: '',
      othersCpu: bNoise,
    },
    {
      what: '(c) executions completed, 50 agents',
      value: perS(done.perSecond, '/s'),
      baseline: perS(c.echoTripsPerS.result, 'WS echo/s'),
      ratio: times(done.perSecond / c.echoTripsPerS.result),
      target: '',
      othersCpu: worst(c.deskhook.othersCpu, c.echoTripsPerS.othersCpu),
    },
  ]
}

/** What the table leaves out: counts, errors, the parts of (b), the reference figures. */
export function details(a: EnqueuePart, b: SyncPart, c: CompletionsPart): string[] {
  const load = (name: string, r: LoadResult) =>
    `(a) ${name}: ${r.requests} requests, non-2xx ${r.non2xx}, socket errors ${r.socketErrors}, p90 ${ms(r.p90Ms)}, max ${ms(r.maxMs)}`
  const d = b.deskhook.result
  const done = c.deskhook.result
  return [
    load('deskhook', a.deskhook.result),
    load('baseline', a.baseline.result),
    `(b) sync call total p50 ${ms(d.total.p50Ms)} / p99 ${ms(d.total.p99Ms)}; agent's own time p50 ${ms(d.agent.p50Ms)} / p99 ${ms(d.agent.p99Ms)}; failures ${d.failures}`,
    `(b) reference: raw HTTP POST round trip p50 ${ms(b.http.p50Ms)} / p99 ${ms(b.http.p99Ms)}`,
    `(c) ${done.completed}/${done.submitted} completed in ${done.elapsedS.toFixed(2)} s (all 202s in after ${done.submitS.toFixed(2)} s)${done.timedOut ? ' — DEADLINE HIT' : ''}; ${done.verified}/${done.sampled} sampled executions read succeeded`,
  ]
}

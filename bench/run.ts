/**
 * `bun run bench`: deskhook's hot paths against plain-Bun baselines measured in the same run.
 *   (a) async enqueue: wrk, 50 connections, deskhook (own process, core 0) vs a raw Bun.serve POST
 *   (b) sync round trip of a 3-step no-op run on a fake desktop, minus the agent's own time, vs a
 *       raw WebSocket echo round trip
 *   (c) executions completed per second with 50 fake desktops vs 50 WebSocket echo clients
 * Prints a table and writes bench/results.json. Every loop is bounded; traffic stays on 127.0.0.1.
 */
import { join } from 'node:path'
import { ensureWrk } from './load.ts'
import { othersCpuOver } from './machine.ts'
import { completionsPart, enqueuePart, log, SETTINGS, syncPart } from './parts.ts'
import { NOISY, pct, table } from './report.ts'
import { CLIENT_CORE, canPin, pinSelf, startBaseline } from './server-process.ts'
import { details, rows, TARGET } from './summary.ts'

/** The whole run must end well within this; past it, the bench gives up (children follow). */
const WATCHDOG_MS = 5 * 60_000
/** How long to wait, before each part, for a machine busy with something else to calm down. */
const QUIET_WAIT_MS = 15_000

/** Waits (bounded) until other processes leave the CPUs alone. */
async function waitForQuiet(): Promise<void> {
  const until = performance.now() + QUIET_WAIT_MS
  let load = await othersCpuOver(500)
  if (load === null || load <= NOISY) return
  log(`other processes are using ${pct(load)} of the CPUs: waiting up to ${QUIET_WAIT_MS / 1000} s`)
  while (load !== null && load > NOISY && performance.now() < until) load = await othersCpuOver(500)
  if (load !== null && load > NOISY) log(`still ${pct(load)}: going on; the figures will be marked NOISY`)
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${WATCHDOG_MS / 60_000} min; giving up`)
    process.exit(2)
  }, WATCHDOG_MS)
  watchdog.unref()

  const wrk = ensureWrk()
  const wrkVersion = Bun.spawnSync([wrk, '-v']).stdout.toString().split('\n')[0]?.trim() ?? 'wrk'
  const pinned = pinSelf(CLIENT_CORE)
  log(
    pinned
      ? 'server on core 0; wrk, fake desktops and this process on core 1'
      : `no CPU pinning (taskset ${canPin() ? 'failed' : 'unavailable or < 2 cores'}): figures are noisier`,
  )
  const started = new Date()
  const baseline = await startBaseline()
  try {
    await waitForQuiet()
    const a = await enqueuePart(wrk, baseline)
    await waitForQuiet()
    const b = await syncPart(baseline)
    await waitForQuiet()
    const c = await completionsPart(baseline)
    const result = rows(a, b, c)
    console.log(`\n${table(result)}\n`)
    for (const line of details(a, b, c)) console.log(line)
    if (result.some((r) => r.othersCpu !== null && r.othersCpu > NOISY))
      console.log(
        `NOISY: other processes used over ${pct(NOISY)} of the CPUs meanwhile; run again on a quiet machine`,
      )
    const file = join(import.meta.dir, 'results.json')
    await Bun.write(
      file,
      `${JSON.stringify(
        {
          startedAt: started.toISOString(),
          seconds: (Date.now() - started.getTime()) / 1000,
          machine: {
            cores: navigator.hardwareConcurrency,
            bun: Bun.version,
            pinned,
            loadGenerator: wrkVersion,
          },
          settings: { ...SETTINGS, target: TARGET },
          enqueue: a,
          sync: b,
          completions: c,
          rows: result,
        },
        null,
        2,
      )}\n`,
    )
    console.log(`\nwrote ${file}`)
  } finally {
    await baseline.stop()
  }
}

await main()

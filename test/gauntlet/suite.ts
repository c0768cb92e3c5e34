// One gauntlet app as a test file: the app and one rig (real server, real agent, Debian's
// Chromium) for its jobs; each job is taught over HTTP, promoted, called live twice and checked
// in the app's own data (run-job.ts). CI runs a representative slice, one job of each app, the
// kinds spread over them (create, lookup, change, list); every job runs in the benchmark
// (`bun run bench:builder gauntlet`), and `DESKHOOK_FULL_GAUNTLET=1 bun test test/gauntlet` runs
// them all here too.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Rig, startRig } from './harness.ts'
import { row, runJob } from './run-job.ts'
import type { GauntletJob, RunningApp } from './types.ts'

/** The job of each app that CI runs: together a create, a lookup, a change and lists. */
export const CI_SLICE: Record<string, string> = {
  radicale: 'create an address book, return its address',
  mediawiki: 'search pages, return a list',
  dokuwiki: 'search notes, return a list',
  'adminer-editor': 'look up a product by SKU, return name and price',
  fossil: 'report a bug, return its id',
  phpliteadmin: "change a customer's city, found by email",
}

const full = process.env.DESKHOOK_FULL_GAUNTLET === '1'

export function gauntletSuite<A extends RunningApp>(
  name: string,
  start: () => Promise<A>,
  jobs: GauntletJob<A>[],
): void {
  let app: A
  let rig: Rig
  beforeAll(async () => {
    app = await start()
    rig = await startRig(app.url)
  }, 120_000)
  afterAll(async () => {
    await rig?.stop()
    await app?.stop()
  })
  // Apps the slice does not name (the third-party slice's) run all the jobs they are given.
  const sliced = !full && name in CI_SLICE
  if (sliced && !jobs.some((job) => job.name === CI_SLICE[name]))
    throw new Error(`the CI slice names no job of ${name}: ${CI_SLICE[name]}`)
  for (const job of jobs) {
    // Outside the slice: run by the benchmark, not registered here.
    if (sliced && CI_SLICE[name] !== job.name) continue
    test(`${name}: ${job.name}`, async () => {
      const outcome = await runJob(rig.server, app, job)
      if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
      expect(outcome.liveCorrect).toBe(2)
    }, 300_000)
  }
}

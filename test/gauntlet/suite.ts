// One gauntlet app as a test file: the app and one rig (real server, real agent, Debian's
// Chromium) for all its jobs; each job is taught over HTTP, promoted, called live twice and
// checked in the app's own data (run-job.ts).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Rig, startRig } from './harness.ts'
import { row, runJob } from './run-job.ts'
import type { GauntletJob, RunningApp } from './types.ts'

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
  for (const job of jobs)
    test(`${name}: ${job.name}`, async () => {
      const outcome = await runJob(rig.server, app, job)
      if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
      expect(outcome.liveCorrect).toBe(2)
    }, 300_000)
}

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Fossil, startFossil } from './apps/fossil.ts'
import { type Rig, startRig } from './harness.ts'
import { fossilJobs } from './jobs/fossil-jobs.ts'
import { row, runJob } from './run-job.ts'

// Debian's fossil, a ticket tracker nobody here wrote, taught over HTTP alone (real server, real
// agent, real Chromium); each job is then promoted and called live twice with new inputs, and
// the repository is checked for what the calls really did.
let fossil: Fossil
let rig: Rig

beforeAll(async () => {
  fossil = await startFossil()
  rig = await startRig(fossil.url)
}, 120_000)

afterAll(async () => {
  await rig?.stop()
  await fossil?.stop()
})

for (const job of fossilJobs)
  test(`fossil: ${job.name}`, async () => {
    const outcome = await runJob(rig.server, fossil, job)
    if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
    expect(outcome.liveCorrect).toBe(2)
  }, 300_000)

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Radicale, startRadicale } from './apps/radicale.ts'
import { type Rig, startRig } from './harness.ts'
import { radicaleJobs } from './jobs/radicale-jobs.ts'
import { row, runJob } from './run-job.ts'

// Debian's Radicale (contacts and calendars) behind its sign-in screen, taught over HTTP with
// job secrets; its collections folder is checked for what the live calls created and changed.
// Both jobs act on one card among several: the new book's address is read in the card showing
// its title, and "Edit" is pressed in the card of the title the caller gives.
let radicale: Radicale
let rig: Rig

beforeAll(async () => {
  radicale = await startRadicale()
  rig = await startRig(radicale.url)
}, 120_000)

afterAll(async () => {
  await rig?.stop()
  await radicale?.stop()
})

for (const job of radicaleJobs)
  test(`radicale: ${job.name}`, async () => {
    const outcome = await runJob(rig.server, radicale, job)
    if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
    expect(outcome.liveCorrect).toBe(2)
  }, 300_000)

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Radicale, startRadicale } from './apps/radicale.ts'
import { type Rig, startRig } from './harness.ts'
import { radicaleJobs } from './jobs/radicale-jobs.ts'
import { row, runJob } from './run-job.ts'

// Debian's Radicale (contacts and calendars) behind its sign-in screen, taught over HTTP with
// job secrets; its collections folder is checked for what the live calls created.
let radicale: Radicale
let rig: Rig

beforeAll(async () => {
  // Nothing to start while every job of the app is a known failure (todo).
  if (radicaleJobs.every((j) => KNOWN_FAILING[j.name])) return
  radicale = await startRadicale()
  rig = await startRig(radicale.url)
}, 120_000)

afterAll(async () => {
  await rig?.stop()
  await radicale?.stop()
})

// Known failure (kept visible until the builder handles it): the build passes and the first live
// call returns the right address, but the second reads the URL box of another collection — the
// read is placed by position in a list that grows, not by the row showing the new title.
const KNOWN_FAILING: Record<string, string> = {
  [radicaleJobs[0]!.name]:
    'live 2 reads the address of another collection (read placed by position, not by its row)',
}

for (const job of radicaleJobs)
  (KNOWN_FAILING[job.name] ? test.todo : test)(
    `radicale: ${job.name}${KNOWN_FAILING[job.name] ? ` — fails: ${KNOWN_FAILING[job.name]}` : ''}`,
    async () => {
      const outcome = await runJob(rig.server, radicale, job)
      if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
      expect(outcome.liveCorrect).toBe(2)
    },
    300_000,
  )

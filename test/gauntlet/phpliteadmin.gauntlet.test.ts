import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type PhpLiteAdmin, startPhpLiteAdmin } from './apps/phpliteadmin.ts'
import { type Rig, startRig } from './harness.ts'
import { phpLiteAdminJobs } from './jobs/phpliteadmin-jobs.ts'
import { row, runJob } from './run-job.ts'

// Debian's phpLiteAdmin (the admin UI of SQLite databases, behind a password screen), taught over
// HTTP with the password as a job secret; the database file is read back to check the live calls.
// Its forms are laid out as tables (field name | type | operator | value box): each box is found by
// its row's name, and the search's results table comes back as a list.
let app: PhpLiteAdmin
let rig: Rig

beforeAll(async () => {
  app = await startPhpLiteAdmin()
  rig = await startRig(app.url)
}, 120_000)

afterAll(async () => {
  await rig?.stop()
  await app?.stop()
})

for (const job of phpLiteAdminJobs)
  test(`phpliteadmin: ${job.name}`, async () => {
    const outcome = await runJob(rig.server, app, job)
    if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
    expect(outcome.liveCorrect).toBe(2)
  }, 300_000)

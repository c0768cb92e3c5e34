import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { findExecution } from '../../src/modules/executions/service.ts'
import type { RunOutcome, RunRequest } from '../../src/protocol/messages.ts'
import { eventually } from '../helpers/cli.ts'
import { FakeAgent } from '../helpers/fake-agent.ts'
import { liveJob, noopAutomation } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Real servers, real SQLite, a busy CI machine.
setDefaultTimeout(60_000)

// Issue 23 N17 (docs/reliability.md P22): a run result that arrived while the disk was full was
// settled in memory, failed to be written and was not acknowledged; the agent's re-send was then
// acknowledged as unknown without being stored, and the execution stayed `running` with no timer.
// The disk is full here the way SQLite itself sees it: `max_page_count` at the pages the file has,
// so the result's write fails with SQLITE_FULL, and nothing else is faked.
let s: TestServer & { logs: string[] }
let agent: FakeAgent

beforeEach(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 60_000 })
})
afterEach(async () => {
  agent?.close()
  await s.close()
})

const BIG = 'x'.repeat(200_000)

function fillDisk(): void {
  const sqlite = s.ctx.db.$client
  const { page_count } = sqlite.query('PRAGMA page_count').get() as { page_count: number }
  sqlite.run(`PRAGMA max_page_count = ${page_count}`)
}
const freeDisk = () => s.ctx.db.$client.run('PRAGMA max_page_count = 1073741823')

/**
 * The desktop comes online once the job is live (a teaching call's build would otherwise hold it),
 * then an async call of the job, and the run the desktop receives.
 */
async function startRun(path: string): Promise<RunRequest> {
  agent = new FakeAgent(s.url)
  await agent.opened
  agent.hello({ kind: 'enroll', token: createEnrollmentToken(s.ctx).token })
  await agent.next('welcome')
  const res = await s.call(path, { method: 'POST', headers: { 'x-job-async': 'true' }, json: {} })
  expect(res.status).toBe(202)
  return agent.next('run')
}

function report(run: RunRequest, replayed = false): void {
  const now = new Date().toISOString()
  const outcome: RunOutcome = {
    status: 'succeeded',
    scenario: 'main',
    outcome: 'success',
    result: { text: BIG },
    startedAt: now,
    finishedAt: now,
  }
  agent.send({
    type: 'run.result',
    runId: run.runId,
    lease: run.lease,
    outcome,
    ...(replayed ? { replayed } : {}),
  })
}

const acked = (runId: string) => agent.received.some((m) => m.type === 'run.ack' && m.runId === runId)
const failedToRecord = (runId: string) =>
  s.logs.some((l) => l.includes(runId) && l.includes('could not record the end of an execution'))

/** The result arrives while the disk is full: nothing stored, nothing acknowledged, still running. */
async function resultLostToFullDisk(run: RunRequest): Promise<void> {
  fillDisk()
  report(run)
  await eventually(async () => failedToRecord(run.runId))
  expect(acked(run.runId)).toBe(false)
  expect(findExecution(s.ctx, run.runId)?.status).toBe('running')
}

function expectSucceededWithResult(runId: string): void {
  const row = findExecution(s.ctx, runId)
  expect(row?.status).toBe('succeeded')
  expect(JSON.stringify(row?.result)).toContain(BIG)
}

describe('a run result that arrives while the disk is full', () => {
  test('stays pending: the agent’s re-send once there is room is stored and acknowledged, and the run succeeded', async () => {
    await liveJob(s, 'POST', '/disk-full', noopAutomation(1))
    const run = await startRun('/disk-full')
    await resultLostToFullDisk(run)
    freeDisk()
    // The agent re-sends from its journal (src/agent/agent.ts does so after each welcome).
    report(run, true)
    await eventually(async () => acked(run.runId), 20_000)
    expectSucceededWithResult(run.runId)
    expect(findExecution(s.ctx, run.runId)?.error).toBeNull()
  })

  test('is stored by the server itself once there is room, though the agent never re-sends it', async () => {
    await liveJob(s, 'POST', '/disk-full-no-resend', noopAutomation(1))
    const run = await startRun('/disk-full-no-resend')
    await resultLostToFullDisk(run)
    freeDisk()
    await eventually(async () => acked(run.runId), 40_000)
    expectSucceededWithResult(run.runId)
  })
})

test('a run whose timeout passes while the disk is full still ends (timed_out) once there is room', async () => {
  // The server ends a run its agent never reports 5 s after the run's own timeout (scheduler).
  await liveJob(s, 'POST', '/disk-full-timeout', noopAutomation(1), { timeoutMs: 100 })
  const run = await startRun('/disk-full-timeout')
  // The timed_out write is a few bytes that fit in the pages the file has: so that it needs a new
  // page, a trigger on this connection adds 100 KB to exactly that write. With no page to spare it
  // fails with SQLite's own SQLITE_FULL.
  const sqlite = s.ctx.db.$client
  sqlite.run('CREATE TABLE disk_full_ballast (b BLOB)')
  sqlite.run(
    `CREATE TEMP TRIGGER timed_out_needs_a_page AFTER UPDATE OF status ON main.executions
     WHEN NEW.status = 'timed_out' BEGIN INSERT INTO main.disk_full_ballast VALUES (zeroblob(100000)); END`,
  )
  fillDisk()
  await eventually(async () => failedToRecord(run.runId), 20_000)
  expect(s.logs.some((l) => l.includes(run.runId) && l.includes('SQLITE_FULL'))).toBe(true)
  expect(findExecution(s.ctx, run.runId)?.status).toBe('running')
  freeDisk()
  await eventually(async () => findExecution(s.ctx, run.runId)?.status === 'timed_out', 40_000)
})

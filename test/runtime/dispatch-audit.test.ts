import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { DB_FILE } from '../../src/db/client.ts'
import { listAudit } from '../../src/modules/audit/list.ts'
import { verifyAudit } from '../../src/modules/audit/verify.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { findExecution } from '../../src/modules/executions/service.ts'
import { PROTOCOL_VERSION, type RunRequest, type ServerMessage } from '../../src/protocol/messages.ts'
import { automationDigest, checkRunSignature, runSigningKey } from '../../src/protocol/run-signature.ts'
import { eventually } from '../helpers/cli.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/**
 * P20: every dispatch is audited before it is sent. The desktop here is the hub's own socket
 * interface, so the check runs at the very moment the hub writes the run to the socket: the audit
 * row must already be committed then, as a second connection to the file (which sees only
 * committed data) finds it.
 */
let s: TestServer
let jobId: string
let reader: Database

beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 60_000 })
  jobId = await liveJob(s, 'POST', '/dispatch-audit')
  reader = new Database(join(s.dataDir, DB_FILE))
  reader.run('PRAGMA busy_timeout = 10000')
})
afterAll(async () => {
  reader?.close()
  await s?.close()
})

interface Sent {
  run: RunRequest
  /** The `execution.dispatched` rows of the run that another connection saw as it was sent. */
  committedRows: { id: number; details: string }[]
}

const committedDispatchRows = (executionId: string) =>
  reader
    .query<{ id: number; details: string }, [string]>(
      `SELECT id, details FROM _audit_log WHERE action = 'execution.dispatched' AND target_id = ?`,
    )
    .all(executionId)

/** A desktop on a socket the test holds: records each run as it is sent, answers when told. */
function connectDesktop(name: string) {
  const sent: Sent[] = []
  const arrivals: ((s: Sent) => void)[] = []
  let secret = ''
  const session = s.hub.open({
    send(data: string | Uint8Array) {
      const msg = JSON.parse(String(data)) as ServerMessage
      if (msg.type === 'welcome') secret = msg.credential!.secret
      if (msg.type !== 'run') return
      const entry = { run: msg, committedRows: committedDispatchRows(msg.runId) }
      sent.push(entry)
      arrivals.shift()?.(entry)
    },
    close() {},
  })
  s.hub.message(session, {
    type: 'hello',
    protocol: PROTOCOL_VERSION,
    agentVersion: 'test',
    name,
    platform: 'linux',
    driver: 'browser',
    auth: { kind: 'enroll', token: createEnrollmentToken(s.ctx).token },
  })
  return {
    sent,
    secret: () => secret,
    /** The next run sent to this desktop (already sent ones count first). */
    nextRun(index: number): Promise<Sent> {
      if (sent[index]) return Promise.resolve(sent[index])
      return new Promise((resolve) => arrivals.push(resolve))
    },
    finish(run: RunRequest) {
      const now = new Date().toISOString()
      s.hub.message(session, {
        type: 'run.result',
        runId: run.runId,
        lease: run.lease,
        outcome: {
          status: 'succeeded',
          scenario: 'main',
          outcome: 'success',
          result: {},
          startedAt: now,
          finishedAt: now,
        },
      })
    },
  }
}

async function callAsync(n: number): Promise<string> {
  const res = await s.call('/dispatch-audit?async=1', { method: 'POST', json: { n } })
  expect(res.status).toBe(202)
  return (await res.json()).jobExecutionId
}

describe('execution.dispatched', () => {
  let desktop: ReturnType<typeof connectDesktop>
  let ids: string[]

  test('every run sent has its audit row committed before the send: fast path and queue alike', async () => {
    desktop = connectDesktop('audited-desk')
    // Idle desktop, empty queue: the call's execution is written already claimed (fast path).
    const first = await callAsync(1)
    const a = await desktop.nextRun(0)
    expect(a.run.runId).toBe(first)
    // The desktop is busy: these two queue and go out through the scheduler's claim of a pass.
    const queued = [await callAsync(2), await callAsync(3)]
    desktop.finish(a.run)
    const b = await desktop.nextRun(1)
    desktop.finish(b.run)
    const c = await desktop.nextRun(2)
    desktop.finish(c.run)
    ids = [first, ...queued]
    expect([b.run.runId, c.run.runId]).toEqual(queued)
    await eventually(async () => ids.every((id) => findExecution(s.ctx, id)?.status === 'succeeded'))

    const welcomeSecret = desktop.secret()
    for (const { run, committedRows } of desktop.sent) {
      expect(committedRows).toHaveLength(1)
      expect(JSON.parse(committedRows[0]!.details)).toEqual({
        jobId,
        jobVersion: 1,
        desktopId: findExecution(s.ctx, run.runId)!.desktopId,
        lease: run.lease,
        // The digest of exactly the automation the desktop received.
        automationSha256: automationDigest(run.automation),
      })
      // And the run is signed with the key both ends derive from the desktop's credential.
      expect(checkRunSignature(runSigningKey(welcomeSecret), run)).toBe('valid')
    }
  })

  test('exactly one row per dispatched execution, by the scheduler; the chain still verifies', () => {
    const rows = listAudit(s.ctx, { action: 'execution.dispatched', limit: 1000 })
    for (const id of ids) {
      const mine = rows.filter((r) => r.target.id === id)
      expect(mine).toHaveLength(1)
      expect(mine[0]).toMatchObject({
        actor: { kind: 'system', id: 'scheduler' },
        target: { kind: 'execution', id },
      })
    }
    expect(verifyAudit(s.ctx)).toMatchObject({ ok: true })
  })

  test('editing a dispatch row (its digest) makes the verifier name it', () => {
    const victim = committedDispatchRows(ids[1]!)[0]!
    const forged = victim.details.replace(
      /"automationSha256":"[0-9a-f]{64}"/,
      `"automationSha256":"${'0'.repeat(64)}"`,
    )
    expect(forged).not.toBe(victim.details)
    const setDetails = (details: string) =>
      reader.query('UPDATE _audit_log SET details = ? WHERE id = ?').run(details, victim.id)
    setDetails(forged)
    try {
      expect(verifyAudit(s.ctx)).toMatchObject({ ok: false, brokenAt: victim.id })
    } finally {
      setDetails(victim.details)
    }
    expect(verifyAudit(s.ctx)).toMatchObject({ ok: true })
  })
})

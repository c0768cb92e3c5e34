// The audit log under --audit-days: the retention task removes its oldest rows (a run from the
// start, in batches) and leaves an anchor, so the kept rows still verify as a chain, a row appended
// after everything was removed links on, and an edit of a kept row is still caught.
import { afterEach, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { SYSTEM_ACTOR } from '../../src/modules/audit/actor.ts'
import { auditAnchor } from '../../src/modules/audit/anchor.ts'
import { recordAudit } from '../../src/modules/audit/record.ts'
import { verifyAudit } from '../../src/modules/audit/verify.ts'
import { RetentionTask } from '../../src/runtime/retention.ts'
import { fakeClock } from '../helpers/clocked-server.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const DAY = 86_400_000
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const done of cleanup.splice(0)) done()
})

function harness(auditDays: number) {
  const work = tempDir('deskhook-audit-retention-')
  const db = openDatabase(work.path)
  migrate(db.$client)
  const clock = fakeClock(Date.parse('2030-01-01T00:00:00.000Z'))
  const ctx: AppContext = createContext({
    config: loadConfig({ dataDir: work.path, auditDays }, {}),
    db,
    log: createLogger({ level: 'silent', format: 'json' }),
    clock,
  })
  cleanup.push(() => {
    db.$client.close()
    work.remove()
  })
  return { ctx, clock, dataDir: work.path }
}

const write = (ctx: AppContext, n: number, tag: string) => {
  for (let i = 0; i < n; i++)
    recordAudit(ctx, {
      actor: SYSTEM_ACTOR,
      action: 'settings.changed',
      target: { kind: 'settings', id: `${tag}-${i}` },
    })
}
const ids = (ctx: AppContext) =>
  ctx.db.$client
    .query<{ id: number }, []>('SELECT id FROM _audit_log ORDER BY id')
    .all()
    .map((r) => r.id)

test('rows older than --audit-days go oldest first, in batches; the rest still verify from the anchor', async () => {
  const { ctx, clock } = harness(365)
  write(ctx, 23, 'old')
  clock.advance(200 * DAY)
  write(ctx, 4, 'newer')
  clock.advance(200 * DAY) // the first 23 are now 400 days old, the next 4 are 200
  // Batches of 2 × 5 rows: the 23 go in three transactions.
  const report = await new RetentionTask(ctx, { batchSize: 2 }).runOnce()
  expect(report.error).toBeUndefined()
  expect(report.auditRows).toBe(23)
  // Each batch's removal is recorded in its own transaction by an audit.pruned row (28–30).
  expect(ids(ctx)).toEqual([24, 25, 26, 27, 28, 29, 30])
  expect(auditAnchor(ctx.db)?.id).toBe(23)
  expect(verifyAudit(ctx)).toMatchObject({ ok: true, rows: 7, firstId: 24, prunedBy: 30 })

  // An edit of a kept row is still caught, the first kept one included.
  ctx.db.$client.run(`UPDATE _audit_log SET target_id = 'forged' WHERE id = 24`)
  expect(verifyAudit(ctx)).toMatchObject({ ok: false, brokenAt: 24 })
})

test('with every row removed, the next row links to the anchor and the log verifies', async () => {
  const { ctx, clock } = harness(30)
  write(ctx, 3, 'old')
  clock.advance(31 * DAY)
  expect((await new RetentionTask(ctx).runOnce()).auditRows).toBe(3)
  // Only the audit.pruned row recording the removal is left.
  expect(ids(ctx)).toEqual([4])
  expect(verifyAudit(ctx)).toMatchObject({ ok: true, rows: 1 })
  write(ctx, 2, 'after')
  expect(ids(ctx)).toEqual([4, 5, 6])
  expect(verifyAudit(ctx)).toMatchObject({ ok: true, rows: 3, firstId: 4 })
  // A removed tail is still a gap the verifier names.
  ctx.db.$client.run('DELETE FROM _audit_log WHERE id = 6')
  expect(verifyAudit(ctx)).toMatchObject({ ok: false, brokenAt: 6 })
})

test('--audit-days 0 keeps every row', async () => {
  const { ctx, clock } = harness(0)
  write(ctx, 3, 'old')
  clock.advance(10_000 * DAY)
  const report = await new RetentionTask(ctx).runOnce()
  expect(report.auditRows).toBeUndefined()
  expect(ids(ctx)).toEqual([1, 2, 3])
  expect(auditAnchor(ctx.db)).toBeNull()
})

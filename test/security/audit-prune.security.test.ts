// Issue 23, N5: the oldest audit rows deleted by hand, with a matching anchor written, must not
// verify; a removal by retention is itself a row of the chain, so it moves the head.
import { afterEach, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { SYSTEM_ACTOR } from '../../src/modules/audit/actor.ts'
import { AUDIT_ANCHOR_KEY } from '../../src/modules/audit/anchor.ts'
import { listAudit } from '../../src/modules/audit/list.ts'
import { recordAudit } from '../../src/modules/audit/record.ts'
import { verifyAudit } from '../../src/modules/audit/verify.ts'
import { RetentionTask } from '../../src/runtime/retention.ts'
import { cli } from '../helpers/cli.ts'
import { fakeClock } from '../helpers/clocked-server.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const DAY = 86_400_000
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const done of cleanup.splice(0)) done()
})

function harness(auditDays = 365) {
  const work = tempDir('deskhook-audit-prune-')
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

const hashOf = (ctx: AppContext, id: number) =>
  ctx.db.$client.query<{ hash: string }, [number]>('SELECT hash FROM _audit_log WHERE id = ?').get(id)!.hash

/** What someone with write access to the file does: delete the oldest rows, write the anchor they leave. */
function deleteOldestAndForgeAnchor(ctx: AppContext, through: number) {
  const hash = hashOf(ctx, through)
  ctx.db.$client.run('DELETE FROM _audit_log WHERE id <= ?', [through])
  ctx.db.$client.run(
    `INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?3`,
    [AUDIT_ANCHOR_KEY, JSON.stringify({ id: through, hash }), new Date().toISOString()],
  )
}

describe('removing the oldest audit rows', () => {
  test('by hand, with a matching anchor forged: verify says broken, and the CLI exits 1', async () => {
    const { ctx, dataDir } = harness()
    write(ctx, 40, 'row')
    const before = verifyAudit(ctx)
    expect(before).toMatchObject({ ok: true, rows: 40, firstId: 1 })
    deleteOldestAndForgeAnchor(ctx, 20)
    const verdict = verifyAudit(ctx)
    expect(verdict).toMatchObject({ ok: false, brokenAt: 21 })
    expect(verdict.ok || verdict.reason).toContain('no audit.pruned row records')
    const res = await cli(['audit', 'verify', '--data', dataDir])
    expect(res.code).toBe(1)
    expect(res.stdout).toContain('broken at row 21')
  }, 30_000)

  test('by retention: recorded as an audit.pruned row, so the chain head moves and the log verifies', async () => {
    const { ctx, clock, dataDir } = harness(365)
    write(ctx, 23, 'old')
    clock.advance(200 * DAY)
    write(ctx, 4, 'newer')
    const kept = verifyAudit(ctx)
    if (!kept.ok) throw new Error('expected an intact log')
    clock.advance(200 * DAY)
    const report = await new RetentionTask(ctx, { batchSize: 100 }).runOnce()
    expect(report.auditRows).toBe(23)
    const after = verifyAudit(ctx)
    expect(after).toMatchObject({ ok: true, firstId: 24, prunedBy: 28 })
    // A copy of the head kept before the removal no longer matches: the removal is a new link.
    if (!after.ok) throw new Error('expected an intact log')
    expect(after.lastHash).not.toBe(kept.lastHash)
    const [pruned] = listAudit(ctx, { action: 'audit' })
    expect(pruned).toMatchObject({
      id: 28,
      action: 'audit.pruned',
      actor: { kind: 'system', id: 'retention' },
      details: { from: 1, through: 23, removed: 23, anchorDigest: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    const res = await cli(['audit', 'verify', '--data', dataDir])
    expect(res.code).toBe(0)
    expect(res.stdout).toContain('from row 24')
    expect(res.stdout).toContain('recorded in row 28')
  }, 30_000)

  test('by hand after a removal by retention: an anchor past the recorded one is caught too', async () => {
    const { ctx, clock } = harness(365)
    write(ctx, 10, 'old')
    clock.advance(400 * DAY)
    write(ctx, 20, 'young')
    await new RetentionTask(ctx).runOnce()
    expect(verifyAudit(ctx)).toMatchObject({ ok: true, firstId: 11, prunedBy: 31 })
    deleteOldestAndForgeAnchor(ctx, 20)
    const verdict = verifyAudit(ctx)
    expect(verdict).toMatchObject({ ok: false, brokenAt: 21 })
    expect(verdict.ok || verdict.reason).toContain('the latest, row 31, names row 10')
  })

  test('with every row removed by retention, the audit.pruned row is the chain, and later rows link on', async () => {
    const { ctx, clock } = harness(30)
    write(ctx, 3, 'old')
    clock.advance(31 * DAY)
    expect((await new RetentionTask(ctx).runOnce()).auditRows).toBe(3)
    expect(verifyAudit(ctx)).toMatchObject({ ok: true, rows: 1, firstId: 4, prunedBy: 4 })
    write(ctx, 2, 'after')
    expect(verifyAudit(ctx)).toMatchObject({ ok: true, rows: 3, firstId: 4, prunedBy: 4 })
  })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { userInfo } from 'node:os'
import { count, eq } from 'drizzle-orm'
import { apiKeys, auditLog } from '../../src/db/schema/index.ts'
import { userActor } from '../../src/modules/audit/actor.ts'
import { listAudit } from '../../src/modules/audit/list.ts'
import { verifyAudit } from '../../src/modules/audit/verify.ts'
import { createKey, revokeKey, rotateKey } from '../../src/modules/keys/service.ts'
import { cli } from '../helpers/cli.ts'
import { type DashboardClient, signIn } from '../helpers/dashboard.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/**
 * Key changes and their audit rows commit in one transaction: the row is there when the change
 * is, the chain verifies, and a failure while writing the row undoes the change too.
 */
let s: TestServer
let admin: DashboardClient

beforeAll(async () => {
  s = await startTestServer()
  admin = await signIn(s)
})
afterAll(() => s.close())

const latest = (action: string) => listAudit(s.ctx, { action, limit: 1 })[0]
const auditRows = () => s.ctx.db.select({ n: count() }).from(auditLog).get()!.n
const keyRow = (id: string) => s.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, id)).get()
const ALICE = userActor({ id: 'u-alice', email: 'alice@example.com' })

describe('each key change has its audit row', () => {
  test('the first key of a new installation is recorded as made by deskhook', () => {
    const first = listAudit(s.ctx, { action: 'key.created', limit: 1000 }).at(-1)!
    expect(first).toMatchObject({ actor: { kind: 'system' }, target: { kind: 'key' } })
    expect(keyRow(first.target.id)?.name).toBe('default')
  })

  test('create, rotate and revoke: one row each, naming who and which key, and the chain verifies', () => {
    const made = createKey(s.ctx, { name: 'billing', scopes: 'call' }, ALICE)
    expect(latest('key.created')).toMatchObject({
      actor: { kind: 'user', id: 'u-alice', label: 'alice@example.com' },
      target: { kind: 'key', id: made.id },
      details: { name: 'billing', prefix: made.prefix },
    })
    const { key, old } = rotateKey(s.ctx, 'billing', { overlap: '1h' }, ALICE)
    expect(latest('key.rotated')).toMatchObject({
      actor: { id: 'u-alice' },
      target: { kind: 'key', id: key.id },
      details: { name: 'billing', prefix: key.prefix, oldKeyId: made.id, oldPrefix: made.prefix },
    })
    expect(latest('key.rotated')!.details.oldExpiresAt).toBe(old.expiresAt)
    revokeKey(s.ctx, key.id, ALICE)
    expect(latest('key.revoked')).toMatchObject({
      actor: { id: 'u-alice' },
      target: { kind: 'key', id: key.id },
      details: { name: 'billing', prefix: key.prefix },
    })
    expect(verifyAudit(s.ctx)).toMatchObject({ ok: true })
  })

  test('revoking a revoked key changes nothing and records nothing', () => {
    const made = createKey(s.ctx, 'twice')
    revokeKey(s.ctx, made.id)
    const before = auditRows()
    expect(revokeKey(s.ctx, made.id).status).toBe('revoked')
    expect(auditRows()).toBe(before)
  })

  test('the CLI records the OS user; the dashboard the signed-in person', async () => {
    const made = await cli(['keys', 'create', '--name', 'from-cli', '--json', '--data', s.dataDir])
    expect(made.code).toBe(0)
    const { id } = JSON.parse(made.stdout) as { id: string }
    expect(latest('key.created')).toMatchObject({
      actor: { kind: 'cli', id: userInfo().username },
      target: { id },
    })
    expect((await cli(['keys', 'revoke', id, '--data', s.dataDir])).code).toBe(0)
    expect(latest('key.revoked')).toMatchObject({ actor: { kind: 'cli' }, target: { id } })

    expect((await admin.post('/_/settings/keys', { name: 'from-dashboard' })).status).toBe(200)
    expect(latest('key.created')).toMatchObject({
      actor: { kind: 'user', label: 'admin@example.com' },
      details: { name: 'from-dashboard' },
    })
    expect(verifyAudit(s.ctx)).toMatchObject({ ok: true })
  })
})

describe('a failure while writing the audit row undoes the key change', () => {
  /** The audit insert fails inside the key's transaction, as a full disk or a crash would make it. */
  function auditFails<T>(body: () => T): void {
    const sqlite = s.ctx.db.$client
    sqlite.run(
      `CREATE TEMP TRIGGER audit_fails BEFORE INSERT ON _audit_log BEGIN SELECT RAISE(ABORT, 'audit write failed'); END`,
    )
    try {
      expect(body).toThrow('audit write failed')
    } finally {
      sqlite.run('DROP TRIGGER temp.audit_fails')
    }
  }

  test('create: no key, no row', () => {
    const before = auditRows()
    auditFails(() => createKey(s.ctx, 'never-made', ALICE))
    expect(s.ctx.db.select().from(apiKeys).where(eq(apiKeys.name, 'never-made')).all()).toEqual([])
    expect(auditRows()).toBe(before)
  })

  test('revoke: the key stays active and keeps working', async () => {
    const made = createKey(s.ctx, { name: 'kept', scopes: 'read' })
    const before = auditRows()
    auditFails(() => revokeKey(s.ctx, made.id, ALICE))
    expect(keyRow(made.id)?.revokedAt).toBeNull()
    expect(auditRows()).toBe(before)
    expect((await s.call('/_jobs', { key: made.key })).status).toBe(200)
  })

  test('rotate: no successor, the old key untouched', () => {
    const made = createKey(s.ctx, 'not-rotated')
    const keysBefore = s.ctx.db.select({ n: count() }).from(apiKeys).get()!.n
    const before = auditRows()
    auditFails(() => rotateKey(s.ctx, made.id, { overlap: '1h' }, ALICE))
    expect(s.ctx.db.select({ n: count() }).from(apiKeys).get()!.n).toBe(keysBefore)
    expect(keyRow(made.id)).toMatchObject({ expiresAt: null, replacedBy: null })
    expect(auditRows()).toBe(before)
    expect(verifyAudit(s.ctx)).toMatchObject({ ok: true })
  })
})

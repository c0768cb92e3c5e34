import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { generateApiKey, hashApiKey } from '../../src/lib/api-key-format.ts'
import { createBackup } from '../../src/modules/backup/create-backup.ts'
import { createKey, revokeKey } from '../../src/modules/keys/service.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

let s: TestServer & { logs: string[] }
let revoked: string

beforeAll(async () => {
  s = await startTestServer()
  const k = createKey(s.ctx, 'to-revoke')
  revokeKey(s.ctx, k.id)
  revoked = k.key
})
afterAll(() => s.close())

describe('API keys', () => {
  const bad: [string, () => string | null][] = [
    ['missing', () => null],
    ['empty', () => ''],
    ['malformed', () => 'hello'],
    ['well-formed but unknown', () => generateApiKey()],
    ['wrong checksum', () => `${s.key.slice(0, -1)}${s.key.endsWith('A') ? 'B' : 'A'}`],
    ['revoked', () => revoked],
    ['the stored hash itself', () => hashApiKey(s.key).toString('hex')],
  ]
  const keyed = ['/_jobs', '/_builds/x', '/_executions/x', '/customers', '/_nope']

  for (const [name, key] of bad) {
    for (const path of keyed) {
      test(`${name} key on ${path} → 401 with WWW-Authenticate and the error body`, async () => {
        const res = await s.call(path, { key: key() })
        expect(res.status).toBe(401)
        expect(res.headers.get('www-authenticate')).toContain('ApiKey')
        const body = await res.json()
        expect(body.error.code).toBe('UNAUTHORIZED')
        expect(body.error.requestId).toBe(res.headers.get('x-request-id')!)
      })
    }
  }

  test('unknown and revoked keys get the same answer (no oracle)', async () => {
    const a = await (await s.call('/_jobs', { key: generateApiKey() })).json()
    const b = await (await s.call('/_jobs', { key: revoked })).json()
    expect({ ...a.error, requestId: '' }).toEqual({ ...b.error, requestId: '' })
  })

  test('a 401 is decided before the body is read', async () => {
    const res = await s.call('/anything', {
      key: null,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    })
    expect(res.status).toBe(401)
  })

  test.each(['/swagger.json', '/_health'])('%s needs no key', async (path) => {
    expect((await s.call(path, { key: null })).status).toBe(200)
  })

  test('a valid key passes, and last use is recorded', async () => {
    const res = await s.call('/_jobs')
    expect(res.status).toBe(200)
    const row = s.ctx.db.$client
      .query<{ last_used_at: string | null }, []>("SELECT last_used_at FROM api_keys WHERE name = 'default'")
      .get()
    expect(row?.last_used_at).toBeTruthy()
  })

  test('no key is stored, logged or backed up in plaintext (100 keys)', async () => {
    const created = Array.from({ length: 100 }, (_, i) => createKey(s.ctx, `k${i}`).key)
    for (const k of created.slice(0, 10)) await s.call('/_jobs', { key: k })
    const archive = join(s.dataDir, '..', `keys-backup-${process.pid}.tar.gz`)
    await createBackup({ dataDir: s.dataDir, out: archive })
    s.ctx.db.$client.run('PRAGMA wal_checkpoint(FULL)')
    const files = ['deskhook.db', 'deskhook.db-wal'].map((f) => {
      try {
        return readFileSync(join(s.dataDir, f)).toString('latin1')
      } catch {
        return ''
      }
    })
    files.push(gunzipSync(readFileSync(archive)).toString('latin1'))
    rmSync(archive)
    for (const k of [s.key, ...created]) {
      for (const f of files) expect(f.includes(k)).toBe(false)
      expect(s.logs.join('').includes(k)).toBe(false)
    }
  })
})

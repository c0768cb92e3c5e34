import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createKey, listKeys, rotateKey } from '../../src/modules/keys/service.ts'
import { fakeClock, startClockedServer } from '../helpers/clocked-server.ts'

/**
 * P12: zero-downtime rotation. During the overlap both keys work; the old key fails with 401
 * from its expiry instant on, and not a millisecond earlier. Expiry set at creation behaves alike.
 */
const clock = fakeClock()
let s: Awaited<ReturnType<typeof startClockedServer>>

beforeAll(async () => {
  s = await startClockedServer(clock)
})
afterAll(() => s.close())

const status = async (key: string) => (await s.call('/_jobs', key)).status

describe('key rotation with an overlap', () => {
  test('a 2 s overlap: both keys work across it, the old one fails exactly at expiry', async () => {
    const old = createKey(s.ctx, { name: 'erp', scopes: 'read', rate: 1000, burst: 1000 })
    expect(await status(old.key)).toBe(200)

    const start = clock.ms
    const { key: fresh, old: replaced } = rotateKey(s.ctx, 'erp', { overlap: '2s' })
    const expiry = Date.parse(replaced.expiresAt!)
    expect(expiry).toBe(start + 2000)
    expect(fresh.name).toBe('erp')
    expect(fresh.scopes).toEqual(['read'])
    expect(fresh.ratePerSecond).toBe(1000)
    expect(replaced.replacedBy).toBe(fresh.id)

    // Walk the clock across the boundary in 100 ms steps, and hit the edges to the millisecond.
    const instants = [
      ...Array.from({ length: 31 }, (_, i) => start + i * 100),
      expiry - 1,
      expiry,
      expiry + 1,
    ]
    for (const at of instants.sort((x, y) => x - y)) {
      clock.set(at)
      expect({ at: at - start, status: await status(old.key) }).toEqual({
        at: at - start,
        status: at < expiry ? 200 : 401,
      })
      expect(await status(fresh.key)).toBe(200)
    }

    const res = await s.call('/_jobs', old.key)
    expect(res.headers.get('www-authenticate')).toContain('ApiKey')
    // An expired key gets the same answer as an unknown one (no oracle).
    const unknown = await s.call('/_jobs', `dh_${'0'.repeat(49)}`)
    const [e, u] = [(await res.json()).error, (await unknown.json()).error]
    expect({ ...e, requestId: '' }).toEqual({ ...u, requestId: '' })

    const listed = listKeys(s.ctx).filter((k) => k.name === 'erp')
    expect(listed.map((k) => k.status)).toEqual(['expired', 'active'])
  })

  test('rotating again names the new key: an already rotated key cannot be rotated twice', () => {
    const k = createKey(s.ctx, { name: 'twice' })
    rotateKey(s.ctx, 'twice', { overlap: '1h' })
    // The name now means the successor alone.
    const again = rotateKey(s.ctx, 'twice', { overlap: '1h' })
    expect(again.old.replacedBy).toBe(again.key.id)
    expect(() => rotateKey(s.ctx, k.id, { overlap: '1h' })).toThrow(/cannot be rotated/)
  })

  test('the overlap never extends an earlier expiry, and the successor keeps the lifetime', () => {
    const k = createKey(s.ctx, { name: 'short', expires: '10m' })
    const { key, old } = rotateKey(s.ctx, 'short', { overlap: '24h' })
    expect(old.expiresAt).toBe(k.expiresAt)
    expect(Date.parse(key.expiresAt!) - clock.ms).toBe(10 * 60_000)
  })

  test('--expires: a key works until its expiry instant and gets 401 from then on', async () => {
    const k = createKey(s.ctx, { name: 'temp', expires: '30d' })
    const expiry = Date.parse(k.expiresAt!)
    expect(expiry - clock.ms).toBe(30 * 86_400_000)
    clock.set(expiry - 1)
    expect(await status(k.key)).toBe(200)
    clock.set(expiry)
    expect(await status(k.key)).toBe(401)
  })

  test('last use is written at most once a minute per key', async () => {
    const k = createKey(s.ctx, { name: 'busy' })
    const lastUsed = () => listKeys(s.ctx).find((x) => x.id === k.id)!.lastUsedAt
    await status(k.key)
    const first = lastUsed()
    expect(first).toBe(clock.now().toISOString())
    clock.advance(30_000)
    await status(k.key)
    expect(lastUsed()).toBe(first)
    clock.advance(31_000)
    await status(k.key)
    expect(lastUsed()).toBe(clock.now().toISOString())
  })
})

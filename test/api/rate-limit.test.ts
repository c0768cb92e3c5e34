import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createKey } from '../../src/modules/keys/service.ts'
import { fakeClock, startClockedServer } from '../helpers/clocked-server.ts'

/**
 * P11: a key past its token bucket gets 429 with Retry-After; other keys are unaffected. The
 * clock stands still while a burst is fired, so the counts are exact, not timing-dependent.
 */
const clock = fakeClock()
let s: Awaited<ReturnType<typeof startClockedServer>>
let a: string
let b: string
let unlimited: string

beforeAll(async () => {
  s = await startClockedServer(clock)
  a = createKey(s.ctx, { name: 'A', rate: 10, burst: 10 }).key
  b = createKey(s.ctx, { name: 'B', rate: 10, burst: 10 }).key
  unlimited = s.key
})
afterAll(() => s.close())

const statuses = (rs: Response[]) => rs.map((r) => r.status)

describe('per-key rate limits', () => {
  test('key A hammered at 10× its limit: exactly its burst passes, the rest get 429 + Retry-After; B and an unlimited key all pass', async () => {
    const baseline = statuses(await Promise.all(Array.from({ length: 5 }, () => s.call('/_jobs', unlimited))))
    expect(baseline.every((x) => x === 200)).toBe(true)

    // 100 requests from A interleaved with 10 from B (B's whole burst) and 20 from an unlimited key.
    const fromA: Promise<Response>[] = []
    const fromB: Promise<Response>[] = []
    const fromU: Promise<Response>[] = []
    for (let i = 0; i < 100; i++) {
      fromA.push(s.call('/_jobs', a))
      if (i % 10 === 0) fromB.push(s.call('/_jobs', b))
      if (i % 5 === 0) fromU.push(s.call('/_jobs', unlimited))
    }
    const [ra, rb, ru] = await Promise.all([Promise.all(fromA), Promise.all(fromB), Promise.all(fromU)])

    expect(statuses(ra).filter((x) => x === 200)).toHaveLength(10)
    const limited = ra.filter((r) => r.status === 429)
    expect(limited).toHaveLength(90)
    for (const r of limited) {
      expect(r.headers.get('retry-after')).toBe('1')
      const body = await r.json()
      expect(body.error.code).toBe('RATE_LIMITED')
      expect(body.error.retryAfter).toBe(1)
    }
    // B's success rate is what it would be alone: 100 %.
    expect(statuses(rb)).toEqual(Array(10).fill(200))
    expect(statuses(ru)).toEqual(Array(20).fill(200))
  })

  test('the bucket refills at the key’s rate', async () => {
    expect((await s.call('/_jobs', a)).status).toBe(429)
    clock.advance(100) // one token at 10/s
    expect((await s.call('/_jobs', a)).status).toBe(200)
    expect((await s.call('/_jobs', a)).status).toBe(429)
    clock.advance(10_000) // refills to the burst, never beyond it
    const burst = statuses(await Promise.all(Array.from({ length: 15 }, () => s.call('/_jobs', a))))
    expect(burst.filter((x) => x === 200)).toHaveLength(10)
  })

  test('Retry-After says how long until a token is back for a slow rate', async () => {
    const slow = createKey(s.ctx, { name: 'slow', rate: 0.1, burst: 1 }).key
    expect((await s.call('/_jobs', slow)).status).toBe(200)
    const res = await s.call('/_jobs', slow)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('10')
    clock.advance(5_000)
    expect((await s.call('/_jobs', slow)).status).toBe(429)
    clock.advance(5_000)
    expect((await s.call('/_jobs', slow)).status).toBe(200)
  })

  test('a bad key is 401, not 429, however busy a limited key is', async () => {
    const res = await s.call('/_jobs', `${a.slice(0, -1)}x`)
    expect(res.status).toBe(401)
  })
})

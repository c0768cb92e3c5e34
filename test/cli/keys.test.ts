import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cli, eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer({ watchIntervalMs: 20 })
})
afterAll(() => s.close())

const keys = (...args: string[]) => cli(['keys', ...args, '--data', s.dataDir])

describe('deskhook keys: limits, expiry and rotation', () => {
  test('create --scopes --jobs --rate --burst --expires makes a limited key the server enforces', async () => {
    const r = await keys(
      'create',
      '--name',
      'crm',
      '--scopes',
      'read,call',
      '--jobs',
      '/customers/*, post /orders/:id',
      '--rate',
      '5',
      '--burst',
      '7',
      '--expires',
      '30d',
      '--json',
    )
    expect(r.code).toBe(0)
    const key = JSON.parse(r.stdout)
    expect(key).toMatchObject({
      scopes: ['call', 'read'],
      jobs: ['/customers/*', 'POST /orders/:id'],
      ratePerSecond: 5,
      burst: 7,
      status: 'active',
    })
    expect(Date.parse(key.expiresAt) - Date.parse(key.createdAt)).toBe(30 * 86_400_000)
    expect((await s.call('/_jobs', { key: key.key })).status).toBe(200)
    const res = await s.call('/_builds/x/answers', { key: key.key, method: 'POST', json: {} })
    expect(res.status).toBe(403)
    expect((await res.json()).error.message).toContain('may call, read on /customers/*, POST /orders/:id')

    const human = await keys('list')
    expect(human.stdout).toMatch(
      /crm\s+dh_\w{6}…\s+call,read on \/customers\/\*, POST \/orders\/:id · 5\/s burst 7/,
    )
    expect(human.stdout).toMatch(/active until \d{4}-/)
  })

  test.each([
    [['--scopes', 'call,admin'], 'Unknown scope admin'],
    [['--jobs', '/_jobs'], 'must start with / and not with /_'],
    [['--burst', '5'], 'A burst needs a rate'],
    [['--rate', '0'], 'a number above 0'],
    [['--expires', '30 days'], 'write a number and a unit'],
  ])('create %p is refused: %s', async (flags, message) => {
    const r = await keys('create', '--name', 'bad', ...flags)
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(message)
  })

  test('rotate NAME --overlap prints the new key once; both work until the overlap ends', async () => {
    const created = JSON.parse((await keys('create', '--name', 'billing', '--json')).stdout)
    const r = await keys('rotate', 'billing', '--overlap', '24h')
    expect(r.code).toBe(0)
    const fresh = /dh_[0-9A-Za-z]{49}/.exec(r.stdout)?.[0]
    expect(fresh).toBeDefined()
    expect(r.stdout.match(/dh_[0-9A-Za-z]{49}/g)).toHaveLength(1)
    expect(r.stdout).toContain('cannot show it again')
    expect(r.stdout).toMatch(new RegExp(`old key ${created.prefix}… keeps working until \\d{4}-`))
    expect((await s.call('/_jobs', { key: created.key })).status).toBe(200)
    expect((await s.call('/_jobs', { key: fresh! })).status).toBe(200)
  })

  test('rotate --overlap 0s ends the old key at once, also on the running server', async () => {
    const created = JSON.parse((await keys('create', '--name', 'leaked', '--json')).stdout)
    expect((await s.call('/_jobs', { key: created.key })).status).toBe(200)
    const r = await keys('rotate', created.prefix, '--overlap', '0s', '--json')
    expect(r.code).toBe(0)
    const { key, old } = JSON.parse(r.stdout)
    expect(old.status).toBe('expired')
    await eventually(async () => (await s.call('/_jobs', { key: created.key })).status === 401)
    expect((await s.call('/_jobs', { key: key.key })).status).toBe(200)
  })

  test('rotating an unknown or ambiguous key fails clearly', async () => {
    const unknown = await keys('rotate', 'nobody')
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('No active API key with id, prefix or name nobody')
    await keys('create', '--name', 'twin')
    await keys('create', '--name', 'twin')
    const twin = await keys('rotate', 'twin')
    expect(twin.code).toBe(1)
    expect(twin.stderr).toContain('Several active keys match twin')
  })
})

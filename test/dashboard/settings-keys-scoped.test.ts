import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listKeys } from '../../src/modules/keys/service.ts'
import { type DashboardClient, signIn } from '../helpers/dashboard.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

let server: TestServer
let admin: DashboardClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
})
afterAll(() => server.close())

describe('settings › API keys: limited keys', () => {
  test('creates a key limited to scopes, jobs, a rate and an expiry, and lists them', async () => {
    const res = await admin.post('/_/settings/keys', {
      name: 'CRM reader',
      scopes_shown: '1',
      scope_read: '1',
      jobs: '/customers/*',
      rate: '2',
      burst: '4',
      expires: '90d',
    })
    expect(res.status).toBe(200)
    const key = /dh_[0-9A-Za-z]{49}/.exec(await res.text())![0]
    const info = listKeys(server.ctx).find((k) => k.name === 'CRM reader')!
    expect(info).toMatchObject({ scopes: ['read'], jobs: ['/customers/*'], ratePerSecond: 2, burst: 4 })
    expect(Date.parse(info.expiresAt!) - Date.parse(info.createdAt)).toBe(90 * 86_400_000)
    expect((await server.call('/_jobs', { key })).status).toBe(200)
    expect((await server.call('/customers/1', { key, method: 'POST' })).status).toBe(403)

    const list = await (await admin.get('/_/settings/keys')).text()
    expect(list).toContain('read on /customers/* · 2/s burst 4')
    expect(list).toContain('<th scope="col">Expires</th>')
    expect(list).toContain(`datetime="${info.expiresAt}"`)
  })

  test('no scope ticked is refused with the form kept', async () => {
    const res = await admin.post('/_/settings/keys', { name: 'nothing', scopes_shown: '1', jobs: '/a' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('Name at least one scope')
    expect(html).toContain('value="/a"')
  })
})

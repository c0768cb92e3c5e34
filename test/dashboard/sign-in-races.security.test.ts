import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cookieFrom } from '../helpers/dashboard.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/** Issue 23, N3 and N6: checks that must hold when many requests arrive at once (real server, real sockets). */

const csrfIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''

describe('the sign-in throttle under parallel attempts', () => {
  let server: TestServer & { logs: string[] }
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  test('60 parallel wrong passwords for one email: 5 are verified (401), the other 55 are refused (429)', async () => {
    const { createUser } = await import('../../src/modules/users/service.ts')
    await createUser(server.ctx, { email: 'ana@example.com', password: 'right-password-1', role: 'admin' })
    const page = await fetch(`${server.url}/_/sign-in`, { redirect: 'manual' })
    const cookie = cookieFrom(page, 'dh_form')
    const csrf = csrfIn(await page.text())
    const attempt = () =>
      fetch(`${server.url}/_/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, email: 'ana@example.com', password: 'wrong-password-x' }),
      })
    const statuses = (await Promise.all(Array.from({ length: 60 }, attempt))).map((r) => r.status)
    expect(statuses.filter((s) => s === 401).length).toBe(5)
    expect(statuses.filter((s) => s === 429).length).toBe(55)
    // Only the five allowed attempts reached the password check.
    const verified = server.logs.filter((l) => JSON.parse(l).msg === 'sign-in failed')
    expect(verified.length).toBe(5)
    // The right password is refused too for the rest of the window.
    const right = await fetch(`${server.url}/_/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email: 'ana@example.com', password: 'right-password-1' }),
    })
    expect(right.status).toBe(429)
  }, 60_000)
})

describe('the one-time setup link used at once', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  test('six concurrent setups with the printed link create exactly one admin', async () => {
    const setup = new URL(server.setupUrl!)
    const page = await fetch(`${server.url}${setup.pathname}${setup.search}`, { redirect: 'manual' })
    const cookie = cookieFrom(page, 'dh_form')
    const csrf = csrfIn(await page.text())
    const post = (i: number) =>
      fetch(`${server.url}/_/setup`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: csrf,
          setup: setup.searchParams.get('token')!,
          workspace: 'Race',
          email: `admin${i}@example.com`,
          password: 'long-enough-password',
        }),
      })
    // A refused form (too short a password) leaves the link usable.
    const refused = await fetch(`${server.url}/_/setup`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: csrf,
        setup: setup.searchParams.get('token')!,
        workspace: 'Race',
        email: 'short@example.com',
        password: 'short',
      }),
    })
    expect(refused.status).toBe(400)
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i)))
    const signedIn = responses.filter((r) => cookieFrom(r, 'dh_session').length > 'dh_session='.length)
    expect(signedIn.length).toBe(1)
    for (const r of responses) expect(r.status).toBeLessThan(500)
    const users = server.ctx.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM users').get()!
    expect(users.n).toBe(1)
    const created = server.ctx.db.$client
      .query<{ n: number }, []>(`SELECT count(*) AS n FROM _audit_log WHERE action = 'user.created'`)
      .get()!
    expect(created.n).toBe(1)
  })
})

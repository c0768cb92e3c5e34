import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cookieFrom, type DashboardClient, signIn } from '../helpers/dashboard.ts'
import { rawRequest } from '../helpers/raw-http.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/** Issue 23, N7 and N8: odd bytes in `?next=` and `Origin` get a clear answer, never a 500. */

let server: TestServer
let admin: DashboardClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
})
afterAll(() => server.close())

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/

describe('a next target with bytes a Location header cannot carry', () => {
  // é (Latin-1: went out as a raw byte), ✓ (beyond Latin-1: a 500), a control character, an emoji.
  const nexts = ['/_/caf\u00e9', '/_/\u2713', '/_/runs\u0007', '/_/\u{1f600}', '/_/runs?job=\u00e9']

  test('GET /_/sign-in?next=… for a signed-in person redirects to an ASCII Location', async () => {
    for (const next of nexts) {
      const res = await admin.get(`/_/sign-in?next=${encodeURIComponent(next)}`)
      expect({ next, status: res.status }).toEqual({ next, status: 303 })
      expect(res.headers.get('location')!).toMatch(PRINTABLE_ASCII)
      expect(res.headers.get('location')).toBe('/_/')
    }
  })

  test('a Latin-1 byte (%E9, not UTF-8) or a lone surrogate half in next: 303 inside the dashboard, ASCII only', async () => {
    for (const query of ['%2F_%2Fcaf%E9', '/_/caf%E9', '%2F_%2F%ED%A0%80', '/_/%FF%FE']) {
      const res = await admin.get(`/_/sign-in?next=${query}`)
      expect({ query, status: res.status }).toEqual({ query, status: 303 })
      expect(res.headers.get('location')!).toMatch(PRINTABLE_ASCII)
      expect(res.headers.get('location')!).toStartWith('/_/')
    }
  })

  test('the same characters sent unencoded on the wire: 303 to /_/, no raw byte in Location', async () => {
    // (A control character in the request line never reaches the server's code: Bun answers 505.)
    for (const next of nexts.filter((n) => !n.includes('\u0007'))) {
      const head = [
        `GET /_/sign-in?next=${next} HTTP/1.1`,
        `Host: ${new URL(server.url).host}`,
        `Cookie: ${admin.cookie}`,
        'Connection: close',
      ].join('\r\n')
      const res = await rawRequest(server.url, head)
      expect({ next, status: res.status }).toEqual({ next, status: 303 })
      expect(res.headers.location).toBe('/_/')
    }
  })

  test('a sign-in form posting such a next lands on /_/', async () => {
    for (const next of nexts) {
      const page = await fetch(`${server.url}/_/sign-in`, { redirect: 'manual' })
      const res = await fetch(`${server.url}/_/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookieFrom(page, 'dh_form'), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!,
          email: 'admin@example.com',
          password: 'correct-horse-battery',
          next,
        }),
      })
      expect({ next, status: res.status }).toEqual({ next, status: 303 })
      expect(res.headers.get('location')).toBe('/_/')
    }
  })

  test('an ASCII next inside the dashboard is still followed, query and all', async () => {
    const res = await admin.get(
      `/_/sign-in?next=${encodeURIComponent('/_/runs?job=caf%C3%A9&status=failed')}`,
    )
    expect(res.headers.get('location')).toBe('/_/runs?job=caf%C3%A9&status=failed')
  })
})

describe('a malformed Origin on a state-changing dashboard request', () => {
  const origins = ['http://[', 'not a url', '://', 'http://exa mple.com', 'http://%zz']

  test('every state-changing dashboard route answers 403 with the other-site message, never a 500', async () => {
    const routes = server.routes.filter(
      (r) => r.path.startsWith('/_/') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method),
    )
    expect(routes.length).toBeGreaterThan(20)
    for (const r of routes) {
      const path = r.path.replace(/:[a-zA-Z]+/g, '1').replace('*', 'x')
      for (const origin of origins) {
        const res = await fetch(`${server.url}${path}`, {
          method: r.method,
          redirect: 'manual',
          headers: {
            cookie: admin.cookie,
            origin,
            'x-csrf-token': admin.csrf,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ _csrf: admin.csrf }),
        })
        const body = await res.text()
        expect({ route: `${r.method} ${r.path}`, origin, status: res.status }).toEqual({
          route: `${r.method} ${r.path}`,
          origin,
          status: 403,
        })
        expect(body).toContain('came from another site')
      }
    }
  })

  test('the sign-in and setup forms refuse it the same way', async () => {
    const page = await fetch(`${server.url}/_/sign-in`, { redirect: 'manual' })
    const res = await fetch(`${server.url}/_/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: cookieFrom(page, 'dh_form'),
        origin: 'http://[',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        _csrf: /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!,
        email: 'admin@example.com',
        password: 'correct-horse-battery',
      }),
    })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('came from another site')
  })

  test('its own origin still passes, and the session is still usable', async () => {
    const res = await admin.post('/_/settings/retention/run', {}, { origin: server.url })
    expect(res.status).toBe(303)
    expect((await admin.get('/_/')).status).toBe(200)
  })
})

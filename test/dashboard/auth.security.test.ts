import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { AGENT_DOWNLOAD_PATHS } from '../../src/http/public-paths.ts'
import { cookieFrom, signIn } from '../helpers/dashboard.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers, redirect: 'manual' })

describe('first-run setup', () => {
  test('a fresh install sends every page to sign-in, and sign-in to the setup page', async () => {
    const home = await get('/_/')
    expect(home.status).toBe(303)
    expect(home.headers.get('location')).toBe('/_/sign-in?next=%2F_%2F')
    const signInPage = await get('/_/sign-in')
    expect(signInPage.status).toBe(303)
    expect(signInPage.headers.get('location')).toBe('/_/setup')
  })

  test('the setup page without the printed link explains where the link is, and offers no form', async () => {
    const page = await get('/_/setup')
    const html = await page.text()
    expect(page.status).toBe(200)
    expect(html).toContain('setup link')
    expect(html).not.toContain('name="password"')
  })

  test('a setup post with a wrong code is refused and creates nobody', async () => {
    const page = await fetch(server.setupUrl!)
    const form = cookieFrom(page, 'dh_form')
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!
    const res = await fetch(`${server.url}/_/setup`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: form, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: csrf,
        setup: 'wrong',
        workspace: 'x',
        email: 'a@b.c',
        password: 'long-enough-pw',
      }),
    })
    expect(res.status).toBe(403)
    expect((await get('/_/sign-in')).headers.get('location')).toBe('/_/setup')
  })

  test('a setup post without the form token is refused (CSRF)', async () => {
    const res = await fetch(`${server.url}/_/setup`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        setup: new URL(server.setupUrl!).searchParams.get('token')!,
        workspace: 'x',
        email: 'a@b.c',
        password: 'long-enough-pw',
      }),
    })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('reload the page')
  })
})

describe('signed in', () => {
  test('setup creates the admin and a session cookie with the right flags; the link then stops working', async () => {
    const admin = await signIn(server)
    expect(admin.cookie).toMatch(/^dh_session=/)
    const again = await fetch(server.setupUrl!, { redirect: 'manual' })
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toBe('/_/sign-in')
    // Flags, read from a fresh sign-in.
    const page = await fetch(`${server.url}/_/sign-in`, { redirect: 'manual' })
    const res = await fetch(`${server.url}/_/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookieFrom(page, 'dh_form'), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!,
        email: 'admin@example.com',
        password: 'correct-horse-battery',
        next: '/_/runs?job=x',
      }),
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/_/runs?job=x')
    const set = res.headers.getSetCookie().find((c) => c.startsWith('dh_session='))!
    expect(set).toContain('HttpOnly')
    expect(set).toContain('SameSite=Lax')
    expect(set).toContain('Path=/_/')
    // Plain HTTP: not Secure (the browser would drop it); under TLS it is (next describe).
    expect(set).not.toContain('Secure')
    // The token is stored only hashed.
    const token = set.split(';')[0]!.split('=')[1]!
    const rows = server.ctx.db.$client
      .query<{ token_hash: string }, []>('SELECT token_hash FROM sessions')
      .all()
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((r) => r.token_hash === token)).toBe(false)
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true)
  })

  test('passwords are stored as argon2id hashes', () => {
    const rows = server.ctx.db.$client
      .query<{ password_hash: string }, []>('SELECT password_hash FROM users')
      .all()
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) expect(r.password_hash).toStartWith('$argon2id$')
  })

  test('after sign-in, next never leaves the dashboard', async () => {
    const page = await fetch(`${server.url}/_/sign-in`, { redirect: 'manual' })
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example', '/_jobs']) {
      const res = await fetch(`${server.url}/_/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookieFrom(page, 'dh_form'), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: /name="_csrf" value="([^"]+)"/.exec(await page.clone().text())![1]!,
          email: 'admin@example.com',
          password: 'correct-horse-battery',
          next,
        }),
      })
      expect(res.headers.get('location')).toBe('/_/')
    }
  })

  test('an API key never opens the dashboard, and a session cookie never opens the trigger host', async () => {
    const admin = await signIn(server)
    const withKey = await get('/_/', { 'x-api-key': server.key })
    expect(withKey.status).toBe(303)
    expect(withKey.headers.get('location')).toStartWith('/_/sign-in')
    const withCookie = await get('/_jobs', { cookie: admin.cookie })
    expect(withCookie.status).toBe(401)
    const job = await get('/customers', { cookie: admin.cookie })
    expect(job.status).toBe(401)
  })

  test('a state-changing request without the CSRF token, or from another site, is refused', async () => {
    const admin = await signIn(server)
    const noToken = await admin.post('/_/sign-out', { _csrf: '' })
    expect(noToken.status).toBe(403)
    const wrong = await admin.post('/_/sign-out', { _csrf: 'x'.repeat(43) })
    expect(wrong.status).toBe(403)
    const otherSite = await admin.post('/_/sign-out', {}, { origin: 'https://evil.example' })
    expect(otherSite.status).toBe(403)
    const json = await admin.post('/_/sign-out', { _csrf: '' }, { accept: 'application/json' })
    expect(json.status).toBe(403)
    expect((await json.json()).error.code).toBe('FORBIDDEN')
    // Still signed in after all of that.
    expect((await admin.get('/_/')).status).toBe(200)
  })

  test('sign-out ends the session on the server', async () => {
    const admin = await signIn(server)
    const out = await admin.post('/_/sign-out')
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/_/sign-in')
    const after = await admin.get('/_/')
    expect(after.status).toBe(303)
    expect(after.headers.get('location')).toStartWith('/_/sign-in')
  })

  test('every dashboard page and action without a session goes to sign-in', async () => {
    // The agent's installer and exe are public on purpose: a PC without a session fetches them.
    const open = new Set(['/_/sign-in', '/_/setup', '/_/assets/*', ...AGENT_DOWNLOAD_PATHS])
    const routes = server.routes.filter((r) => r.path.startsWith('/_/') && !open.has(r.path))
    expect(routes.length).toBeGreaterThan(1)
    for (const r of routes) {
      const path = r.path.replace(/:[a-zA-Z]+/g, '1').replace('*', 'x')
      const res = await fetch(`${server.url}${path}`, { method: r.method, redirect: 'manual' })
      expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 303,
      })
      expect(res.headers.get('location')).toStartWith('/_/sign-in')
    }
  })

  test('dashboard pages carry a strict CSP and no-store; assets are immutable with hashed names', async () => {
    const admin = await signIn(server)
    const page = await admin.get('/_/')
    const csp = page.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe')
    expect(page.headers.get('referrer-policy')).toBe('same-origin')
    expect(page.headers.get('cache-control')).toBe('no-store')
    const html = await page.text()
    const urls = [...html.matchAll(/(?:href|src)="(\/_\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(urls.length).toBeGreaterThanOrEqual(3)
    for (const url of urls) {
      expect(url).toMatch(/\.[0-9a-f]{12}\.(css|js|svg)$/)
      const asset = await fetch(`${server.url}${url}`)
      expect(asset.status).toBe(200)
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
    expect((await fetch(`${server.url}/_/assets/dashboard.000000000000.css`)).status).toBe(404)
  })
})

describe('sign-in throttling', () => {
  test('after five wrong passwords the sixth attempt is refused with a clear message, even with the right one', async () => {
    await signIn(server, { email: 'member@example.com', password: 'member-password-1', role: 'member' })
    const attempt = async (password: string) => {
      const page = await fetch(`${server.url}/_/sign-in`, { redirect: 'manual' })
      return fetch(`${server.url}/_/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: cookieFrom(page, 'dh_form'), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!,
          email: 'member@example.com',
          password,
        }),
      })
    }
    for (let i = 0; i < 5; i++) {
      const res = await attempt('wrong-password-x')
      expect(res.status).toBe(401)
      expect(await res.text()).toContain('do not match')
    }
    const blocked = await attempt('member-password-1')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await blocked.text()).toContain('Too many failed sign-in attempts')
  })
})

describe('under TLS', () => {
  test('the session cookie is Secure when the dashboard is reached over https', async () => {
    const tls = await startTestServer({ publicUrl: 'https://deskhook.example' })
    try {
      const admin = await signIn(tls)
      expect(admin.cookie).toMatch(/^dh_session=/)
      const page = await fetch(`${tls.url}/_/sign-in`, { redirect: 'manual' })
      expect(page.headers.getSetCookie().find((c) => c.startsWith('dh_form='))).toContain('Secure')
    } finally {
      await tls.close()
    }
  })
})

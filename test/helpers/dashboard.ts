import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium } from 'playwright-core'
import { defaultExecutablePath, QUIET_BROWSER_FLAGS } from '../../src/agent/drivers/browser/launch-browser.ts'
import { createUser } from '../../src/modules/users/service.ts'
import type { TestServer } from './test-server.ts'

export interface Person {
  email: string
  password: string
  role: 'admin' | 'member'
}

/** A signed-in dashboard client over plain fetch: its session cookie and CSRF token. */
export interface DashboardClient {
  cookie: string
  csrf: string
  /** GET without following redirects. */
  get(path: string, headers?: Record<string, string>): Promise<Response>
  /** A form post with the CSRF token (unless `_csrf` is given), without following redirects. */
  post(path: string, form?: Record<string, string>, headers?: Record<string, string>): Promise<Response>
}

const csrfIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''

/** The cookie pair (`name=value`) a response sets, for the next request. */
export function cookieFrom(res: Response, name: string): string {
  for (const line of res.headers.getSetCookie()) if (line.startsWith(`${name}=`)) return line.split(';')[0]!
  return ''
}

/**
 * Sets up the workspace through the first-run page when nobody has an account yet (the person
 * becomes its admin), else creates the person through the service; then signs in through the form.
 */
export async function signIn(server: TestServer, person: Partial<Person> = {}): Promise<DashboardClient> {
  const p: Person = {
    email: 'admin@example.com',
    password: 'correct-horse-battery',
    role: 'admin',
    ...person,
  }
  if (server.setupUrl) {
    // The link is made with --public-url when set; reach the same page on the listening address.
    const setup = new URL(server.setupUrl)
    const page = await fetch(`${server.url}${setup.pathname}${setup.search}`, { redirect: 'manual' })
    if (page.status === 200) {
      const form = cookieFrom(page, 'dh_form')
      const res = await fetch(`${server.url}/_/setup`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: form, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: csrfIn(await page.text()),
          setup: setup.searchParams.get('token') ?? '',
          workspace: 'Test workspace',
          email: p.email,
          password: p.password,
        }),
      })
      if (res.status !== 303) throw new Error(`setup failed: ${res.status} ${await res.text()}`)
      return client(server, cookieFrom(res, 'dh_session'))
    }
  }
  await createUser(server.ctx, { email: p.email, password: p.password, role: p.role }).catch((e: Error) => {
    if (!/already/.test(e.message)) throw e
  })
  const page = await fetch(`${server.url}/_/sign-in`, { redirect: 'manual' })
  const res = await fetch(`${server.url}/_/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookieFrom(page, 'dh_form'), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrfIn(await page.text()), email: p.email, password: p.password }),
  })
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`)
  return client(server, cookieFrom(res, 'dh_session'))
}

async function client(server: TestServer, cookie: string): Promise<DashboardClient> {
  const home = await fetch(`${server.url}/_/`, { headers: { cookie }, redirect: 'manual' })
  const csrf = csrfIn(await home.text())
  if (!csrf) throw new Error(`no CSRF token on the jobs page (${home.status})`)
  return {
    cookie,
    csrf,
    get: (path, headers = {}) =>
      fetch(`${server.url}${path}`, { headers: { cookie, ...headers }, redirect: 'manual' }),
    post: (path, form = {}, headers = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ _csrf: csrf, ...form }),
      }),
  }
}

/** Debian's Chromium for dashboard tests (the same binary the agent's browser driver uses). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: defaultExecutablePath(),
    headless: true,
    args: QUIET_BROWSER_FLAGS,
  })
}

/**
 * Signs a Playwright page in through the real forms (the cookie lands in the browser context).
 * Returns when the Jobs page shows.
 */
export async function signInPage(
  page: import('playwright-core').Page,
  server: TestServer,
  person: Pick<Person, 'email' | 'password'> = {
    email: 'admin@example.com',
    password: 'correct-horse-battery',
  },
): Promise<void> {
  await page.goto(`${server.url}/_/sign-in`)
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Jobs' }).waitFor()
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core's serious and critical findings on the page as it is. Evaluated over the DevTools
 * protocol, which the page's CSP does not govern, so the strict CSP stays on during the check.
 */
export async function seriousViolations(page: import('playwright-core').Page): Promise<string[]> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[]
          }>
        }
      }
    ).axe
    return (await axe.run()).violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)
}

/** Where page screenshots are kept as test artefacts (DESKHOOK_SCREENSHOTS, else test-artifacts/). */
export function screenshotDir(): string {
  const dir = process.env.DESKHOOK_SCREENSHOTS ?? join(import.meta.dir, '../../test-artifacts/dashboard')
  mkdirSync(dir, { recursive: true })
  return dir
}

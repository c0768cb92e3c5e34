import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { cli, eventually } from '../helpers/cli.ts'
import {
  type DashboardClient,
  launchBrowser,
  seriousViolations,
  signIn,
  signInPage,
} from '../helpers/dashboard.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * "Show me" from the dashboard, end to end: a real server, a real agent with Chromium, and an
 * orders app whose entry form no link leads to (it opens only by typing its address into the
 * app's "Go to" box), so exploring cannot find it and the build asks to be shown. The person
 * demonstrates by clicking and typing on the build page's live preview in another Chromium; the
 * recording answers the question, the build succeeds, and the promoted job serves live calls.
 */

/** Where the form lives: nothing links to it, and no word of the prompt or the sample names it. */
const FORM_PATH = '/intake/form-42'
/** A page with a password field, for the check that typed secrets never reach the dashboard. */
const PIN_PATH = '/pin-check'
const SECRET = 's3cret-PIN-99'

/** Fixed places (window pixels) so the test knows where to click on the preview. */
const AT = {
  goTo: { x: 170, y: 36 },
  customer: { x: 170, y: 136 },
  quantity: { x: 170, y: 216 },
  save: { x: 80, y: 288 },
  pin: { x: 170, y: 136 },
}

const STYLE = `<style>
  body { margin: 0; font: 16px sans-serif; }
  input, button { position: absolute; box-sizing: border-box; height: 32px; font-size: 16px; }
  label { position: absolute; left: 20px; font-size: 14px; }
  #address { left: 20px; top: 20px; width: 300px; }
  #go { left: 330px; top: 20px; width: 60px; }
  #address-label { top: 2px; }
  main { position: absolute; left: 0; top: 70px; right: 0; }
  h1 { margin: 0 20px; font-size: 20px; }
  #customer, #pin { left: 20px; top: 50px; width: 300px; }
  #customer-label, #pin-label { top: 32px; }
  #quantity { left: 20px; top: 130px; width: 300px; }
  #quantity-label { top: 112px; }
  #save { left: 20px; top: 200px; width: 120px; height: 36px; }
  p { margin: 40px 20px; }
</style>`

const page = (title: string, main: string) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Orders desk</title>${STYLE}</head><body>
<form action="/go" method="get" role="search" aria-label="Go to a page">
  <label id="address-label" for="address">Go to</label>
  <input id="address" name="address" autocomplete="off">
  <button id="go" type="submit">Go</button>
</form>
<main>${main}</main></body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8' } },
  )

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } })

/** The form is sent by the page, which then shows the new order in place (as the CRM fixture does). */
const SAVE_IN_PLACE = `document.getElementById('save').form.addEventListener('submit', async (event) => {
  event.preventDefault()
  const res = await fetch('/orders', { method: 'POST', body: new FormData(event.target) })
  const { id } = await res.json()
  document.querySelector('main').innerHTML =
    '<h1>Order saved</h1><p role="status">Order <strong>' + id + '</strong> created</p>'
})`

interface Order {
  id: string
  customer: string
  quantity: string
}

/** The orders app: its home says only "type an address"; the form is at FORM_PATH. */
function startOrdersApp() {
  const orders: Order[] = []
  const visits: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      visits.push(`${req.method} ${url.pathname}`)
      if (url.pathname === '/go') {
        const address = url.searchParams.get('address') ?? ''
        return seeOther(address.startsWith('/') && !address.startsWith('//') ? address : '/')
      }
      if (req.method === 'GET' && url.pathname === '/')
        return page('Home', '<h1>Orders desk</h1><p>Open a page by typing its address above.</p>')
      if (req.method === 'GET' && url.pathname === FORM_PATH)
        return page(
          'New order',
          `<h1>New order</h1><form action="/orders" method="post">
  <label id="customer-label" for="customer">Customer</label><input id="customer" name="customer" required>
  <label id="quantity-label" for="quantity">Quantity</label><input id="quantity" name="quantity" inputmode="numeric" required>
  <button id="save" type="submit">Save</button></form>
<script>${SAVE_IN_PLACE}</script>`,
        )
      if (req.method === 'GET' && url.pathname === PIN_PATH)
        return page(
          'PIN check',
          '<h1>PIN check</h1><label id="pin-label" for="pin">PIN</label><input id="pin" type="password" name="pin">',
        )
      if (req.method === 'POST' && url.pathname === '/orders') {
        const form = await req.formData()
        const order = {
          id: `O-${1001 + orders.length}`,
          customer: String(form.get('customer') ?? ''),
          quantity: String(form.get('quantity') ?? ''),
        }
        orders.push(order)
        return Response.json({ id: order.id }, { status: 201 })
      }
      return page('Not found', '<h1>No page at that address</h1>')
    },
  })
  return { server, url: `http://127.0.0.1:${server.port}`, orders, visits }
}

interface BuildView {
  id: string
  status: string
  question: { id: string; kind: string; text: string; windowId?: string } | null
  progress: { stage: string; message: string }[]
  error: { code: string; message: string } | null
}

const explain = (b: BuildView) =>
  `${b.status}: ${b.error?.message ?? ''}\n${b.progress.map((p) => `  [${p.stage}] ${p.message}`).join('\n')}`

/** Clicks the preview where the window's own pixel (x, y) is shown, as a person would with the mouse. */
async function clickOnPreview(p: Page, at: { x: number; y: number }): Promise<void> {
  const img = p.locator('[data-remote-input] img')
  await img.waitFor({ state: 'visible' })
  await img.scrollIntoViewIfNeeded()
  // A frame that is loading has no size yet: look again, as the eye does, at the picture shown.
  const shown = await eventually(async () => {
    const now = await img.evaluate((el: HTMLImageElement) => {
      const box = el.getBoundingClientRect()
      const size = { w: el.clientWidth, h: el.clientHeight, nw: el.naturalWidth, nh: el.naturalHeight }
      return { left: box.left, top: box.top, ...size }
    })
    return now.nw > 0 && now
  })
  expect(shown.nw).toBeGreaterThan(AT.goTo.x)
  await p.mouse.click(shown.left + (at.x * shown.w) / shown.nw, shown.top + (at.y * shown.h) / shown.nh)
}

/**
 * Looks at the preview until it has shown `frames` new pictures, as a person waits for a page to
 * appear before acting on it (the recorder notes each screen once the window has settled).
 */
async function watchPreview(p: Page, frames = 2): Promise<void> {
  const shown = () =>
    p.locator('[data-remote-input] img').evaluate((el: HTMLImageElement) => {
      const n = new URL(el.src, location.href).searchParams.get('n')
      return el.complete && n ? Number(n) : 0
    })
  const from = await shown()
  await eventually(async () => (await shown()) >= from + frames, 30_000)
}

/** Types on the focused preview, key by key, as a person would. */
const typeOnPreview = (p: Page, text: string) => p.keyboard.type(text, { delay: 20 })

describe('show me: the routes without a desktop', () => {
  let s: TestServer
  let admin: DashboardClient
  beforeAll(async () => {
    s = await startTestServer()
    admin = await signIn(s)
  })
  afterAll(() => s.close())

  test('a build that does not ask to be shown takes no recording, and says so on its page', async () => {
    const res = await s.call('/things', {
      method: 'POST',
      json: teachBody({ prompt: 'Add a thing' }, { a: 1 }),
    })
    const { buildId } = (await res.json()) as { buildId: string }
    const start = await admin.post(`/_/builds/${buildId}/recordings`)
    expect(start.status).toBe(409)
    const page = await start.text()
    expect(page).toContain('is not asking to be shown')
    expect(page).not.toContain('data-demonstrate')
    const current = await admin.get(`/_/builds/${buildId}/recordings/current`, { accept: 'application/json' })
    expect(await current.json()).toEqual({ recording: null })
    // A fetch without the page's CSRF token changes nothing.
    const forged = await fetch(`${s.url}/_/builds/${buildId}/recordings/r1/input`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'key', key: 'Enter' }),
    })
    expect(forged.status).toBe(403)
    const bad = await fetch(`${s.url}/_/builds/${buildId}/recordings/r1/input`, {
      method: 'POST',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'key', key: 'F13' }),
    })
    expect(bad.status).toBe(400)
    expect((await admin.get('/_/builds/no-such-build/recordings/current')).status).toBe(404)
  })
})

describe('show me in the dashboard', () => {
  let s: TestServer
  let app: ReturnType<typeof startOrdersApp>
  let agent: AgentProcess
  let browser: Browser
  let member: DashboardClient

  beforeAll(async () => {
    app = startOrdersApp()
    s = await startTestServer({ heartbeatIntervalMs: 1000, agentGraceMs: 1000 })
    await signIn(s)
    member = await signIn(s, { email: 'member@example.com', password: 'member-password-1', role: 'member' })
    agent = startAgent({
      server: s.url,
      token: createEnrollmentToken(s.ctx).token,
      name: 'order-desk',
      startUrl: `${app.url}/`,
    })
    await agent.waitForLog((l) => l.msg === 'online')
    browser = await launchBrowser()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await agent?.cleanup()
    await s?.close()
    app?.server.stop(true)
  })

  test('a person demonstrates on the live preview; the build learns it and the job serves live calls', async () => {
    const taught = await s.call('/orders', {
      method: 'POST',
      json: teachBody(
        {
          prompt: 'Enter a new order in the orders desk and return its order id',
          expect: { orderId: { $type: 'string' } },
        },
        { customer: 'Ada Lovelace', quantity: 17 },
      ),
    })
    expect(taught.status).toBe(202)
    const { buildId } = (await taught.json()) as { buildId: string }
    const build = async () => (await (await s.call(`/_builds/${buildId}`)).json()) as BuildView

    // Exploring cannot find the form: the build asks to be shown.
    const asking = await eventually(async () => {
      const b = await build()
      return ['waiting_for_answer', 'succeeded', 'failed'].includes(b.status) && b
    }, 150_000)
    expect(asking.question?.kind, explain(asking)).toBe('demonstrate')
    expect(asking.question?.windowId).toBeTruthy()
    expect(app.visits).not.toContain(`GET ${FORM_PATH}`)

    const adminContext = await browser.newContext()
    const memberContext = await browser.newContext()
    const p = await adminContext.newPage()
    const other = await memberContext.newPage()
    try {
      await signInPage(p, s)
      await signInPage(other, s, { email: 'member@example.com', password: 'member-password-1' })
      const buildPage = `${s.url}/_/builds/${buildId}`

      // Before anyone starts, both may: the card names the desktop and offers Start.
      await other.goto(buildPage)
      await other.getByRole('heading', { name: 'Show the builder how' }).waitFor()
      expect(await other.getByRole('button', { name: 'Start recording' }).count()).toBe(1)
      await p.goto(buildPage)
      const card = p.locator('[data-demonstrate]')
      expect(await card.textContent()).toContain('It records on desktop order-desk')
      expect(await seriousViolations(p)).toEqual([])

      // 1. A recording that is cancelled: a password typed on the preview never shows in the page.
      await p.getByRole('button', { name: 'Start recording' }).click()
      await p.getByRole('button', { name: 'Done' }).waitFor()
      const surface = p.getByRole('application', { name: /clicks and keys here go to the desktop/ })
      expect(await surface.getAttribute('tabindex')).toBe('0')
      expect(await seriousViolations(p)).toEqual([])

      // The second person's page follows by itself: someone else holds the desktop now.
      await other.getByText('Being demonstrated by admin@example.com').waitFor({ timeout: 15_000 })
      expect(await other.getByRole('button', { name: 'Start recording' }).count()).toBe(0)
      expect(await other.locator('[data-remote-input]').count()).toBe(0)
      expect(await seriousViolations(other)).toEqual([])
      // …and the desktops page says who holds it, for which build.
      const desktops = await (await member.get('/_/desktops')).text()
      expect(desktops).toContain('Being demonstrated by <strong>admin@example.com</strong>')
      expect(desktops).toContain(`href="/_/builds/${buildId}"`)
      // Input from anyone but the holder is refused, whatever they send.
      const rid = await card.getAttribute('data-recording-id')
      const refused = await fetch(`${s.url}/_/builds/${buildId}/recordings/${rid}/input`, {
        method: 'POST',
        headers: { cookie: member.cookie, 'x-csrf-token': member.csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'type', text: 'x' }),
      })
      expect(refused.status).toBe(409)
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('DESKTOP_IN_USE')
      // …and so is a second start: the page says who holds the desktop.
      const second = await member.post(`/_/builds/${buildId}/recordings`)
      expect(second.status).toBe(409)
      expect(await second.text()).toContain('being demonstrated by admin@example.com')

      await clickOnPreview(p, AT.goTo)
      await typeOnPreview(p, PIN_PATH)
      await p.keyboard.press('Enter')
      await eventually(async () => app.visits.includes(`GET ${PIN_PATH}`), 15_000)
      await watchPreview(p)
      await clickOnPreview(p, AT.pin)
      await typeOnPreview(p, SECRET)
      await p
        .locator('[data-recording-recent] li', { hasText: 'Typed a secret' })
        .first()
        .waitFor({ timeout: 15_000 })
      expect(await p.content()).not.toContain(SECRET)
      // Back to where the build left the app, then Cancel: nothing is kept, the desktop is free.
      const home = () => app.visits.filter((v) => v === 'GET /').length
      const homeBefore = home()
      await clickOnPreview(p, AT.goTo)
      await typeOnPreview(p, '/')
      await p.keyboard.press('Enter')
      await eventually(async () => home() > homeBefore, 15_000)
      await watchPreview(p)
      await p.getByRole('button', { name: 'Cancel', exact: true }).click()
      await p.getByText('The recording was cancelled').waitFor()
      expect(await p.getByRole('button', { name: 'Start recording' }).count()).toBe(1)
      expect((await build()).status).toBe('waiting_for_answer')

      // 2. The demonstration itself, on the preview: type the form's address, fill it, save.
      await p.getByRole('button', { name: 'Start recording' }).click()
      await p.getByRole('button', { name: 'Done' }).waitFor()
      await watchPreview(p, 1)
      await clickOnPreview(p, AT.goTo)
      await typeOnPreview(p, FORM_PATH)
      await p.keyboard.press('Enter')
      await eventually(async () => app.visits.includes(`GET ${FORM_PATH}`), 15_000)
      await watchPreview(p)
      await clickOnPreview(p, AT.customer)
      await typeOnPreview(p, 'Ada Lovelace')
      await clickOnPreview(p, AT.quantity)
      await typeOnPreview(p, '17')
      await clickOnPreview(p, AT.save)
      await eventually(async () => app.orders.length === 1, 15_000)
      await watchPreview(p) // the person sees "Order saved" before pressing Done
      expect(app.orders[0]).toEqual({ id: 'O-1001', customer: 'Ada Lovelace', quantity: '17' })
      // The live list says what was recorded, in words.
      await p.locator('[data-recording-recent] li', { hasText: 'Save' }).first().waitFor({ timeout: 15_000 })
      const count = await p.locator('[data-recording-count]').textContent()
      expect(Number(/^(\d+) actions? recorded$/.exec(count ?? '')?.[1])).toBeGreaterThanOrEqual(4)

      await p.getByRole('button', { name: 'Done' }).click()
      await p.getByText('Your answer was recorded; the build goes on.').waitFor({ timeout: 60_000 })
      expect(p.url()).toContain(`/_/builds/${buildId}?answered=1`)
      expect(await p.locator('[data-demonstrate]').count()).toBe(0)

      // The build goes on from the recording and succeeds; the page follows it to the outcome.
      const done = await eventually(async () => {
        const b = await build()
        return ['succeeded', 'failed'].includes(b.status) && b
      }, 180_000)
      expect(done.status, explain(done)).toBe('succeeded')
      await p.getByRole('heading', { name: 'Outcome' }).waitFor({ timeout: 15_000 })
      expect(await seriousViolations(p)).toEqual([])
    } finally {
      await adminContext.close()
      await memberContext.close()
    }

    // Promoted, the job enters a new order with the caller's values and returns its id.
    expect((await cli(['jobs', 'promote', 'POST', '/orders', '--data', s.dataDir])).code).toBe(0)
    const live = await eventually(async () => {
      const res = await s.call('/orders', { method: 'POST', json: { customer: 'Grace Hopper', quantity: 5 } })
      return res.status !== 409 && res
    })
    const body = await live.text()
    expect(live.status, body).toBe(200)
    const orderId = (JSON.parse(body) as { orderId: string }).orderId
    const saved = app.orders.find((o) => o.id === orderId)
    expect(saved).toEqual({ id: orderId, customer: 'Grace Hopper', quantity: '5' })
  }, 420_000)
})

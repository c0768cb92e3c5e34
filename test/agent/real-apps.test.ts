// The browser driver on pages shaped like real apps: native date inputs, typeahead comboboxes,
// options named loosely, links and images to other sites (the origin lock), launching afresh.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { lookup } from 'node:dns/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { CdpConnection } from '../../src/agent/drivers/browser/cdp-connection.ts'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { launchBrowser } from '../../src/agent/drivers/browser/launch-browser.ts'
import { DriverError } from '../../src/protocol/driver.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

setDefaultTimeout(30_000)
const PAGES = join(import.meta.dir, 'pages')
let app: ReturnType<typeof Bun.serve>
let outside: ReturnType<typeof Bun.serve>
/** Every request the "other site" received: the origin lock must keep this empty. */
const outsideLog: string[] = []
let base: string
let outsideBase: string
let driver: BrowserDriver

beforeAll(async () => {
  outside = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      outsideLog.push(new URL(request.url).pathname)
      return new Response('<!doctype html><title>Partner</title><p>Partner page</p>', {
        headers: { 'content-type': 'text/html' },
      })
    },
  })
  outsideBase = `http://127.0.0.1:${outside.port}`
  app = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname
      const html = (body: string, status = 200) =>
        new Response(body, { status, headers: { 'content-type': 'text/html' } })
      if (path === '/form') return html(await Bun.file(join(PAGES, 'form.html')).text())
      if (path === '/outside')
        return html((await Bun.file(join(PAGES, 'outside.html')).text()).replaceAll('OUTSIDE', outsideBase))
      if (path === '/results') return html('<!doctype html><title>Results</title><h1>3 results</h1>')
      // An editor that asks "Leave site? Changes you made may not be saved" (MediaWiki's does).
      if (path === '/editor')
        return html(
          '<!doctype html><title>Editor</title><label>Text <textarea id="text"></textarea></label>' +
            '<script>let dirty = false; text.addEventListener("input", () => { dirty = true });' +
            'addEventListener("beforeunload", (e) => { if (dirty) { e.preventDefault(); e.returnValue = "" } })</script>',
        )
      if (path === '/go-away') return Response.redirect(`${outsideBase}/sso`, 302)
      if (path === '/broken') return html('<!doctype html><title>Oops</title>Server error', 500)
      return html('<!doctype html><title>Not found</title>', 404)
    },
  })
  base = `http://127.0.0.1:${app.port}`
  driver = new BrowserDriver()
  await driver.start()
})

afterAll(async () => {
  await driver?.stop()
  await app?.stop(true)
  await outside?.stop(true)
})

function all(root: UiElement): UiElement[] {
  return [root, ...root.children.flatMap(all)]
}

async function element(windowId: string, match: (e: UiElement) => boolean): Promise<UiElement> {
  const found = all((await driver.snapshot(windowId)).root).find(match)
  if (!found) throw new Error('element not in the snapshot')
  return found
}

const byId = (id: string) => (e: UiElement) => e.automationId === id

async function driverError(promise: Promise<unknown>): Promise<DriverError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof DriverError) return error
    throw error
  }
  throw new Error('expected a DriverError')
}

/** Waits on the page's own changes (not a sleep) until the condition holds or the deadline passes. */
async function until(
  windowId: string,
  condition: () => Promise<boolean>,
  timeoutMs = 5_000,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    if (await condition()) return true
    const remaining = deadline - performance.now()
    if (remaining <= 0) return false
    await driver.waitForChange(windowId, Math.min(remaining, 200))
  }
}

describe('element facts', () => {
  test('date and time inputs are one textbox with inputType and ISO value; placeholder, type and href are given', async () => {
    const window = await driver.launch({ url: `${base}/form` })
    const root = (await driver.snapshot(window.id)).root
    const elements = all(root)
    // Never the day/month/year parts Chromium shows inside a date input.
    expect(elements.some((e) => e.role === 'spinbutton')).toBe(false)
    expect(elements.find(byId('dob'))).toMatchObject({
      role: 'textbox',
      name: 'Date of birth',
      inputType: 'date',
      value: '',
    })
    expect(elements.find(byId('dob'))?.children).toEqual([])
    expect(elements.find(byId('at'))).toMatchObject({ role: 'textbox', inputType: 'time' })
    expect(elements.find(byId('when'))).toMatchObject({
      role: 'textbox',
      inputType: 'datetime-local',
      value: '2024-01-02T09:15',
    })
    expect(elements.find(byId('period'))).toMatchObject({ role: 'textbox', inputType: 'month' })
    expect(elements.find(byId('q'))).toMatchObject({
      role: 'textbox',
      placeholder: 'Search customers',
      inputType: 'search',
    })
    expect(elements.find(byId('mail'))).toMatchObject({ inputType: 'email' })
    expect(elements.find(byId('rel'))).toMatchObject({ role: 'link', href: `${base}/tickets/7?tab=notes` })
    // Facts belong only where they mean something.
    expect(elements.find(byId('country'))?.href).toBeUndefined()
  })
})

describe('filling and selecting like a person', () => {
  test('a date input takes an ISO value and the app sees input and change events', async () => {
    const window = await driver.launch({ url: `${base}/form` })
    const fill = async (id: string, value: string) =>
      driver.act(window.id, { kind: 'fill', ref: (await element(window.id, byId(id))).ref, value })
    expect(await fill('dob', '2024-03-05')).toEqual({ value: '2024-03-05' })
    expect(await fill('at', '14:30')).toEqual({ value: '14:30' })
    expect(await fill('when', '2024-03-05 14:30')).toEqual({ value: '2024-03-05T14:30' })
    expect(await fill('period', '2024-03')).toEqual({ value: '2024-03' })
    const log = (await element(window.id, byId('log'))).name
    for (const seen of [
      'input:dob=2024-03-05',
      'change:dob=2024-03-05',
      'change:at=14:30',
      'change:period=2024-03',
    ])
      expect(log).toContain(seen)
    expect((await element(window.id, byId('dob'))).value).toBe('2024-03-05')
  })

  test('a date in another format is refused, saying which format the field takes', async () => {
    const window = await driver.launch({ url: `${base}/form` })
    const dob = await element(window.id, byId('dob'))
    const error = await driverError(
      driver.act(window.id, { kind: 'fill', ref: dob.ref, value: '05/03/2024' }),
    )
    expect(error.code).toBe('UNSUPPORTED_ACTION')
    expect(error.message).toContain('YYYY-MM-DD')
    const again = await element(window.id, byId('dob'))
    const impossible = await driverError(
      driver.act(window.id, { kind: 'fill', ref: again.ref, value: '2023-02-30' }),
    )
    expect(impossible.message).toContain('refused')
  })

  test('native options are matched by value or label without case or accents; a missing one lists the options', async () => {
    const window = await driver.launch({ url: `${base}/form` })
    const select = async (value: string) =>
      driver.act(window.id, {
        kind: 'select',
        ref: (await element(window.id, byId('country'))).ref,
        values: [value],
      })
    expect(await select('united kingdom')).toEqual({ value: 'United Kingdom' })
    expect(await select('Regie')).toEqual({ value: 'Régie' })
    expect(await select('DE')).toEqual({ value: 'Germany' })
    // Punctuation and separators do not count: "united-kingdom", "UnitedKingdom".
    expect(await select('united-kingdom')).toEqual({ value: 'United Kingdom' })
    expect(await select('UnitedKingdom')).toEqual({ value: 'United Kingdom' })
    const error = await driverError(select('Atlantis'))
    expect(error.code).toBe('OPTION_NOT_FOUND')
    expect(error.message).toContain('"Germany", "United Kingdom", "Régie"')
  })

  test('a typeahead combobox gets the text typed, then its suggested option clicked', async () => {
    const window = await driver.launch({ url: `${base}/form` })
    const city = () => element(window.id, (e) => e.role === 'combobox' && e.name === 'City')
    await driver.act(window.id, { kind: 'select', ref: (await city()).ref, values: ['pau'] })
    expect((await element(window.id, byId('log'))).name).toBe('city=Pau')
    await driver.act(window.id, { kind: 'select', ref: (await city()).ref, values: ['ZÜRICH'] })
    expect((await element(window.id, byId('log'))).name).toBe('city=Zürich')
    const error = await driverError(
      driver.act(window.id, { kind: 'select', ref: (await city()).ref, values: ['Berlin'] }),
    )
    expect(error.code).toBe('OPTION_NOT_FOUND')
    expect(error.message).toContain('No option "Berlin"')
  })
})

describe('staying inside the app', () => {
  test('images, requests and links to another site are blocked; the app keeps working', async () => {
    outsideLog.length = 0
    const window = await driver.launch({ url: `${base}/outside` })
    const link = await element(window.id, byId('ext'))
    const error = await driverError(driver.act(window.id, { kind: 'click', ref: link.ref }))
    expect(error.code).toBe('NAVIGATION_BLOCKED')
    expect(error.message).toContain(`${outsideBase}/landing`)
    expect(error.message).toContain(base)
    const named = await element(window.id, byId('named'))
    expect((await driverError(driver.act(window.id, { kind: 'click', ref: named.ref }))).code).toBe(
      'NAVIGATION_BLOCKED',
    )
    // Still on the app's page, and the app still answers.
    expect((await driver.listWindows()).find((w) => w.id === window.id)?.url).toBe(`${base}/outside`)
    const count = await element(window.id, byId('count'))
    await driver.act(window.id, { kind: 'click', ref: count.ref })
    expect((await element(window.id, byId('count'))).name).toBe('Clicked 1')
    // navigate is held to the same rule; inside the app it works.
    expect((await driverError(driver.navigate(window.id, `${outsideBase}/x`))).code).toBe(
      'NAVIGATION_BLOCKED',
    )
    expect((await driver.navigate(window.id, `${base}/results`)).title).toBe('Results')
    // The other site never saw a single request: not the image, not the beacon, not the link.
    expect(outsideLog).toEqual([])
  })

  test('a popup the app opens to another site is closed before it loads anything', async () => {
    outsideLog.length = 0
    const window = await driver.launch({ url: `${base}/outside` })
    const popup = await element(window.id, byId('popup'))
    await driver.act(window.id, { kind: 'click', ref: popup.ref }).catch(() => {})
    const onlyApp = async () => (await driver.listWindows()).every((w) => !w.url?.startsWith(outsideBase))
    expect(await until(window.id, onlyApp)).toBe(true)
    expect((await driver.listWindows()).some((w) => w.id === window.id)).toBe(true)
    expect(outsideLog).toEqual([])
  })

  test('allowOrigins lets the app load from the origins it names', async () => {
    outsideLog.length = 0
    const window = await driver.launch({ url: `${base}/outside`, allowOrigins: [outsideBase] })
    expect(await until(window.id, async () => outsideLog.includes('/logo.png'))).toBe(true)
    // Back to the app alone: the next launch without allowOrigins locks again.
    outsideLog.length = 0
    await driver.launch({ url: `${base}/outside` })
    const link = await element(window.id, byId('ext'))
    expect((await driverError(driver.act(window.id, { kind: 'click', ref: link.ref }))).code).toBe(
      'NAVIGATION_BLOCKED',
    )
    expect(outsideLog).toEqual([])
  })
})

describe('launching afresh', () => {
  test('launch returns to the start URL from another page of the app and closes tabs left on other sites', async () => {
    const window = await driver.launch({ url: `${base}/outside` })
    const results = await element(window.id, byId('results'))
    await driver.act(window.id, { kind: 'click', ref: results.ref })
    expect((await driver.listWindows()).find((w) => w.id === window.id)?.url).toBe(`${base}/results`)
    // A tab an earlier build or run left on another site (no app of ours was launched in it).
    const connection = (driver as unknown as { connection: CdpConnection }).connection
    await connection.send('Target.createTarget', { url: `${outsideBase}/left-behind` })
    expect((await driver.listWindows()).length).toBe(2)
    const again = await driver.launch({ url: `${base}/outside` })
    expect(again).toMatchObject({ id: window.id, url: `${base}/outside` })
    expect((await driver.listWindows()).map((w) => w.url)).toEqual([`${base}/outside`])
  })

  test('another app launched on the same desktop keeps its own window, locked to its own origin', async () => {
    const first = await driver.launch({ url: `${base}/outside` })
    const other = await driver.launch({ url: `${outsideBase}/other-app` })
    expect(other.id).not.toBe(first.id)
    const again = await driver.launch({ url: `${base}/outside` })
    expect(again.id).toBe(first.id)
    expect((await driver.listWindows()).map((w) => w.id).sort()).toEqual([first.id, other.id].sort())
    // Each window is held to its own app.
    expect((await driverError(driver.navigate(other.id, `${base}/results`))).code).toBe('NAVIGATION_BLOCKED')
    expect((await driver.navigate(other.id, `${outsideBase}/page-2`)).url).toBe(`${outsideBase}/page-2`)
  })

  test('an app that cannot be opened is LAUNCH_FAILED: refused connection, unknown host, HTTP error', async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
    const deadPort = closed.port
    await closed.stop(true)
    for (const url of [`http://127.0.0.1:${deadPort}/`, 'http://no-such-host.invalid/', `${base}/broken`]) {
      const error = await driverError(driver.launch({ url }))
      expect(error.code).toBe('LAUNCH_FAILED')
      expect(error.message).toContain(url)
    }
    // A start page that redirects outside the app (a sign-in elsewhere) says which origin to allow.
    const error = await driverError(driver.launch({ url: `${base}/go-away` }))
    expect(error.code).toBe('LAUNCH_FAILED')
    expect(error.message).toContain(
      `it leads to ${outsideBase}/sso, outside the app (add ${outsideBase} to app.allowOrigins`,
    )
    expect(outsideLog).not.toContain('/sso')
    // The driver is still usable afterwards.
    expect((await driver.launch({ url: `${base}/results` })).title).toBe('Results')
  })
})

describe('name resolution', () => {
  // This machine's own name resolves (to loopback) through the OS; the browser must not use it
  // unless an app launched on it needs it.
  const host = hostname()
  const resolvable = lookup(host)
    .then(() => true)
    .catch(() => false)

  test('the browser resolves no names but loopback and the hosts of the apps it launched', async () => {
    if (!(await resolvable) || host === 'localhost') return
    outsideLog.length = 0
    const own = new BrowserDriver()
    try {
      await own.start()
      const [blank] = await own.listWindows()
      const byName = `http://${host}:${outside.port}/by-name`
      const error = await driverError(own.navigate(blank!.id, byName))
      expect(error.message).toContain('ERR_NAME_NOT_RESOLVED')
      expect(outsideLog).toEqual([])
      // Launching an app on that host lets the browser resolve it (it restarts with the new rules).
      const window = await own.launch({ url: byName })
      expect(window.title).toBe('Partner')
      expect(outsideLog).toContain('/by-name')
    } finally {
      await own.stop()
    }
  })
})

describe('a page that asks to stay', () => {
  test('launch and navigate leave an editor with unsaved text (its beforeunload) instead of failing', async () => {
    const window = await driver.launch({ url: `${base}/editor` })
    const fill = async () =>
      driver.act(window.id, {
        kind: 'fill',
        ref: (await element(window.id, byId('text'))).ref,
        value: 'draft',
      })
    await fill()
    const again = await driver.launch({ url: `${base}/results` })
    expect(again.title).toBe('Results')
    await driver.navigate(again.id, `${base}/editor`)
    await fill()
    const moved = await driver.navigate(again.id, `${base}/results`)
    expect(moved.title).toBe('Results')
  })
})

describe('a browser that died', () => {
  test('is started again by the next launch', async () => {
    const own = new BrowserDriver()
    try {
      await own.start()
      await own.launch({ url: `${base}/results` })
      const pid = (own as unknown as { browser: { pid: number } }).browser.pid
      process.kill(-pid, 'SIGKILL')
      // Until then the driver says plainly that the browser is gone.
      const lost = async () => {
        const error = await own.listWindows().then(
          () => undefined,
          (e: DriverError) => e,
        )
        return error?.code === 'DISCONNECTED'
      }
      const deadline = performance.now() + 5_000
      while (!(await lost()) && performance.now() < deadline) await Bun.sleep(50)
      expect(await lost()).toBe(true)
      const window = await own.launch({ url: `${base}/results` })
      expect(window.title).toBe('Results')
    } finally {
      await own.stop()
    }
  })
})

describe('attached to someone else’s browser (--devtools-url)', () => {
  test('the lock and launch-fresh apply to the tabs the agent opened; the user’s own tabs are left alone', async () => {
    const browser = await launchBrowser()
    const attached = new BrowserDriver({ devtoolsUrl: browser.wsUrl })
    try {
      await attached.start()
      const connection = (attached as unknown as { connection: CdpConnection }).connection
      // The user's own tab, on another site: never reused, never closed.
      const { targetId: userTab } = await connection.send('Target.createTarget', {
        url: `${outsideBase}/mine`,
      })
      const window = await attached.launch({ url: `${base}/outside` })
      expect(window.id).not.toBe(userTab)
      const link = all((await attached.snapshot(window.id)).root).find(byId('ext'))!
      const error = await driverError(attached.act(window.id, { kind: 'click', ref: link.ref }))
      expect(error.code).toBe('NAVIGATION_BLOCKED')
      const again = await attached.launch({ url: `${base}/outside` })
      expect(again.id).toBe(window.id)
      const ids = (await attached.listWindows()).map((w) => w.id)
      expect(ids).toContain(userTab)
    } finally {
      await attached.stop()
      await browser.dispose()
    }
  })
})

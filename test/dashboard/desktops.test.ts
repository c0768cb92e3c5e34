import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Browser } from 'playwright-core'
import { CSP } from '../../src/dashboard/http.ts'
import { PREVIEW_INTERVAL_MS } from '../../src/dashboard/pages/desktop-preview.ts'
import { jobs } from '../../src/db/schema/index.ts'
import {
  createEnrollmentToken,
  enrollDesktop,
  getDesktop,
  listDesktops,
} from '../../src/modules/desktops/service.ts'
import { addJobVersion, promoteJob } from '../../src/modules/jobs/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../src/protocol/elements.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { eventually } from '../helpers/cli.ts'
import { type DashboardClient, launchBrowser, signIn, signInPage } from '../helpers/dashboard.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/** The app on the agent's desktop: white until "Change" is clicked, then black. */
const APP_PAGE = `<!doctype html><html><head><title>Preview test app</title><style>
  html, body { margin: 0; height: 100%; background: #fff; }
  body.dark { background: #000; }
  button { font-size: 32px; margin: 40px; }
</style></head><body><button onclick="document.body.classList.toggle('dark')">Change</button></body></html>`

const unescapeHtml = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')

/** Serious or critical axe-core findings on the page (axe is evaluated, so the page's CSP allows it). */
async function seriousA11yProblems(page: import('playwright-core').Page): Promise<string[]> {
  await page.evaluate(await Bun.file(require.resolve('axe-core/axe.min.js')).text())
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe
    return (await axe.run()).violations
  })
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)
}
interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

const flatten = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flatten)]

/** Reads a server-sent event stream, one event at a time. */
function openStream(url: string, cookie: string) {
  const abort = new AbortController()
  const response = fetch(url, { headers: { cookie, accept: 'text/event-stream' }, signal: abort.signal })
  let buffered = ''
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  const decoder = new TextDecoder()
  return {
    response,
    /** The next event (comments and the retry line skipped) as { event, data }. */
    async next(): Promise<{ event: string; data: string }> {
      reader ??= (await response).body!.getReader()
      for (;;) {
        const end = buffered.indexOf('\n\n')
        if (end >= 0) {
          const block = buffered.slice(0, end)
          buffered = buffered.slice(end + 2)
          const lines = block.split('\n').filter((l) => !l.startsWith(':') && !l.startsWith('retry:'))
          if (!lines.length) continue
          const field = (name: string) =>
            lines
              .find((l) => l.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim() ?? ''
          return { event: field('event') || 'message', data: field('data') }
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('the event stream ended')
        buffered += decoder.decode(value)
      }
    },
    close: () => abort.abort(),
  }
}

describe('desktops page with real agents', () => {
  let s: TestServer
  let app: ReturnType<typeof Bun.serve>
  let agent: AgentProcess
  let second: AgentProcess | undefined
  let desktopId: string
  let admin: DashboardClient
  let member: DashboardClient
  let browser: Browser | undefined

  beforeAll(async () => {
    app = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(APP_PAGE, { headers: { 'content-type': 'text/html' } }),
    })
    s = await startTestServer({ heartbeatIntervalMs: 1000, agentGraceMs: 1000 })
    admin = await signIn(s)
    member = await signIn(s, { email: 'member@example.com', password: 'member-password-1', role: 'member' })
    const { token } = createEnrollmentToken(s.ctx)
    agent = startAgent({
      server: s.url,
      token,
      name: 'front-desk-1',
      startUrl: `http://127.0.0.1:${app.port}/`,
    })
    desktopId = String((await agent.waitForLog((l) => l.msg === 'online')).desktopId)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await second?.cleanup()
    await agent?.cleanup()
    await s?.close()
    app?.stop(true)
  })

  test('the page lists the desktop online with its platform, driver and agent version; members see no admin actions', async () => {
    await eventually(async () => getDesktop(s.ctx, desktopId)?.agentVersion)
    const res = await admin.get('/_/desktops')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<h2>front-desk-1</h2>')
    expect(html).toContain('badge-online')
    expect(html).toContain('<dd>linux</dd>')
    expect(html).toContain('<dd>browser — web apps (Chromium/Edge)</dd>')
    expect(html).toContain(`<dd>${getDesktop(s.ctx, desktopId)!.agentVersion}</dd>`)
    expect(html).toContain(`data-preview="${desktopId}"`)
    expect(html).toContain('Connect a desktop')
    expect(html).toContain(`action="/_/desktops/${desktopId}/revoke"`)
    expect(html).toContain('data-confirm="Revoke desktop')

    const asMember = await (await member.get('/_/desktops')).text()
    expect(asMember).toContain('<h2>front-desk-1</h2>')
    expect(asMember).toContain(`data-preview="${desktopId}"`)
    expect(asMember).not.toContain('Connect a desktop</h2>')
    expect(asMember).not.toContain('/revoke"')
    expect(asMember).not.toContain('action="/_/desktops/connect"')
  })

  test('Connect a desktop shows a token and command once; the command really enrolls an agent', async () => {
    const bad = await admin.post('/_/desktops/connect', { name: 'bad;name', startUrl: '' })
    expect(bad.status).toBe(400)
    const badHtml = await bad.text()
    expect(badHtml).toContain('The name may have')
    expect(badHtml).toContain('value="bad;name"')
    expect(badHtml).not.toContain('dhe_')

    const res = await admin.post('/_/desktops/connect', {
      name: 'reception 2',
      startUrl: `http://127.0.0.1:${app.port}/`,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const html = unescapeHtml(await res.text())
    const command = /<pre>(deskhook agent [^<]+)<\/pre>/.exec(html)?.[1]
    expect(command).toBeDefined()
    const args = command!.match(/"[^"]*"|'[^']*'|\S+/g)!.map((a) => a.replace(/^["']|["']$/g, ''))
    const flag = (name: string) => args[args.indexOf(name) + 1]!
    expect(flag('--server')).toBe(s.url)
    expect(flag('--token')).toMatch(/^dhe_/)
    expect(flag('--name')).toBe('reception 2')
    expect(html).toMatch(/expires <time datetime="[^"]+"/)
    // The token is in this response only: the page shows it no more.
    expect(await (await admin.get('/_/desktops')).text()).not.toContain(flag('--token'))

    second = startAgent({
      server: flag('--server'),
      token: flag('--token'),
      name: flag('--name'),
      startUrl: flag('--start-url'),
    })
    const online = await second.waitForLog((l) => l.msg === 'online')
    expect(getDesktop(s.ctx, String(online.desktopId))?.name).toBe('reception 2')
    expect(await (await admin.get('/_/desktops')).text()).toContain('<h2>reception 2</h2>')
  }, 60_000)

  test('a member cannot make enrollment tokens or revoke desktops', async () => {
    const tokensBefore = s.ctx.db.$client.query('SELECT count(*) AS n FROM enrollment_tokens').get() as {
      n: number
    }
    const connect = await member.post('/_/desktops/connect', { name: 'sneaky' })
    expect(connect.status).toBe(403)
    expect(await connect.text()).not.toContain('dhe_')
    const revoke = await member.post(`/_/desktops/${desktopId}/revoke`)
    expect(revoke.status).toBe(403)
    expect(getDesktop(s.ctx, desktopId)?.revokedAt).toBeNull()
    const tokensAfter = s.ctx.db.$client.query('SELECT count(*) AS n FROM enrollment_tokens').get() as {
      n: number
    }
    expect(tokensAfter.n).toBe(tokensBefore.n)
  })

  test('the page says what each desktop is running: a live run and a build holding it', async () => {
    const reception = listDesktops(s.ctx).find((d) => d.name === 'reception 2')!
    // A live job pinned to "reception 2" whose one step waits for text that never comes.
    const taught = await s.call('/slow-task', {
      method: 'POST',
      // The build waits for a desktop that never comes: nothing explores the test desktops.
      json: teachBody({ prompt: 'A slow task', desktop: 'elsewhere' }, {}),
    })
    expect(taught.status).toBe(202)
    const { jobId, buildId } = await taught.json()
    const automation: Automation = {
      version: 1,
      app: {},
      steps: [
        { kind: 'wait', name: 'Wait', timeoutMs: 60_000, until: { kind: 'text', text: 'never shown' } },
      ],
      scenarios: [],
    }
    addJobVersion(s.ctx, jobId, automation)
    s.ctx.db
      .update(jobs)
      .set({ desktopPool: [reception.id] })
      .where(eq(jobs.id, jobId))
      .run()
    promoteJob(s.ctx, 'POST', '/slow-task')
    const call = await s.call('/slow-task?async=1', { method: 'POST', json: {} })
    expect(call.status).toBe(202)
    const { jobExecutionId } = await call.json()
    await eventually(async () => s.hub.busyRunOf(reception.id) === jobExecutionId)
    const { seq } = s.ctx.db.$client.query('SELECT seq FROM executions WHERE id = ?').get(jobExecutionId) as {
      seq: number
    }

    // A build holds front-desk-1 the way the build worker does (hub.reserve).
    expect(s.hub.reserve(desktopId, buildId)).toBe(true)
    try {
      const html = await (await member.get('/_/desktops')).text()
      const card = (name: string) => html.slice(html.indexOf(`<h2>${name}</h2>`)).split('</li>')[0]!
      expect(card('reception 2')).toContain('badge-busy')
      expect(card('reception 2')).toContain(`href="/_/runs/${seq}"`)
      expect(card('reception 2')).toContain('<code>POST /slow-task</code>')
      expect(card('front-desk-1')).toContain('badge-busy')
      expect(card('front-desk-1')).toContain(`href="/_/builds/${buildId}"`)
    } finally {
      s.hub.release(desktopId, buildId)
    }
    const after = await (await member.get('/_/desktops')).text()
    expect(after.slice(after.indexOf('<h2>front-desk-1</h2>')).split('</li>')[0]).toContain('badge-online')
  }, 60_000)

  test('revoke (admin) marks the desktop revoked and disconnects its agent for good', async () => {
    const reception = listDesktops(s.ctx).find((d) => d.name === 'reception 2')!
    const res = await admin.post(`/_/desktops/${reception.id}/revoke`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/_/desktops?revoked=${reception.id}`)
    expect(getDesktop(s.ctx, reception.id)?.revokedAt).not.toBeNull()
    expect(await second!.exited).toBe(1)
    const html = await (await admin.get(res.headers.get('location')!)).text()
    expect(html).toContain('Desktop “reception 2” was revoked')
    const card = html.slice(html.indexOf('<h2>reception 2</h2>')).split('</li>')[0]!
    expect(card).toContain('badge-revoked')
    expect(card).not.toContain('/revoke"')
    expect(card).not.toContain('data-preview')
    // A revoked desktop has no preview to watch.
    expect((await admin.get(`/_/desktops/${reception.id}/preview/events`)).status).toBe(404)
    expect((await admin.post('/_/desktops/no-such-id/revoke')).status).toBe(404)
  }, 30_000)

  test('the preview stream starts capturing on the first watcher and stops after the last one leaves', async () => {
    const hub = s.hub
    const calls: string[] = []
    const start = hub.startPreview.bind(hub)
    const stop = hub.stopPreview.bind(hub)
    hub.startPreview = (id, intervalMs, windowId) => {
      calls.push(`start ${id} ${intervalMs}`)
      start(id, intervalMs, windowId)
    }
    hub.stopPreview = (id) => {
      calls.push(`stop ${id}`)
      stop(id)
    }
    let frames = 0
    const countFrame = (id: string) => {
      if (id === desktopId) frames++
    }
    s.ctx.events.on('desktop.preview', countFrame)
    try {
      const url = `${s.url}/_/desktops/${desktopId}/preview/events`
      const one = openStream(url, admin.cookie)
      expect((await one.response).headers.get('content-type')).toContain('text/event-stream')
      const first = await one.next()
      expect(first.event).toBe('message')
      expect(calls).toEqual([`start ${desktopId} ${PREVIEW_INTERVAL_MS}`])
      const second = await one.next()
      expect(Number(second.data)).toBeGreaterThan(Number(first.data))

      const jpeg = await admin.get(`/_/desktops/${desktopId}/preview.jpg?n=${second.data}`)
      expect(jpeg.status).toBe(200)
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
      expect(jpeg.headers.get('cache-control')).toBe('no-store')
      const bytes = new Uint8Array(await jpeg.arrayBuffer())
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]) // a JPEG

      // A second watcher (a member) shares the capture: no second start.
      const two = openStream(url, member.cookie)
      await two.next()
      expect(calls).toHaveLength(1)
      one.close()
      await two.next() // frames keep coming for the one still watching
      expect(calls).toHaveLength(1)
      const stoppedBefore = agent.lines.filter((l) => l.includes('"preview stopped"')).length
      two.close()
      await eventually(async () => calls.length === 2)
      expect(calls[1]).toBe(`stop ${desktopId}`)

      // The agent says it stopped (a frame it was capturing then is dropped, not sent). Frames and
      // answers share one ordered socket: once it answered an rpc, every earlier frame has arrived,
      // and the count stays put across the next round trip.
      let stoppedSeen = 0
      await agent.waitForLog((l) => l.msg === 'preview stopped' && ++stoppedSeen > stoppedBefore)
      await s.hub.rpc(desktopId, 'listWindows', [])
      const settled = frames
      await s.hub.rpc(desktopId, 'listWindows', [])
      expect(frames).toBe(settled)

      // Watching again starts again.
      const three = openStream(url, admin.cookie)
      await three.next()
      expect(calls[2]).toBe(`start ${desktopId} ${PREVIEW_INTERVAL_MS}`)
      three.close()
      await eventually(async () => calls.length === 4)
    } finally {
      s.ctx.events.off('desktop.preview', countFrame)
      hub.startPreview = start
      hub.stopPreview = stop
    }
    expect((await admin.get('/_/desktops/no-such-desktop/preview.jpg')).status).toBe(404)
  }, 60_000)

  test('in Chromium the page shows the live preview, and the frame changes when the app changes', async () => {
    browser = await launchBrowser()
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const violations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    await signInPage(page, s)
    await page.goto(`${s.url}/_/desktops`)
    const img = page.locator(`[data-preview="${desktopId}"] img`)
    await img.waitFor({ state: 'visible', timeout: 20_000 })
    await expect(img.getAttribute('alt')).resolves.toBe('Live preview of front-desk-1')

    /** The shown frame's pixel near the bottom right (the app's background), read through a canvas. */
    const shownPixel = () =>
      img.evaluate((el: HTMLImageElement) => {
        const c = document.createElement('canvas')
        c.width = el.naturalWidth
        c.height = el.naturalHeight
        const g = c.getContext('2d')!
        g.drawImage(el, 0, 0)
        return Array.from(g.getImageData(el.naturalWidth - 10, el.naturalHeight - 10, 1, 1).data.slice(0, 3))
      })
    expect(Math.min(...(await shownPixel()))).toBeGreaterThan(230) // white page
    const before = new Uint8Array(
      await (await admin.get(`/_/desktops/${desktopId}/preview.jpg`)).arrayBuffer(),
    )
    const srcBefore = await img.getAttribute('src')

    // The app changes on the desktop: the agent clicks "Change" (the page turns black).
    const windows = await s.hub.rpc<WindowInfo[]>(desktopId, 'listWindows', [])
    const win = windows.find((w) => w.title === 'Preview test app')!
    const snap = await s.hub.rpc<Snapshot>(desktopId, 'snapshot', [win.id])
    const button = flatten(snap.root).find((e) => e.role === 'button' && e.name === 'Change')!
    await s.hub.rpc(desktopId, 'act', [win.id, { kind: 'click', ref: button.ref }])

    await page.waitForFunction(
      (el) => {
        const i = el as HTMLImageElement
        const c = document.createElement('canvas')
        c.width = i.naturalWidth
        c.height = i.naturalHeight
        const g = c.getContext('2d')!
        g.drawImage(i, 0, 0)
        const [r, gr, b] = g.getImageData(i.naturalWidth - 10, i.naturalHeight - 10, 1, 1).data
        return r! < 30 && gr! < 30 && b! < 30
      },
      await img.elementHandle(),
      { timeout: 20_000, polling: 100 },
    )
    expect(await img.getAttribute('src')).not.toBe(srcBefore)
    const after = new Uint8Array(
      await (await admin.get(`/_/desktops/${desktopId}/preview.jpg`)).arrayBuffer(),
    )
    expect(Buffer.from(after).equals(Buffer.from(before))).toBe(false)
    expect(violations).toEqual([])
    expect(await seriousA11yProblems(page)).toEqual([])
    if (process.env.DESKHOOK_SCREENSHOTS)
      await page.screenshot({ path: `${process.env.DESKHOOK_SCREENSHOTS}/desktops-1280.png`, fullPage: true })

    // The phone layout keeps the preview inside the screen.
    await page.setViewportSize({ width: 390, height: 844 })
    const box = await img.boundingBox()
    expect(box!.x + box!.width).toBeLessThanOrEqual(390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    if (process.env.DESKHOOK_SCREENSHOTS)
      await page.screenshot({ path: `${process.env.DESKHOOK_SCREENSHOTS}/desktops-390.png`, fullPage: true })
    await page.close()
  }, 90_000)
})

describe('API docs', () => {
  let s: TestServer
  let admin: DashboardClient
  let browser: Browser | undefined

  beforeAll(async () => {
    s = await startTestServer()
    admin = await signIn(s)
    const taught = await s.call('/customers', {
      method: 'POST',
      json: teachBody({ prompt: 'Create a customer' }, { email: 'a@example.com', vip: true }),
    })
    expect(taught.status).toBe(202)
  }, 30_000)

  afterAll(async () => {
    await browser?.close()
    await s?.close()
  })

  const directives = (csp: string) =>
    new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
        .map(([k, ...v]) => [k, v]),
    )

  test('its CSP differs from every other page only in style-src', async () => {
    const docs = await admin.get('/_/api')
    expect(docs.status).toBe(200)
    const html = await docs.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/) // no inline script
    expect(html).not.toContain(' style=')
    const loose = directives(docs.headers.get('content-security-policy')!)
    for (const path of ['/_/', '/_/desktops']) {
      const strict = directives((await admin.get(path)).headers.get('content-security-policy')!)
      expect(strict).toEqual(directives(CSP))
      expect([...loose.keys()]).toEqual([...strict.keys()])
      for (const [k, v] of strict) if (k !== 'style-src') expect(loose.get(k)).toEqual(v)
    }
    expect(loose.get('style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(loose.get('script-src')).toEqual(["'self'"])
  })

  test('Swagger UI shows the taught job in Chromium and "Try it out" works with an API key', async () => {
    browser = await launchBrowser()
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const violations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
    })
    const offsite: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(s.url) && !r.url().startsWith('data:')) offsite.push(r.url())
    })
    await signInPage(page, s)
    await page.goto(`${s.url}/_/api`)
    const operation = page.locator('#operations-learning-postCustomers')
    await operation.waitFor({ timeout: 20_000 })
    expect(await operation.textContent()).toContain('Create a customer')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API docs')

    // Authorize with the key, then call GET /_jobs from the page.
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click()
    await page.locator('.dialog-ux input[type="text"], .dialog-ux input[type="password"]').first().fill(s.key)
    expect(await seriousA11yProblems(page)).toEqual([]) // with the dialog open
    await page.locator('.dialog-ux .auth-btn-wrapper .authorize').click()
    await page.locator('.dialog-ux .btn-done, .dialog-ux .close-modal').first().click()
    const list = page.locator('#operations-default-listJobs')
    await list.locator('.opblock-summary').click()
    await list.getByRole('button', { name: 'Try it out' }).click()
    const response = page.waitForResponse((r) => r.url() === `${s.url}/_jobs`)
    await list.getByRole('button', { name: 'Execute' }).click()
    expect((await response).status()).toBe(200)
    const status = list.locator('.live-responses-table tbody .response-col_status').first()
    await status.waitFor()
    expect(await status.textContent()).toContain('200')
    expect(await list.locator('.live-responses-table').textContent()).toContain('/customers')
    expect(violations).toEqual([])
    expect(offsite).toEqual([])
    expect(await seriousA11yProblems(page)).toEqual([])
    if (process.env.DESKHOOK_SCREENSHOTS)
      await page.screenshot({ path: `${process.env.DESKHOOK_SCREENSHOTS}/api-1280.png`, fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    if (process.env.DESKHOOK_SCREENSHOTS)
      await page.screenshot({ path: `${process.env.DESKHOOK_SCREENSHOTS}/api-390.png`, fullPage: true })
    await page.close()
  }, 60_000)
})

describe('server stop with dashboard streams open', () => {
  test('stop() ends an open build stream and preview stream instead of waiting for the shutdown timeout', async () => {
    // The test's own timeout is far below this: only streams that end at once let stop() finish in time.
    const s = await startTestServer({ shutdownTimeoutMs: 60_000 })
    const admin = await signIn(s)
    const taught = await s.call('/stop-test', {
      method: 'POST',
      json: teachBody({ prompt: 'Stop test' }, {}),
    })
    expect(taught.status).toBe(202)
    const { buildId } = await taught.json()
    // A desktop with no agent: its preview stream says "offline" and stays open, watching for it.
    const { desktop } = enrollDesktop(s.ctx, createEnrollmentToken(s.ctx).token, {
      name: 'no-agent',
      platform: 'linux',
      driver: 'browser',
      agentVersion: '0.0.0',
    })
    const build = openStream(`${s.url}/_/builds/${buildId}/events`, admin.cookie)
    const preview = openStream(`${s.url}/_/desktops/${desktop.id}/preview/events`, admin.cookie)
    expect((await build.next()).event).toBe('build') // queued: the build waits for a desktop
    expect((await preview.next()).event).toBe('offline')

    await s.close()
    await expect(build.next()).rejects.toThrow('the event stream ended')
    await expect(preview.next()).rejects.toThrow('the event stream ended')
  }, 20_000)
})

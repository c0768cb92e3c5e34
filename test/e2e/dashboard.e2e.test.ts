import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import type { WindowInfo } from '../../src/protocol/elements.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { eventually } from '../helpers/cli.ts'
import { launchBrowser, screenshotDir, seriousViolations } from '../helpers/dashboard.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/**
 * The dashboard as an IT admin first meets it, end to end: a real server, a real agent process
 * with the fixture CRM open in Chromium, and a second Chromium (Playwright) as the admin's browser.
 * First-run setup → Create a job → its build question answered in the page → Promote to live → a
 * live call's replay → the desktop's live preview. Every page visited is checked with axe-core
 * and photographed at 1280×800 and 390×844 (kept as test artefacts).
 */
let s: TestServer
let crm: FixtureServer
let agent: AgentProcess
let desktopId: string
let browser: Browser
let page: Page
const visited = new Map<string, string>()

beforeAll(async () => {
  crm = await startFixtureServer()
  s = await startTestServer({ watchIntervalMs: 20 })
  agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'front-desk',
    startUrl: `${crm.url}/crm/`,
  })
  desktopId = String((await agent.waitForLog((l) => l.msg === 'online')).desktopId)
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text())
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await agent?.cleanup()
  await s?.close()
  await crm?.stop()
})

const consoleErrors: string[] = []

/** Remembers the page for the accessibility and screenshot pass at the end. */
function visit(name: string): void {
  visited.set(name, page.url())
}

describe('the dashboard, end to end', () => {
  test('first-run setup creates the workspace and lands on an empty Jobs page', async () => {
    const setup = new URL(s.setupUrl!)
    await page.goto(`${s.url}${setup.pathname}${setup.search}`)
    await page.getByLabel('Workspace name').fill('Front office')
    await page.getByLabel('Your email').fill('it@example.com')
    await page.getByLabel(/^Password/).fill('a-long-admin-password')
    await page.getByRole('button', { name: 'Create the workspace' }).click()
    await page.getByRole('heading', { name: 'Jobs' }).waitFor()
    await page.getByText('No jobs yet').waitFor()
    expect(await page.locator('.brand').textContent()).toContain('Front office')
  }, 30_000)

  test('Create a job makes a build; its question is answered in the page; the build succeeds', async () => {
    await page.getByRole('link', { name: 'Create a job' }).first().click()
    await page
      .getByLabel('What should the job do?')
      .fill('Find a customer by id and return the name and country')
    await page.getByLabel('Method').selectOption('GET')
    await page.getByLabel('Path').fill('/customer-lookup')
    await page.getByLabel('Example input (JSON)').fill('{"customerId": "C-1040"}')
    visit('create-job')
    await page.getByRole('button', { name: 'Teach it' }).click()
    await page.waitForURL(/\/_\/builds\/[\w-]+/)
    visit('build')
    // The builder explores the CRM and asks which outputs to return: the page shows the question
    // by itself (server-sent events), as checkboxes.
    const question = page.locator('fieldset legend')
    await question.waitFor({ timeout: 120_000 })
    expect(await question.textContent()).toMatch(/return|output/i)
    await page.screenshot({ path: `${screenshotDir()}/build-question-1280.png`, fullPage: true })
    for (const name of [/^name\b/i, /^country\b/i]) await page.getByRole('checkbox', { name }).first().check()
    await page.getByRole('button', { name: 'Answer' }).click()
    await page.getByText('Your answer was recorded').waitFor()
    await page.locator('.badge-succeeded').first().waitFor({ timeout: 120_000 })
    visit('build-succeeded')
  }, 240_000)

  test('the Jobs page shows the job with its trigger URL; Promote to live works from the job page', async () => {
    await page.getByRole('link', { name: 'Jobs', exact: true }).click()
    await page.getByText(`${s.url}/customer-lookup`).first().waitFor()
    visit('jobs')
    await page.getByRole('link', { name: /GET \/customer-lookup/ }).click()
    await page.getByRole('button', { name: 'Promote to live' }).click()
    await page.locator('.badge-live').first().waitFor()
    visit('job')
    const res = await s.call('/customer-lookup?customerId=C-1039')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ name: 'Grace Hopper', country: 'United States' })
  }, 60_000)

  test("the live call's run page shows every step's screenshot, moving with the arrow keys", async () => {
    await page.getByRole('link', { name: 'Runs', exact: true }).click()
    await page.locator('table a[href^="/_/runs/"]').first().click()
    await page.waitForURL(/\/_\/runs\/\d+/)
    visit('run')
    const steps = await page.locator('[data-step-panel]').count()
    expect(steps).toBeGreaterThan(1)
    for (let n = 1; n <= steps; n++) {
      const panel = page.locator(`[data-step-panel="${n}"]`)
      await panel.waitFor({ state: 'visible' })
      const img = await panel.locator('img').elementHandle()
      await page.waitForFunction(
        (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
        img,
      )
      // The acted-on element is outlined on the screenshots of steps that act on one.
      if (await panel.locator('.outline').count())
        await panel.locator('.outline').waitFor({ state: 'visible' })
      if (n < steps) await page.keyboard.press('ArrowRight')
    }
  }, 60_000)

  test('the desktop page shows a live preview that changes when the app changes', async () => {
    await page.getByRole('link', { name: 'Desktops', exact: true }).click()
    const img = page.locator(`[data-preview="${desktopId}"] img`)
    await img.waitFor({ state: 'visible', timeout: 20_000 })
    const before = await img.screenshot()
    // The app changes on the desktop: the CRM moves to another page in the same window.
    const [crmWindow] = await s.hub.rpc<WindowInfo[]>(desktopId, 'listWindows', [])
    await s.hub.rpc(desktopId, 'navigate', [crmWindow!.id, `${crm.url}/crm/customers/new`])
    // Between two frames the preview's image may have no size for a moment: that is no frame yet.
    const frame = () => img.screenshot({ timeout: 2_000 }).catch(() => undefined)
    await eventually(async () => {
      const now = await frame()
      return now !== undefined && !Buffer.from(now).equals(Buffer.from(before))
    }, 20_000)
    visit('desktops')
  }, 60_000)

  test('every page visited has no serious accessibility problem, no CSP error, and fits a phone', async () => {
    const dir = screenshotDir()
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height })
      for (const [name, url] of visited) {
        await page.goto(url)
        await page.locator('main').waitFor()
        expect({ name, width, violations: await seriousViolations(page) }).toEqual({
          name,
          width,
          violations: [],
        })
        expect({
          name,
          width,
          overflow: await page.evaluate(() => document.documentElement.scrollWidth > innerWidth),
        }).toEqual({
          name,
          width,
          overflow: false,
        })
        await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: width > 400 })
      }
    }
    expect(consoleErrors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([])
  }, 120_000)

  test('first-load page weights (printed for the closing note)', async () => {
    const weights: string[] = []
    for (const [name, url] of visited) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      await context.addCookies(await page.context().cookies())
      const fresh = await context.newPage()
      let bytes = 0
      fresh.on('response', async (r) => {
        const sizes = await r
          .request()
          .sizes()
          .catch(() => null)
        if (sizes) bytes += sizes.responseBodySize + sizes.responseHeadersSize
      })
      await fresh.goto(url, { waitUntil: 'load' })
      await fresh.waitForLoadState('networkidle').catch(() => {})
      weights.push(`${name}: ${(bytes / 1024).toFixed(1)} KB`)
      await context.close()
    }
    console.log(`[page weights, first load, compressed] ${weights.join(' · ')}`)
    expect(weights.length).toBe(visited.size)
  }, 60_000)
})

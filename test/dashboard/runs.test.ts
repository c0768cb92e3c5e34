// The runs list and the run page (replay): seeded runs with real JPEG screenshots (Chromium's),
// over HTTP with a signed-in client, then in Chromium for the replay's keyboard and outline.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { REPLAY_READY_MARK } from '../../src/dashboard/islands/replay.ts'
import { executionSteps, executions, jobs, webhookDeliveries } from '../../src/db/schema/index.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { addJobVersion, promoteJob } from '../../src/modules/jobs/service.ts'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import type { Bounds } from '../../src/protocol/elements.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { type DashboardClient, launchBrowser, seriousViolations, signIn } from '../helpers/dashboard.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

const PASSWORD = 'hunter2-Pa55word'
const JOB_SECRET = 'jobsecret-VALUE-42'
const CALLBACK_TOKEN = 'cb-token-abc123'
const SEEDED = 120
const REPLAY_STEPS = 20

let s: TestServer
let admin: DashboardClient
let browser: Browser
/** Each step's element in its screenshot (the button the page for that step shows). */
const targets: Bounds[] = []
let replaySeq = 0
let failedSeq = 0

const decode = (html: string) =>
  html
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')

/** Run numbers in a list page, in page order. */
const seqsIn = (html: string) =>
  [...html.matchAll(/<td><a href="\/_\/runs\/(\d+)">/g)].map((m) => Number(m[1]))
const linkIn = (html: string, rel: 'prev' | 'next') =>
  new RegExp(`<a href="([^"]+)" rel="${rel}"`).exec(html)?.[1]?.replaceAll('&amp;', '&')

/** Width and height from a JPEG's frame header. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 2; i + 9 < bytes.length; ) {
    const marker = bytes[i + 1]!
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) }
    i += 2 + view.getUint16(i + 2)
  }
  throw new Error('not a JPEG')
}

const minutes = (n: number) => n * 60_000
const iso = (ms: number) => new Date(ms).toISOString()
const MARCH_1 = Date.parse('2025-03-01T00:00:00.000Z')
const STATUSES = ['succeeded', 'failed', 'partial', 'succeeded', 'timed_out'] as const

/** JPEGs the way the agent makes them (Chromium, quality 75), each of a page with a button at a known place. */
async function makeScreens(count: number): Promise<{ jpeg: Buffer; target: Bounds }[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  const out: { jpeg: Buffer; target: Bounds }[] = []
  // Text in rows, like an app's list, so the pictures weigh what real screenshots weigh.
  const busy = `<table style="margin:16px;font-size:13px">${Array.from(
    { length: 34 },
    (_, r) =>
      `<tr>${Array.from({ length: 8 }, (_, c) => `<td style="padding:1px 10px">Cell ${r}-${c} ${'customer record'.slice(0, 4 + ((r * c) % 11))}</td>`).join('')}</tr>`,
  ).join('')}</table>`
  for (let n = 1; n <= count; n++) {
    const [x, y, w, h] = [60 + ((n * 97) % 1000), 80 + ((n * 53) % 600), 120 + n * 3, 36 + (n % 4) * 8]
    await page.setContent(
      `<body style="margin:0;background:hsl(${n * 18},40%,92%);font:16px sans-serif">
        <h1 style="margin:16px">Screen ${n}</h1>${busy}
        <button id="b" style="position:absolute;left:${x}px;top:${y}px;width:${w}px;height:${h}px">Step ${n}</button>
      </body>`,
    )
    const box = (await page.locator('#b').boundingBox())!
    out.push({
      jpeg: await page.screenshot({ type: 'jpeg', quality: 75 }),
      target: { x: box.x, y: box.y, width: box.width, height: box.height },
    })
  }
  await page.close()
  return out
}

function writeShot(executionId: string, n: number, jpeg: Buffer): void {
  const dir = join(s.dataDir, 'screenshots', executionId)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${n}.jpg`), jpeg)
}

type NewRun = typeof executions.$inferInsert

function insertRun(run: Partial<NewRun> & Pick<NewRun, 'jobId' | 'queuedAt'>): { seq: number; id: string } {
  const id = Bun.randomUUIDv7()
  const row = s.ctx.db
    .insert(executions)
    .values({
      id,
      jobVersion: 1,
      status: 'succeeded',
      input: { customer: { name: 'Ada' } },
      timeoutMs: 60_000,
      requestId: `req-${id}`,
      baseUrl: s.url,
      ...run,
    })
    .returning({ seq: executions.seq })
    .get()
  return { seq: row.seq, id }
}

beforeAll(async () => {
  s = await startTestServer()
  admin = await signIn(s)
  browser = await launchBrowser()
  const now = new Date().toISOString()
  s.ctx.db
    .insert(jobs)
    .values([
      {
        id: 'job_customers',
        method: 'POST',
        path: '/customers',
        prompt: 'Create a customer',
        createdAt: now,
        updatedAt: now,
      },
      {
        id: 'job_orders',
        method: 'GET',
        path: '/orders/:id',
        prompt: 'Look up an order',
        createdAt: now,
        updatedAt: now,
      },
    ])
    .run()
  setJobSecret(s.ctx, 'POST', '/customers', 'apiToken', JOB_SECRET)

  // 120 runs over 12 days (10 a day), every third one of the orders job.
  for (let i = 1; i <= SEEDED; i++) {
    const queued = MARCH_1 + Math.floor((i - 1) / 10) * 86_400_000 + minutes(i)
    insertRun({
      jobId: i % 3 === 0 ? 'job_orders' : 'job_customers',
      status: STATUSES[i % STATUSES.length],
      scenario: 'main',
      queuedAt: iso(queued),
      startedAt: iso(queued + 1000),
      finishedAt: iso(queued + 2500),
    })
  }

  // A 20-step run with a screenshot per step, secrets in its input, output and step results,
  // and status events delivered to a callback.
  const screens = await makeScreens(REPLAY_STEPS)
  const start = Date.parse('2025-03-20T10:00:00.000Z')
  const replay = insertRun({
    jobId: 'job_customers',
    status: 'succeeded',
    scenario: 'main',
    httpStatus: 200,
    input: {
      customer: { name: 'Ada', password: PASSWORD },
      note: `token ${JOB_SECRET} pasted here`,
      _http: { params: {}, headers: { 'x-request-source': 'crm-sync' } },
    },
    result: { customerId: 'C-1042', apiKey: 'sk_live_should_not_show' },
    callbackUrl: `https://hooks.example.com/deskhook?token=${CALLBACK_TOKEN}`,
    queuedAt: iso(start),
    startedAt: iso(start + 200),
    finishedAt: iso(start + 200 + REPLAY_STEPS * 700),
  })
  replaySeq = replay.seq
  screens.forEach(({ jpeg, target }, i) => {
    const n = i + 1
    targets.push(target)
    writeShot(replay.id, n, jpeg)
    s.ctx.db
      .insert(executionSteps)
      .values({
        executionSeq: replay.seq,
        executionOrder: n,
        flowName: n === 3 ? 'Type {customer.password} into “Password”' : `Click “Step ${n}”`,
        totalSteps: REPLAY_STEPS,
        status: 'SUCCESS',
        result: n === 3 ? { value: PASSWORD } : n === 5 ? { echoed: `the app said ${JOB_SECRET}` } : null,
        screenshot: `${n}.jpg`,
        target,
        startedAt: iso(start + 200 + i * 700),
        finishedAt: iso(start + 200 + i * 700 + 650),
      })
      .run()
  })
  const delivery = (eventType: string, extra: Partial<typeof webhookDeliveries.$inferInsert>) => ({
    jobExecutionId: replay.id,
    executionId: replay.seq,
    eventId: Bun.randomUUIDv7(),
    eventType,
    url: `https://hooks.example.com/deskhook?token=${CALLBACK_TOKEN}`,
    payload: { status: 'x' },
    nextAttemptAt: iso(start),
    createdAt: iso(start),
    ...extra,
  })
  s.ctx.db
    .insert(webhookDeliveries)
    .values([
      delivery('execution_started', {
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 204,
        deliveredAt: iso(start + 300),
      }),
      delivery('step_completed', {
        status: 'delivered',
        attempts: 3,
        lastStatusCode: 200,
        deliveredAt: iso(start + 9000),
      }),
      delivery('execution_completed', {
        status: 'failed',
        attempts: 8,
        lastStatusCode: 503,
        lastError: `receiver answered 503 (echoed ${JOB_SECRET})`,
      }),
    ])
    .run()

  // A run that failed at step 2: step 1's screenshot row has no file, step 3 has no screenshot.
  const failed = insertRun({
    jobId: 'job_orders',
    status: 'failed',
    scenario: 'main',
    httpStatus: 502,
    error: { code: 'ELEMENT_NOT_FOUND', message: 'No element matches button "Save"', step: 'Click “Save”' },
    queuedAt: iso(start + minutes(5)),
    startedAt: iso(start + minutes(5)),
    finishedAt: iso(start + minutes(5) + 4000),
  })
  failedSeq = failed.seq
  writeShot(failed.id, 2, screens[1]!.jpeg)
  s.ctx.db
    .insert(executionSteps)
    .values(
      [
        { n: 1, name: 'Open the app', status: 'SUCCESS' as const, screenshot: '1.jpg' },
        { n: 2, name: 'Click “Save”', status: 'FAILED' as const, screenshot: '2.jpg' },
        { n: 3, name: 'Read the id', status: 'SKIPPED' as const, screenshot: null },
      ].map((st) => ({
        executionSeq: failed.seq,
        executionOrder: st.n,
        flowName: st.name,
        totalSteps: 3,
        status: st.status,
        error:
          st.status === 'FAILED'
            ? { code: 'ELEMENT_NOT_FOUND', message: 'No element matches button "Save"' }
            : null,
        screenshot: st.screenshot,
        startedAt: iso(start + minutes(5) + st.n * 1000),
        finishedAt: iso(start + minutes(5) + st.n * 1000 + 500),
      })),
    )
    .run()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await s?.close()
})

describe('runs list', () => {
  test('shows 50 runs newest first with Older/Newer links that page by run number', async () => {
    const first = await (await admin.get('/_/runs')).text()
    const page1 = seqsIn(first)
    expect(page1).toHaveLength(50)
    expect(page1[0]).toBe(failedSeq)
    expect(page1).toEqual([...page1].sort((a, b) => b - a))
    expect(linkIn(first, 'prev')).toBeUndefined()
    expect(first).toContain('<span class="method">POST</span> /customers')
    expect(first).toContain('badge-failed')
    expect(first).toContain('1.50 s') // started → finished of a seeded run

    const older = linkIn(first, 'next')!
    expect(older).toBe(`/_/runs?before=${page1.at(-1)}`)
    const second = await (await admin.get(older)).text()
    const page2 = seqsIn(second)
    expect(page2).toHaveLength(50)
    expect(page2[0]).toBe(page1.at(-1)! - 1)
    const third = await (await admin.get(linkIn(second, 'next')!)).text()
    const page3 = seqsIn(third)
    // 122 runs: 50 + 50 + 22, and the last page has no Older.
    expect(page3).toHaveLength(22)
    expect(page3.at(-1)).toBe(1)
    expect(linkIn(third, 'next')).toBeUndefined()
    // Newer from page 3 gives page 2 again, and from there page 1.
    const back = await (await admin.get(linkIn(third, 'prev')!)).text()
    expect(seqsIn(back)).toEqual(page2)
    expect(seqsIn(await (await admin.get(linkIn(back, 'prev')!)).text())).toEqual(page1)
    // Past the end (runs removed since the link was made): a way back to the newest, filters kept.
    const past = decode(await (await admin.get('/_/runs?job=job_orders&before=1')).text())
    expect(seqsIn(past)).toEqual([])
    expect(past).toContain('No runs on this page. <a href="/_/runs?job=job_orders">Show the newest runs</a>')
  }, 30_000)

  test('filters by job, status and days, and the page links keep the filters', async () => {
    const byJob = await (await admin.get('/_/runs?job=job_orders')).text()
    const orderRuns = seqsIn(byJob)
    // Every third seeded run plus the failed one.
    expect(orderRuns).toEqual([failedSeq, ...Array.from({ length: 40 }, (_, i) => 120 - i * 3)])
    expect(byJob).not.toContain('<span class="method">POST</span> /customers')
    expect(byJob).toContain('<option value="job_orders" selected>')

    const failed = await (await admin.get('/_/runs?status=failed')).text()
    const failedRuns = seqsIn(failed)
    expect(failedRuns.length).toBeGreaterThan(0)
    expect(failedRuns).toEqual([
      failedSeq,
      ...Array.from({ length: SEEDED }, (_, i) => SEEDED - i).filter((i) => STATUSES[i % 5] === 'failed'),
    ])

    // Days 2025-03-03 to 03-04 hold runs 21–40; with the customers job, the two thirds of them.
    const days = await (await admin.get('/_/runs?job=job_customers&from=2025-03-03&to=2025-03-04')).text()
    expect(seqsIn(days)).toEqual(Array.from({ length: 20 }, (_, i) => 40 - i).filter((i) => i % 3 !== 0))
    expect(days).toContain('value="2025-03-03"')

    // Paging keeps the filters: 81 customer runs → Older carries job=….
    const customers = await (await admin.get('/_/runs?job=job_customers')).text()
    const older = linkIn(customers, 'next')!
    expect(older).toContain('job=job_customers')
    const next = seqsIn(await (await admin.get(older)).text())
    expect(next.length).toBe(81 - 50)
    for (const seq of next) expect(seq % 3 === 0 && seq <= SEEDED).toBe(false)
  }, 30_000)

  test('bad filter values answer 400 with the form and a message that names the problem', async () => {
    const cases: [string, string][] = [
      ['status=bogus', '"bogus" is not a run status'],
      ['from=2025-13-01', 'From must be a date such as'],
      ['to=yesterday', 'To must be a date such as'],
      ['from=2025-03-05&to=2025-03-01', 'From (2025-03-05) is after To (2025-03-01)'],
      ['job=no-such-job', 'There is no job with id "no-such-job"'],
      ['before=abc', '"abc" is not a run number'],
      ['before=5&after=2', 'either before or after'],
    ]
    for (const [query, message] of cases) {
      const res = await admin.get(`/_/runs?${query}`)
      expect(res.status).toBe(400)
      const html = decode(await res.text())
      expect(html).toContain(message)
      expect(html).toContain('<form method="get" action="/_/runs"')
      expect(seqsIn(html)).toEqual([])
    }
    // The values sent are shown again to be corrected.
    expect(await (await admin.get('/_/runs?from=2025-13-01')).text()).toContain('value="2025-13-01"')
  })
})

describe('run page', () => {
  test('shows every step with its screenshot URL and outline data, secrets masked, and the status events', async () => {
    const res = await admin.get(`/_/runs/${replaySeq}`)
    expect(res.status).toBe(200)
    const html = decode(await res.text())
    expect(html).toContain(`<h1>Run #${replaySeq}</h1>`)
    expect(html).toContain('data-replay')
    for (let n = 1; n <= REPLAY_STEPS; n++) {
      expect(html).toContain(`data-step-panel="${n}"`)
      expect(html).toContain(`src="/_/runs/${replaySeq}/steps/${n}/screenshot"`)
      const t = targets[n - 1]!
      expect(html).toContain(
        `data-x="${t.x}" data-y="${t.y}" data-width="${t.width}" data-height="${t.height}"`,
      )
    }
    expect(html).toContain('Click “Step 20”')
    // Step 1 is selected (a run that did not fail starts at its first step).
    expect(html).toMatch(/href="\/_\/runs\/\d+\?step=1" data-step="1" aria-current="step"/)
    expect(html.match(/aria-current="step"/g)).toHaveLength(1)

    // Secrets: the caller's password (in the input and in step 3's result), the job's secret (in
    // the input, step 5's result and a delivery error), an API key in the output, the callback token.
    for (const secret of [PASSWORD, JOB_SECRET, 'sk_live_should_not_show', CALLBACK_TOKEN])
      expect(html).not.toContain(secret)
    expect(html).toContain('"customerId": "C-1042"')
    expect(html).toContain('"name": "Ada"')
    expect(html).toContain('token ••• pasted here')
    expect(html).toContain('"x-request-source": "crm-sync"')

    // Status events with their attempts.
    expect(html).toContain('Sent to <code>https://hooks.example.com/deskhook</code>')
    const events = html.slice(html.indexOf('<h2>Status events</h2>'))
    expect(events).toMatch(
      /<code>execution_started<\/code><\/td><td><span class="badge badge-delivered">delivered<\/span><\/td><td>1<\/td><td>204/,
    )
    expect(events).toMatch(
      /<code>step_completed<\/code><\/td><td><span[^>]*>delivered<\/span><\/td><td>3<\/td><td>200/,
    )
    expect(events).toMatch(
      /<code>execution_completed<\/code><\/td><td><span class="badge badge-failed">failed<\/span><\/td><td>8<\/td><td>503 · receiver answered 503 \(echoed •••\)/,
    )
  })

  test('a failed run shows its error with the step, and opens at that step', async () => {
    const html = decode(await (await admin.get(`/_/runs/${failedSeq}`)).text())
    expect(html).toContain('<strong>ELEMENT_NOT_FOUND</strong>: No element matches button "Save"')
    expect(html).toContain(`At step <a href="/_/runs/${failedSeq}?step=2" data-step="2">2: Click “Save”</a>`)
    expect(html).toMatch(/data-step="2" aria-current="step"/)
    expect(html).toMatch(/<section class="step-detail" data-step-panel="2" aria-labelledby="step-2">/)
    expect(html).toMatch(/data-step-panel="1" hidden/)
    expect(html).toContain('No screenshot of this step')
    expect(html).toContain('No status events: the call gave no callback_url.')
    // ?step= picks the step shown first (without script too); a step that does not exist is ignored.
    expect(await (await admin.get(`/_/runs/${failedSeq}?step=3`)).text()).toMatch(
      /data-step="3" aria-current="step"/,
    )
    expect(await (await admin.get(`/_/runs/${failedSeq}?step=99`)).text()).toMatch(
      /data-step="2" aria-current="step"/,
    )
  })

  test('an unknown run is a 404 page, not a 500', async () => {
    for (const path of ['/_/runs/99999', '/_/runs/abc', '/_/runs/0']) {
      const res = await admin.get(path)
      expect(res.status).toBe(404)
      expect(await res.text()).toContain('There is no run #')
    }
  })

  test('the screenshot route serves the JPEG behind the session and 404s for a missing one', async () => {
    const res = await admin.get(`/_/runs/${replaySeq}/steps/7/screenshot`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400')
    const body = new Uint8Array(await res.arrayBuffer())
    const runId = s.ctx.db.$client.query('SELECT id FROM executions WHERE seq = ?').get(replaySeq) as {
      id: string
    }
    const onDisk = new Uint8Array(
      await Bun.file(join(s.dataDir, 'screenshots', runId.id, '7.jpg')).arrayBuffer(),
    )
    expect(body).toEqual(onDisk)
    expect([body[0], body[1], body[2]]).toEqual([0xff, 0xd8, 0xff])

    const missing: [string, string][] = [
      [`/_/runs/${failedSeq}/steps/1/screenshot`, 'is not on disk'], // row names a file that is gone
      [`/_/runs/${failedSeq}/steps/3/screenshot`, 'has no screenshot for step 3'],
      [`/_/runs/${replaySeq}/steps/21/screenshot`, 'has no screenshot for step 21'],
      [`/_/runs/${replaySeq}/steps/abc/screenshot`, 'has no screenshot for step abc'],
      ['/_/runs/99999/steps/1/screenshot', 'There is no run #99999'],
    ]
    for (const [path, message] of missing) {
      const r = await admin.get(path)
      expect(r.status).toBe(404)
      expect(decode(await r.text())).toContain(message)
    }
    const anonymous = await fetch(`${s.url}/_/runs/${replaySeq}/steps/7/screenshot`, { redirect: 'manual' })
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get('location')).toStartWith('/_/sign-in?next=')
  })
})

interface OutlineCheck {
  expected: { left: number; top: number; width: number; height: number }
  actual: { left: number; top: number; width: number; height: number }
  natural: number
  shown: number
}

/** Where the selected step's outline is against where its element is in the shown picture. */
function outlineOf(page: Page, n: number): Promise<OutlineCheck> {
  return page.evaluate((step) => {
    const panel = document.querySelector<HTMLElement>(`[data-step-panel="${step}"]`)!
    const img = panel.querySelector('img')!
    const outline = panel.querySelector<HTMLElement>('.outline')!
    const box = img.getBoundingClientRect()
    const sx = img.clientWidth / img.naturalWidth
    const sy = img.clientHeight / img.naturalHeight
    const o = outline.getBoundingClientRect()
    const d = outline.dataset
    return {
      expected: {
        left: box.left + img.clientLeft + Number(d.x) * sx,
        top: box.top + img.clientTop + Number(d.y) * sy,
        width: Number(d.width) * sx,
        height: Number(d.height) * sy,
      },
      actual: { left: o.left, top: o.top, width: o.width, height: o.height },
      natural: img.naturalWidth,
      shown: img.clientWidth,
    }
  }, n)
}

/** The outline surrounds the element: its border (3 px) lies just outside the element's box. */
function expectOutlineOnElement(c: OutlineCheck): void {
  const border = 3
  expect(Math.abs(c.actual.left - (c.expected.left - border))).toBeLessThan(1.5)
  expect(Math.abs(c.actual.top - (c.expected.top - border))).toBeLessThan(1.5)
  expect(Math.abs(c.actual.width - (c.expected.width + 2 * border))).toBeLessThan(1.5)
  expect(Math.abs(c.actual.height - (c.expected.height + 2 * border))).toBeLessThan(1.5)
}

async function waitForShot(page: Page, n: number): Promise<void> {
  await page.waitForFunction((step) => {
    const panel = document.querySelector<HTMLElement>(`[data-step-panel="${step}"]`)
    const img = panel?.querySelector('img')
    const outline = panel?.querySelector<HTMLElement>('.outline')
    return !!panel && !panel.hidden && !!img?.complete && img.naturalWidth > 0 && !!outline && !outline.hidden
  }, n)
}

const selectedStep = (page: Page) =>
  page.evaluate(() => document.querySelector('.timeline a[aria-current="step"]')?.getAttribute('data-step'))

describe('replay in Chromium', () => {
  test('← and → move through the steps; the screenshot loads with the outline over the element, at any size', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const cspErrors: string[] = []
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspErrors.push(m.text())
    })
    try {
      await page.goto(`${s.url}/_/sign-in`)
      await page.getByLabel('Email').fill('admin@example.com')
      await page.getByLabel('Password').fill('correct-horse-battery')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Jobs' }).waitFor()

      await page.goto(`${s.url}/_/runs/${replaySeq}`)
      await waitForShot(page, 1)
      expect(await selectedStep(page)).toBe('1')
      const first = await outlineOf(page, 1)
      expect(first.natural).toBe(1280)
      expect(first.shown).toBeLessThan(1280) // shown scaled down beside the timeline
      expectOutlineOnElement(first)

      await page.keyboard.press('ArrowRight')
      await waitForShot(page, 2)
      expect(await selectedStep(page)).toBe('2')
      expect(await page.locator('[data-step-panel="1"]').isHidden()).toBe(true)
      expectOutlineOnElement(await outlineOf(page, 2))
      expect(new URL(page.url()).search).toBe('?step=2')

      await page.keyboard.press('ArrowRight')
      await waitForShot(page, 3)
      await page.keyboard.press('ArrowLeft')
      await waitForShot(page, 2)
      expect(await selectedStep(page)).toBe('2')
      await page.keyboard.press('ArrowLeft')
      await waitForShot(page, 1)
      // Before the first step, ← stays there.
      await page.keyboard.press('ArrowLeft')
      expect(await selectedStep(page)).toBe('1')

      // Clicking a step in the timeline selects it in place (no page load).
      await page.evaluate(() => {
        ;(window as unknown as { stayed: boolean }).stayed = true
      })
      await page.locator('.timeline a[data-step="12"]').click()
      await waitForShot(page, 12)
      expect(await selectedStep(page)).toBe('12')
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)
      expectOutlineOnElement(await outlineOf(page, 12))
      // The page's text names the selected step.
      expect(await page.locator('[data-step-panel="12"] h3').textContent()).toBe('Step 12: Click “Step 12”')

      // The outline follows the picture when the window is resized.
      const wide = (await outlineOf(page, 12)).actual.width
      await page.setViewportSize({ width: 900, height: 800 })
      await page.waitForFunction(
        ([step, before]) =>
          document.querySelector<HTMLElement>(`[data-step-panel="${step}"] .outline`)!.getBoundingClientRect()
            .width <
          before - 1,
        [12, wide] as const,
      )
      expectOutlineOnElement(await outlineOf(page, 12))

      expect(await seriousViolations(page)).toEqual([])
      expect(cspErrors).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  test('on a phone, a step opened by its link shows the outline scaled to the narrow picture', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
    await context.addCookies([{ name: 'dh_session', value: admin.cookie.split('=')[1]!, url: s.url }])
    const page = await context.newPage()
    try {
      await page.goto(`${s.url}/_/runs/${replaySeq}?step=7`)
      await waitForShot(page, 7)
      expect(await selectedStep(page)).toBe('7')
      const c = await outlineOf(page, 7)
      expect(c.shown).toBeLessThan(390)
      expectOutlineOnElement(c)
      // The page itself does not scroll sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await page.goto(`${s.url}/_/runs`)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      expect(await seriousViolations(page)).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  test('an unauthenticated visit to a replayUrl goes to sign-in and then back to the run', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    try {
      await page.goto(`${s.url}/_/runs/${failedSeq}?step=1`)
      expect(new URL(page.url()).pathname).toBe('/_/sign-in')
      await page.getByLabel('Email').fill('admin@example.com')
      await page.getByLabel('Password').fill('correct-horse-battery')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: `Run #${failedSeq}` }).waitFor()
      const url = new URL(page.url())
      expect(url.pathname + url.search).toBe(`/_/runs/${failedSeq}?step=1`)
      expect(await selectedStep(page)).toBe('1')
    } finally {
      await context.close()
    }
  }, 60_000)

  test('measures how long the run page takes to show a 20-step replay', async () => {
    const loads: { ready: number; html: number; dcl: number; shot: number; kb: number; shotKb: number }[] = []
    for (let i = 0; i < 5; i++) {
      // A fresh context each time: a first visit, nothing cached.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      await context.addCookies([{ name: 'dh_session', value: admin.cookie.split('=')[1]!, url: s.url }])
      const page = await context.newPage()
      try {
        await page.goto(`${s.url}/_/runs/${replaySeq}`)
        await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, REPLAY_READY_MARK)
        loads.push(
          await page.evaluate((mark) => {
            const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
            const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
            const shot = resources.find((r) => r.name.endsWith('/steps/1/screenshot'))
            return {
              ready: performance.getEntriesByName(mark)[0]!.startTime,
              html: nav.responseEnd,
              dcl: nav.domContentLoadedEventEnd,
              shot: shot?.responseEnd ?? Number.NaN,
              kb:
                (nav.transferSize +
                  resources
                    .filter((r) => r.responseEnd <= performance.getEntriesByName(mark)[0]!.startTime)
                    .reduce((sum, r) => sum + r.transferSize, 0)) /
                1024,
              shotKb: (shot?.transferSize ?? 0) / 1024,
            }
          }, REPLAY_READY_MARK),
        )
        // Only the shown step's screenshot (and its neighbour's, preloaded) is fetched, not all 20.
        const shots = await page.evaluate(
          () => performance.getEntriesByType('resource').filter((r) => r.name.includes('/screenshot')).length,
        )
        expect(shots).toBeLessThanOrEqual(2)
      } finally {
        await context.close()
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    const f = (x: number) => x.toFixed(1)
    console.log(
      `[measure] run page, 20-step replay, Chromium 1280×800, cold cache, ${loads.length} loads: ` +
        `navigation start → step screenshot shown with its outline: median ${f(median(loads.map((l) => l.ready)))} ms ` +
        `(all: ${loads.map((l) => f(l.ready)).join(', ')}); HTML received ${f(median(loads.map((l) => l.html)))} ms, ` +
        `DOMContentLoaded ${f(median(loads.map((l) => l.dcl)))} ms, screenshot received ${f(median(loads.map((l) => l.shot)))} ms; ` +
        `${f(median(loads.map((l) => l.kb)))} KB transferred by then (HTML, CSS, script, icon, the screenshot ${f(median(loads.map((l) => l.shotKb)))} KB)`,
    )
    // Shown only once its picture had arrived.
    expect(loads.every((l) => l.ready > 0 && l.ready >= l.shot)).toBe(true)
  }, 60_000)
})

describe('a real run, end to end', () => {
  const APP = `<!doctype html><html><head><title>Sign-up app</title><style>
    body { margin: 0; font: 16px sans-serif; }
    form { padding: 20px; }
    .spacer { height: 2400px; }
  </style></head><body><form>
    <label>Name <input id="name" autocomplete="off"></label>
    <label>Password <input id="password" type="password" autocomplete="off"></label>
    <div class="spacer"></div>
    <button type="button" id="save">Save</button>
    <p id="done"></p>
  </form><script>
    document.getElementById('save').addEventListener('click', () => {
      document.getElementById('done').textContent = 'Saved ' + document.getElementById('name').value
    })
  </script></body></html>`
  let server: TestServer
  let app: ReturnType<typeof Bun.serve>
  let agent: AgentProcess

  beforeAll(async () => {
    app = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(APP, { headers: { 'content-type': 'text/html' } }),
    })
    server = await startTestServer({ heartbeatIntervalMs: 1000, agentGraceMs: 1000 })
    agent = startAgent({ server: server.url, token: createEnrollmentToken(server.ctx).token, name: 'pc-1' })
    await agent.waitForLog((l) => l.msg === 'online')
  }, 60_000)

  afterAll(async () => {
    await agent?.cleanup()
    await server?.close()
    app?.stop(true)
  })

  test("a live call's run page shows every step's screenshot with the acted-on element outlined", async () => {
    const now = new Date().toISOString()
    server.ctx.db
      .insert(jobs)
      .values({
        id: 'job_signup',
        method: 'POST',
        path: '/signup',
        prompt: 'Sign up',
        createdAt: now,
        updatedAt: now,
      })
      .run()
    const id = (value: string) => ({ fingerprints: [{ by: 'automationId' as const, ids: [value] }] })
    addJobVersion(server.ctx, 'job_signup', {
      version: 1,
      app: { url: `http://127.0.0.1:${app.port}/` },
      steps: [
        { kind: 'launch', name: 'Open the app' },
        { kind: 'fill', name: 'Type {name} into “Name”', target: id('name'), value: '{{name}}' },
        {
          kind: 'fill',
          name: 'Type {password} into “Password”',
          target: id('password'),
          value: '{{password}}',
        },
        { kind: 'click', name: 'Click “Save”', target: id('save') },
        { kind: 'read', name: 'Read the message', target: id('done'), into: 'message', extract: 'Saved .+' },
      ],
      scenarios: [],
    })
    promoteJob(server.ctx, 'POST', '/signup')
    const call = await server.call('/signup', {
      method: 'POST',
      json: { name: 'Ada', password: 'Xy7-real-secret' },
    })
    expect(call.status).toBe(200)
    expect(await call.json()).toMatchObject({ message: 'Saved Ada' })

    const client = await signIn(server)
    const seq = (
      server.ctx.db.$client.query('SELECT max(seq) AS seq FROM executions').get() as { seq: number }
    ).seq
    const html = decode(await (await client.get(`/_/runs/${seq}`)).text())
    expect(html).not.toContain('Xy7-real-secret')
    const outlines = [...html.matchAll(/data-step-panel="(\d+)"[\s\S]*?(?=data-step-panel=|$)/g)].map(
      (m) => ({
        n: Number(m[1]),
        target: /data-x="([\d.]+)" data-y="([\d.]+)" data-width="([\d.]+)" data-height="([\d.]+)"/
          .exec(m[0])
          ?.slice(1)
          .map(Number),
      }),
    )
    expect(outlines.map((o) => o.n)).toEqual([1, 2, 3, 4, 5])
    expect(outlines[0]!.target).toBeUndefined() // the launch acts on no element
    for (const o of outlines.slice(1)) expect(o.target).toHaveLength(4)
    for (let n = 1; n <= 5; n++) {
      expect(html).toContain(`src="/_/runs/${seq}/steps/${n}/screenshot"`)
      const shot = await client.get(`/_/runs/${seq}/steps/${n}/screenshot`)
      expect(shot.status).toBe(200)
      expect(shot.headers.get('content-type')).toBe('image/jpeg')
    }
    // Save was 2400 px down: clicking scrolled it into view, and the outline is where it is in the
    // screenshot after the click, not below it.
    const [, y, , height] = outlines[3]!.target!
    const shot = jpegSize(
      new Uint8Array(await (await client.get(`/_/runs/${seq}/steps/4/screenshot`)).arrayBuffer()),
    )
    expect(y!).toBeGreaterThanOrEqual(0)
    expect(y! + height!).toBeLessThanOrEqual(shot.height)
    expect(shot.height).toBeLessThan(2400)
  }, 60_000)
})

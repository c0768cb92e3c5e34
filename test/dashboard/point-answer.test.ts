// Point to answer on the build page (docs/builder.md, "Ask and point"): a question about the
// screen shows a picture of the build's window, and a click on it answers with the spot in the
// picture's pixels. The desktop is a fake agent that answers the screen's two calls (a snapshot
// and a screenshot) with a known picture, so the test knows where each pixel is.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import jpeg from 'jpeg-js'
import { askQuestion, getBuild } from '../../src/modules/builds/service.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import type { Snapshot } from '../../src/protocol/elements.ts'
import { NONE_OF_THESE, type Question } from '../../src/protocol/questions.ts'
import {
  type DashboardClient,
  launchBrowser,
  seriousViolations,
  signIn,
  signInPage,
} from '../helpers/dashboard.ts'
import { FakeAgent } from '../helpers/fake-agent.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/** The window's picture: wider than a phone, so the page shows it scaled down. */
const WIDTH = 800
const HEIGHT = 500
/** Where the value the job should return is drawn (a dark box on white). */
const VALUE = { x: 600, y: 120, width: 120, height: 40 }

function windowPicture(): string {
  const data = Buffer.alloc(WIDTH * HEIGHT * 4, 0xff)
  for (let y = VALUE.y; y < VALUE.y + VALUE.height; y++)
    for (let x = VALUE.x; x < VALUE.x + VALUE.width; x++)
      data.fill(0x20, (y * WIDTH + x) * 4, (y * WIDTH + x) * 4 + 3)
  return Buffer.from(jpeg.encode({ width: WIDTH, height: HEIGHT, data }, 80).data).toString('base64')
}

const snapshot = (windowId: string): Snapshot => ({
  window: { id: windowId, title: 'Fleet desk', app: 'http://fleet.test', kind: 'tab' },
  root: {
    ref: 'e1',
    role: 'window',
    name: 'Fleet desk',
    states: [],
    bounds: { x: 0, y: 0, width: WIDTH, height: HEIGHT },
    children: [{ ref: 'e2', role: 'text', name: 'FD-41201', states: [], bounds: VALUE, children: [] }],
  },
  capturedAt: new Date().toISOString(),
})

let server: TestServer
let admin: DashboardClient
let member: DashboardClient
const MEMBER = { email: 'member@example.com', password: 'member-password-1', role: 'member' as const }

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
  member = await signIn(server, MEMBER)
}, 60_000)
afterAll(() => server.close())

/**
 * A desktop that shows one window: it answers `snapshot` and `screenshot` and nothing else. It
 * comes online only after its build asks (a queued build named for it would start building).
 */
async function fakeDesktop(name: string) {
  const agent = new FakeAgent(server.url)
  await agent.opened
  agent.hello({ kind: 'enroll', token: createEnrollmentToken(server.ctx).token }, { name })
  const welcome = await agent.next('welcome')
  const heartbeat = setInterval(() => agent.send({ type: 'heartbeat' }), welcome.heartbeatIntervalMs)
  const calls: string[] = []
  const picture = windowPicture()
  agent.onMessage = (m) => {
    if (m.type !== 'rpc') return
    calls.push(m.method)
    const windowId = String(m.params[0])
    const result =
      m.method === 'snapshot' ? snapshot(windowId) : m.method === 'screenshot' ? picture : undefined
    agent.send(
      result === undefined
        ? { type: 'rpc.result', id: m.id, ok: false, error: { code: 'UNSUPPORTED', message: m.method } }
        : { type: 'rpc.result', id: m.id, ok: true, result },
    )
  }
  return {
    calls,
    close() {
      clearInterval(heartbeat)
      agent.close()
    },
  }
}

const options = [
  { value: 'Pickup', label: '“Pickup” (in “Pickup Lisbon airport”)' },
  { value: NONE_OF_THESE, label: 'None of these (point at it instead)' },
]

/** A build on `desktop` asking which value to return, about its window when `pointable`. */
async function buildAsking(desktop: string, q: Partial<Question> = {}) {
  const path = `/bookings-${crypto.randomUUID().slice(0, 8)}`
  const res = await server.call(path, {
    method: 'POST',
    json: teachBody({ prompt: 'Book a car', desktop }, { pickup: 'Lisbon airport' }),
  })
  expect(res.status).toBe(202)
  const { buildId } = (await res.json()) as { buildId: string }
  const question = askQuestion(server.ctx, buildId, {
    kind: 'choose_outputs',
    text: 'Which value should the job return as “confirmation”?',
    options,
    multiple: false,
    pointable: true,
    windowId: 'w-7',
    ...q,
  }).question!
  return { buildId, question }
}

const html = async (res: Response) => (await res.text()).replace(/\s+/g, ' ')

describe('pointing on the build page', () => {
  test('a member clicks the value on the picture; the build records the spot in the picture’s pixels', async () => {
    const { buildId, question } = await buildAsking('point-desk-1')
    const desk = await fakeDesktop('point-desk-1')
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
      const problems: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text())
      })
      page.on('pageerror', (e) => problems.push(e.message))
      await signInPage(page, server, MEMBER)
      await page.goto(`${server.url}/_/builds/${buildId}`)

      // The options stay for the keyboard; the picture is one more way to answer.
      await page.getByRole('radio', { name: 'None of these (point at it instead)' }).waitFor()
      await page.getByText('Or click the value on the picture.').waitFor()
      const img = page.getByRole('img', { name: 'The window the builder asks about, as it looks now' })
      await img.waitFor({ state: 'visible' })
      expect(desk.calls.sort()).toEqual(['screenshot', 'snapshot'])
      expect(await seriousViolations(page)).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

      const shown = await img.evaluate((el: HTMLImageElement) => {
        const box = el.getBoundingClientRect()
        return { left: box.left, top: box.top, w: box.width, h: box.height, nw: el.naturalWidth }
      })
      expect(shown.nw).toBe(WIDTH)
      // On a phone the picture is shown smaller than it is: the click is scaled back.
      expect(shown.w).toBeLessThan(WIDTH / 2)
      const target = { x: VALUE.x + 60, y: VALUE.y + 20 }
      await img.scrollIntoViewIfNeeded()
      const box = (await img.boundingBox())!
      await page.mouse.click(box.x + (target.x * box.width) / WIDTH, box.y + (target.y * box.height) / HEIGHT)

      await page.getByText('Your answer was recorded').waitFor()
      expect(page.url()).toBe(`${server.url}/_/builds/${buildId}?answered=1`)
      const row = getBuild(server.ctx, buildId)
      expect(row.question).toBeNull()
      expect(row.answers).toHaveLength(1)
      expect(row.answers[0]!.questionId).toBe(question.id)
      const spot = /^point:(\d+),(\d+)$/.exec(String(row.answers[0]!.answer))
      expect(spot).not.toBeNull()
      // Within one shown pixel of the spot clicked (a shown pixel covers WIDTH / shown.w of them).
      const slack = Math.ceil(WIDTH / shown.w)
      expect(Math.abs(Number(spot![1]) - target.x)).toBeLessThanOrEqual(slack)
      expect(Math.abs(Number(spot![2]) - target.y)).toBeLessThanOrEqual(slack)
      await page.getByText(`pointed at ${spot![1]}, ${spot![2]} on the window`).waitFor()
      expect(problems).toEqual([])
    } finally {
      await browser.close()
      desk.close()
    }
  }, 60_000)

  test('the picture is a dashboard route behind the session; a point is a form post with the CSRF token', async () => {
    const { buildId, question } = await buildAsking('point-desk-2')
    const desk = await fakeDesktop('point-desk-2')
    try {
      const page = await html(await admin.get(`/_/builds/${buildId}`))
      const src = /<img src="([^"]*screen\.jpg[^"]*)"/.exec(page)?.[1]?.replaceAll('&amp;', '&')
      expect(src).toBe(`/_/builds/${buildId}/screen.jpg?q=${question.id}`)

      const picture = await admin.get(src!)
      expect(picture.status).toBe(200)
      expect(picture.headers.get('content-type')).toBe('image/jpeg')
      expect(picture.headers.get('cache-control')).toBe('no-store')
      const bytes = new Uint8Array(await picture.arrayBuffer())
      expect(jpeg.decode(bytes).width).toBe(WIDTH)
      // An API key opens no dashboard route; without a session it is sign-in.
      const withKey = await server.call(src!, { redirect: 'manual' })
      expect(withKey.status).toBe(303)
      expect(withKey.headers.get('location')).toStartWith('/_/sign-in')

      const forged = await admin.post(`/_/builds/${buildId}/answers`, {
        _csrf: '',
        questionId: question.id,
        pointX: '650',
        pointY: '140',
      })
      expect(forged.status).toBe(403)
      const bad = await admin.post(`/_/builds/${buildId}/answers`, {
        questionId: question.id,
        pointX: 'left',
        pointY: '140',
      })
      expect(bad.status).toBe(400)
      expect(await html(bad)).toContain('Click on the picture of the window')
      expect(getBuild(server.ctx, buildId).answers).toEqual([])

      const sent = await admin.post(`/_/builds/${buildId}/answers`, {
        questionId: question.id,
        pointX: '650',
        pointY: '140.4',
      })
      expect(sent.status).toBe(303)
      expect(sent.headers.get('location')).toBe(`/_/builds/${buildId}?answered=1`)
      expect(getBuild(server.ctx, buildId).answers).toMatchObject([
        { questionId: question.id, answer: 'point:650,140' },
      ])
      // Answered: there is no screen to point at any more.
      expect((await admin.get(src!)).status).toBe(409)
    } finally {
      desk.close()
    }
  }, 30_000)

  test('a question that asks only to point says so; its one option says it is not there', async () => {
    const { buildId, question } = await buildAsking('point-desk-3', {
      kind: 'point',
      text: 'Point at the value the job should return as “confirmation”',
      options: [{ value: NONE_OF_THESE, label: 'It is not on this screen' }],
    })
    const page = await html(await member.get(`/_/builds/${buildId}`))
    expect(page).toContain('<legend>Point at the value the job should return as “confirmation”</legend>')
    expect(page).toContain('It is not on this screen')
    expect(page).toContain('Click it on the picture of the window.')
    expect(page).toContain(`src="/_/builds/${buildId}/screen.jpg?q=${question.id}"`)
    const res = await member.post(`/_/builds/${buildId}/answers`, {
      questionId: question.id,
      pointX: '3',
      pointY: '4',
    })
    expect(res.status).toBe(303)
    expect(getBuild(server.ctx, buildId).answers).toMatchObject([{ answer: 'point:3,4' }])
  })

  test('a question not about the screen shows no picture and takes no point', async () => {
    const { buildId, question } = await buildAsking('point-desk-nowhere', {
      kind: 'map_field',
      text: 'Where should “pickup” go?',
      options: [
        { value: 'from', label: 'From' },
        { value: 'to', label: 'To' },
      ],
      pointable: undefined,
      windowId: undefined,
    })
    const page = await html(await member.get(`/_/builds/${buildId}`))
    expect(page).toContain('<legend>Where should “pickup” go?</legend>')
    expect(page).not.toContain('data-point-form')
    expect(page).not.toContain('screen.jpg')
    expect(page).not.toContain('on the picture')
    const res = await member.post(`/_/builds/${buildId}/answers`, {
      questionId: question.id,
      pointX: '10',
      pointY: '10',
    })
    expect(res.status).toBe(400)
    expect(await html(res)).toContain('This question is not about something on the screen')
    expect(getBuild(server.ctx, buildId).answers).toEqual([])
    // Nor is there a picture to take.
    expect((await member.get(`/_/builds/${buildId}/screen.jpg`)).status).toBe(409)
  })

  test('a picture the desktop cannot give says why in place of the picture', async () => {
    // The build's desktop is not connected: the options still answer the question.
    const { buildId } = await buildAsking('point-desk-offline')
    const res = await admin.get(`/_/builds/${buildId}/screen.jpg`, { accept: 'application/json' })
    expect(res.status).toBe(503)
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await signInPage(page, server)
      await page.goto(`${server.url}/_/builds/${buildId}`)
      await page.getByText('No picture of the window: The desktop of build').waitFor()
      expect(await page.getByRole('img', { name: /The window the builder asks about/ }).isVisible()).toBe(
        false,
      )
      await page.getByRole('radio', { name: '“Pickup” (in “Pickup Lisbon airport”)' }).check()
      await page.getByRole('button', { name: 'Answer' }).click()
      await page.getByText('Your answer was recorded').waitFor()
      expect(getBuild(server.ctx, buildId).answers[0]!.answer).toBe('Pickup')
    } finally {
      await browser.close()
    }
  }, 60_000)
})

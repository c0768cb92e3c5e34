// Pictures the agent sends outside a run (a demonstration's screenshots, the live preview's
// frames) with the password fields blacked out, on real Chromium at device scale factors 1 and 2:
// the browser driver finds the fields with one query of the page, where a snapshot finds them,
// plus those in open shadow roots and same-origin frames, without making any ref stale.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { redactedScreenshot } from '../../src/agent/redacted-screenshot.ts'
import { secretFieldBoxes } from '../../src/automation/secret-fields.ts'
import type { Bounds, UiElement } from '../../src/protocol/elements.ts'
import { eventually } from '../helpers/cli.ts'
import { countPixels, isBlue, isGreen, isMagenta, isRed } from '../helpers/jpeg-pixels.ts'

const PAGE = join(import.meta.dir, 'pages', 'password.html')

let server: ReturnType<typeof Bun.serve>
beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async () =>
      new Response(await Bun.file(PAGE).text(), { headers: { 'content-type': 'text/html' } }),
  })
})
afterAll(() => server?.stop(true))

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const near = (a: Bounds, b: Bounds) =>
  Math.abs(a.x - b.x) <= 1 &&
  Math.abs(a.y - b.y) <= 1 &&
  Math.abs(a.width - b.width) <= 1 &&
  Math.abs(a.height - b.height) <= 1

describe.each([1, 2])('password fields at device scale factor %d', (scale) => {
  let driver: BrowserDriver
  let windowId: string
  beforeAll(async () => {
    driver = new BrowserDriver({ extraArgs: [`--force-device-scale-factor=${scale}`] })
    await driver.start()
    windowId = (await driver.launch({ url: `http://127.0.0.1:${server.port}/` })).id
  })
  afterAll(() => driver?.stop())

  test('one query finds them where a snapshot does, and leaves the snapshot’s refs usable', async () => {
    const snapshot = await driver.snapshot(windowId)
    const fromSnapshot = secretFieldBoxes(snapshot.root)
    const found = await driver.secretFieldBounds(windowId)
    // The page's own field (CSS 40,120 240×40), in the picture's pixels.
    expect(found).toContainEqual({ x: 40 * scale, y: 120 * scale, width: 240 * scale, height: 40 * scale })
    expect(fromSnapshot.length).toBeGreaterThan(0)
    for (const box of fromSnapshot) expect(found.some((f) => near(f, box))).toBe(true)
    // The component's (open shadow root), and the frame's: inside its 3 px border and 5 px padding.
    expect(found).toContainEqual({ x: 40 * scale, y: 200 * scale, width: 240 * scale, height: 40 * scale })
    expect(found).toContainEqual({ x: 68 * scale, y: 288 * scale, width: 160 * scale, height: 30 * scale })
    expect(found).toHaveLength(3)
    // It was no snapshot: the refs of the one before still act.
    const user = flat(snapshot.root).find((e) => e.automationId === 'user')!
    await driver.act(windowId, { kind: 'fill', ref: user.ref, value: 'grace' })
  }, 60_000)

  test('a redacted screenshot shows none of them, and the rest of the page as it is', async () => {
    const plain = await driver.screenshot(windowId)
    // What there is to hide: each field's fill shows in a plain screenshot.
    for (const colour of [isRed, isBlue, isMagenta]) expect(countPixels(plain, colour)).toBeGreaterThan(500)
    const redacted = await redactedScreenshot(driver, windowId)
    expect(countPixels(redacted, isRed)).toBe(0)
    expect(countPixels(redacted, isBlue)).toBe(0)
    expect(countPixels(redacted, isMagenta)).toBe(0)
    // The user name field stays as it was (most of its 240×40 fill; its text covers some).
    expect(countPixels(redacted, isGreen)).toBeGreaterThan(0.7 * countPixels(plain, isGreen))
  }, 60_000)

  test('fields scrolled out of view are left out: their frames need no painting', async () => {
    await driver.input(windowId, { kind: 'scroll', x: 600, y: 400, deltaY: 1500 })
    expect(await eventually(async () => (await driver.secretFieldBounds(windowId)).length === 0)).toBe(true)
  }, 60_000)
})

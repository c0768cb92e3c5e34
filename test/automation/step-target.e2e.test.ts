// The replay's outline: each step reports where its element is in the screenshot taken after it,
// in the screenshot's own pixels, with real Chromium at device scale factors 1 and 2, for an
// element in view and for one far down the page that clicking scrolls into view.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { runAutomation } from '../../src/automation/index.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { StepRecord } from '../../src/protocol/messages.ts'

const PAGE = `<!doctype html><html><head><title>Targets</title><style>
  body { margin: 0; font: 16px sans-serif; }
  #name { position: absolute; left: 40px; top: 60px; width: 200px; height: 30px; box-sizing: border-box; }
  #far { position: absolute; left: 300px; top: 2000px; width: 180px; height: 40px; }
  #report { position: fixed; left: 10px; top: 10px; margin: 0; }
</style></head><body>
  <label for="name">Name</label><input id="name">
  <div style="height: 3000px"></div>
  <button id="far">Far away</button>
  <p id="report"></p>
  <script>
    document.getElementById('far').addEventListener('click', () => {
      const r = document.getElementById('far').getBoundingClientRect()
      const d = devicePixelRatio
      document.getElementById('report').textContent =
        JSON.stringify([r.x * d, r.y * d, r.width * d, r.height * d].map(Math.round))
    })
  </script>
</body></html>`

let app: ReturnType<typeof Bun.serve>

beforeAll(() => {
  app = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response(PAGE, { headers: { 'content-type': 'text/html' } }),
  })
})
afterAll(() => app?.stop(true))

const id = (value: string) => ({ fingerprints: [{ by: 'automationId' as const, ids: [value] }] })

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

describe.each([1, 2])('step targets at device scale factor %d', (scale) => {
  let driver: BrowserDriver
  beforeAll(async () => {
    driver = new BrowserDriver({ extraArgs: [`--force-device-scale-factor=${scale}`] })
    await driver.start()
  })
  afterAll(() => driver?.stop())

  test('each step names its element in the pixels of its screenshot', async () => {
    const automation: Automation = {
      version: 1,
      app: { url: `http://127.0.0.1:${app.port}/` },
      steps: [
        { kind: 'launch', name: 'Open' },
        { kind: 'fill', name: 'Type the name', target: id('name'), value: 'Ada' },
        { kind: 'click', name: 'Click far away', target: id('far') },
        { kind: 'read', name: 'Read the report', target: id('report'), into: 'rect' },
      ],
      scenarios: [],
    }
    const run = await runAutomation(driver, automation, {})
    expect(run.status).toBe('succeeded')
    const [open, fill, click, read] = run.steps
    expect(open!.target).toBeUndefined() // a launch acts on no element

    const shot = jpegSize(fill!.screenshot!)
    expect(fill!.target).toEqual({ x: 40 * scale, y: 60 * scale, width: 200 * scale, height: 30 * scale })

    // The click scrolled the button into view: its box is where the page says it is now, inside
    // the screenshot taken after the step, not where it was before (y = 2000 CSS px).
    const [x, y, width, height] = JSON.parse(String(run.result.rect)) as number[]
    const t = click!.target!
    expect(Math.abs(t.x - x!)).toBeLessThanOrEqual(1)
    expect(Math.abs(t.y - y!)).toBeLessThanOrEqual(1)
    expect(Math.abs(t.width - width!)).toBeLessThanOrEqual(1)
    expect(Math.abs(t.height - height!)).toBeLessThanOrEqual(1)
    const after = jpegSize(click!.screenshot!)
    expect(t.y + t.height).toBeLessThanOrEqual(after.height)
    expect(t.y).toBeGreaterThanOrEqual(0)

    expect(read!.target!.x).toBe(10 * scale)
    expect(read!.target!.y).toBe(10 * scale)
    // Screenshots are in device pixels too (the window's CSS size times the scale).
    expect(shot.width % scale).toBe(0)
    expect(shot.width).toBeGreaterThan(40 * scale + 200 * scale)
  }, 60_000)
})

test('a step record validates with a target and without one (agents older than it)', () => {
  const step = {
    flowName: 'Click "Save"',
    executionOrder: 1,
    totalSteps: 1,
    status: 'SUCCESS',
    startedAt: new Date().toISOString(),
  }
  expect(Value.Check(StepRecord, step)).toBe(true)
  expect(Value.Check(StepRecord, { ...step, target: { x: 1, y: 2, width: 3, height: 4 } })).toBe(true)
  expect(Value.Check(StepRecord, { ...step, target: { x: 1, y: 2 } })).toBe(false)
})

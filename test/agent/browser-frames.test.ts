// Inner frames in real Chromium: a same-site iframe's content is part of the window's snapshot,
// where the <iframe> stands, with boxes in the window's pixels, and its controls can be clicked.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

const INNER = `<!doctype html><title>Message</title><h2>Invoice 2291</h2>
<dl><dt>From</dt><dd>Maria Keller</dd></dl>
<button onclick="this.textContent = 'Replied'">Reply</button>`
const OUTER = `<!doctype html><title>Mail</title><h1>Inbox</h1><div style="height:200px"></div>
<iframe src="/inner" title="Message" style="margin-left:100px;border:5px solid;width:400px;height:200px"></iframe>
<button>After</button>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const inner = new URL(request.url).pathname === '/inner'
      return new Response(inner ? INNER : OUTER, { headers: { 'content-type': 'text/html' } })
    },
  })
  driver = new BrowserDriver()
  await driver.start()
})
afterAll(async () => {
  await driver?.stop()
  await server?.stop(true)
})

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]

describe('inner frames', () => {
  test('the frame’s content stands where its iframe is, boxed in window pixels, and takes clicks', async () => {
    const window = await driver.launch({ url: `${server.url}` })
    let all: UiElement[] = []
    for (let i = 0; i < 20 && !all.some((e) => e.name === 'Reply'); i++) {
      await Bun.sleep(100)
      all = flat((await driver.snapshot(window.id)).root)
    }
    expect(all.map((e) => `${e.role} ${e.name}`)).toEqual(
      expect.arrayContaining(['heading Inbox', 'heading Invoice 2291', 'button Reply', 'button After']),
    )
    const names = all.map((e) => e.name)
    expect(names.indexOf('Invoice 2291')).toBeLessThan(names.indexOf('After'))
    const heading = all.find((e) => e.name === 'Invoice 2291')!
    // 8 px body margin + 100 px margin + 5 px border, then the frame's own 8 px body margin.
    expect(heading.bounds!.x).toBe(121)
    expect(heading.bounds!.y).toBeGreaterThan(200)
    await driver.act(window.id, { kind: 'click', ref: all.find((e) => e.name === 'Reply')!.ref })
    const after = flat((await driver.snapshot(window.id)).root)
    expect(after.some((e) => e.role === 'button' && e.name === 'Replied')).toBe(true)
  }, 30_000)
})

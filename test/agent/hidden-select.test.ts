// A native drop-down hidden behind a page's own styled one (as select pickers draw them), in real
// Chromium: it has no box to click, yet a select sets it, and the styled one follows its change
// event, as it does when a person picks from it. A hidden element of any other kind stays refused.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

const PAGE = `<!doctype html><title>New ticket</title>
<label for="queue">Queue</label>
<select id="queue" style="position:absolute;width:0;height:0;opacity:0;overflow:hidden">
  <option>General</option><option>IT Support</option><option>Facilities</option></select>
<button type="button" id="picker">General</button>
<label for="hidden-box">Hidden</label><input id="hidden-box" style="width:0;height:0;border:0;padding:0">
<script>
  document.getElementById('queue').addEventListener('change', (e) => {
    document.getElementById('picker').textContent = e.target.value
  })
</script>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => new Response(PAGE, { headers: { 'content-type': 'text/html' } }),
  })
  driver = new BrowserDriver()
  await driver.start()
})
afterAll(async () => {
  await driver?.stop()
  await server?.stop(true)
})

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]

describe('a native drop-down hidden behind a styled one', () => {
  test('takes its value without a click; the styled one shows it; a hidden text box is still refused', async () => {
    const window = await driver.launch({ url: `${server.url}` })
    let all: UiElement[] = []
    for (let i = 0; i < 30 && !all.some((e) => e.role === 'combobox'); i++) {
      await Bun.sleep(100)
      all = flat((await driver.snapshot(window.id)).root)
    }
    const queue = all.find((e) => e.role === 'combobox' && e.name === 'Queue')!
    const result = await driver.act(window.id, { kind: 'select', ref: queue.ref, values: ['IT Support'] })
    expect(result.value).toBe('IT Support')
    const after = flat((await driver.snapshot(window.id)).root)
    expect(after.some((e) => e.role === 'button' && e.name === 'IT Support')).toBe(true)
    const box = after.find((e) => e.role === 'textbox' && e.name === 'Hidden')!
    await expect(driver.act(window.id, { kind: 'fill', ref: box.ref, value: 'x' })).rejects.toThrow(
      /no visible box/,
    )
  }, 30_000)
})

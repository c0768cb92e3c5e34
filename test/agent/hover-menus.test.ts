// Controls a person reaches by hovering their menu, in real Chromium: a submenu parked outside the
// window until its item is hovered, and one folded to no height until then. The driver rests the
// pointer on the menu item they belong to, as a person does, and the click lands.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

const MENU = `<!doctype html><title>Admin</title><style>
  nav ul { list-style: none; margin: 0; padding: 0 } nav > ul > li { position: relative; width: 160px }
  .parked { position: absolute; left: -1000em; top: 0 } li:hover > .parked { left: 160px }
  .folded { height: 0; overflow: hidden } li:hover > .folded { height: auto }
</style><nav><ul>
  <li><a href="/posts">Posts</a><ul class="parked"><li><a href="/new-post">Add New Post</a></li></ul></li>
  <li><a href="/pages">Pages</a><ul class="folded"><li><a href="/new-page">Add New Page</a></li></ul></li>
</ul></nav><main><h1>Dashboard</h1></main>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname
      const body = path === '/' ? MENU : `<!doctype html><title>${path}</title><h1>Opened ${path}</h1>`
      return new Response(body, { headers: { 'content-type': 'text/html' } })
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

async function clickAndSee(name: string, heading: string): Promise<void> {
  const window = await driver.launch({ url: `${server.url}` })
  const link = flat((await driver.snapshot(window.id)).root).find((e) => e.role === 'link' && e.name === name)
  expect(link).toBeDefined()
  await driver.act(window.id, { kind: 'click', ref: link!.ref })
  const shows = async () =>
    flat((await driver.snapshot(window.id)).root).some((e) => e.role === 'heading' && e.name === heading)
  while (!(await shows())) expect(await driver.waitForChange(window.id, 10_000)).toBe('changed')
}

describe('controls shown on hover', () => {
  test('a submenu parked outside the window is reached through its menu item', async () => {
    await clickAndSee('Add New Post', 'Opened /new-post')
  }, 30_000)

  test('a submenu folded to no height is reached through its menu item', async () => {
    await clickAndSee('Add New Page', 'Opened /new-page')
  }, 30_000)
})

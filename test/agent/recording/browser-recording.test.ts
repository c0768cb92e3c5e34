// "Show me" in the browser driver, against real Chromium: the page is driven only the way the
// dashboard's live preview drives it (driver.input: clicks at points, typed text, named keys), and
// what driver.watchInput reported is checked against what a snapshot says about the same elements.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { InputEvent } from '../../../src/protocol/recording.ts'
import { eventually } from '../../helpers/cli.ts'

const PAGES = join(import.meta.dir, 'pages')
const PASSWORD = 'Qx7!vK%9zJ'

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let base: string

const html = (body: string) => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const { pathname, searchParams } = new URL(request.url)
      if (pathname === '/contact') return html(await Bun.file(join(PAGES, 'contact.html')).text())
      if (pathname === '/sign-in') {
        const page = await Bun.file(join(PAGES, 'sign-in.html')).text()
        // ?get: the form sends its fields in the URL (a bad app, but they exist).
        return html(searchParams.has('get') ? page.replace('method="post"', 'method="get"') : page)
      }
      if (pathname === '/results')
        return html(`<!doctype html><title>Results</title><h1>Results for ${searchParams.get('q')}</h1>`)
      if (pathname === '/welcome') {
        if (request.method === 'POST') await request.text()
        return html('<!doctype html><title>Welcome</title><h1>Welcome</h1>')
      }
      return new Response(null, { status: 404 })
    },
  })
  base = `http://127.0.0.1:${server.port}`
  driver = new BrowserDriver()
  await driver.start()
})

afterAll(async () => {
  await driver?.stop()
  await server?.stop(true)
})

function find(root: UiElement, role: string, name: string): UiElement {
  const stack = [root]
  while (stack.length) {
    const element = stack.pop()!
    if (element.role === role && element.name === name) return element
    stack.push(...element.children)
  }
  throw new Error(`no ${role} "${name}" in the snapshot`)
}

/** Opens the page and starts recording it; `element` finds what a snapshot shows now. */
async function recordPage(path: string) {
  const { id } = await driver.launch({ url: `${base}${path}` })
  const events: InputEvent[] = []
  const stop = await driver.watchInput(id, (event) => events.push(event))
  const element = async (role: string, name: string) => find((await driver.snapshot(id)).root, role, name)
  /** A left click at the centre of the element, as a person on the live preview would click. */
  const clickAt = (x: number, y: number) => driver.input(id, { kind: 'click', x, y })
  const click = async (role: string, name: string) => {
    const { bounds } = await element(role, name)
    if (!bounds) throw new Error(`${role} "${name}" has no bounds`)
    await clickAt(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2)
  }
  const type = (text: string) => driver.input(id, { kind: 'type', text })
  const key = (name: string) => driver.input(id, { kind: 'key', key: name })
  const reported = <T>(pick: (all: InputEvent[]) => T | undefined) => eventually(async () => pick(events))
  return { id, events, stop, element, clickAt, click, type, key, reported }
}

const kinds = (events: InputEvent[]) => events.map((event) => event.kind)

function expectTargetIs(event: InputEvent | undefined, element: UiElement) {
  expect(event?.target?.role).toBe(element.role)
  expect(event?.target?.name).toBe(element.name)
  expect(event?.target?.automationId).toBe(element.automationId)
  // The point is in the space of the snapshot's bounds (and of input clicks): inside the element.
  const { x, y } = event?.target?.point ?? { x: -1, y: -1 }
  const box = element.bounds!
  expect(x).toBeGreaterThanOrEqual(box.x)
  expect(x).toBeLessThanOrEqual(box.x + box.width)
  expect(y).toBeGreaterThanOrEqual(box.y)
  expect(y).toBeLessThanOrEqual(box.y + box.height)
}

describe('watchInput', () => {
  test('a click on a button or a link names it as the snapshot does; the link navigation follows it', async () => {
    const page = await recordPage('/contact')
    const save = await page.element('button', 'Save draft')
    await page.click('button', 'Save draft')
    expectTargetIs(await page.reported((all) => all.find((e) => e.kind === 'click')), save)
    const link = await page.element('link', 'Details')
    await page.click('link', 'Details')
    const navigation = await page.reported((all) => all.find((e) => e.kind === 'navigate'))
    expect(navigation.url).toBe(`${base}/contact#details`)
    await page.stop()
    expect(kinds(page.events)).toEqual(['click', 'click', 'navigate'])
    expectTargetIs(page.events[1], link)
  })

  test('an icon button and a clickable list row are named as in the snapshot', async () => {
    const page = await recordPage('/contact')
    // The button's name is its image's alt text; the row's role only the accessibility tree knows.
    const trash = await page.element('button', 'Delete')
    const row = await page.element('listitem', 'Lyon')
    await page.click('button', 'Delete')
    await page.click('listitem', 'Lyon')
    await page.reported((all) => all.filter((e) => e.kind === 'click')[1])
    await page.stop()
    expect(kinds(page.events)).toEqual(['click', 'click'])
    expectTargetIs(page.events[0], trash)
    expectTargetIs(page.events[1], row)
  })

  test('a link that leaves the page is named although its page is gone', async () => {
    const page = await recordPage('/contact')
    const link = await page.element('link', 'All results')
    await page.click('link', 'All results')
    await page.reported((all) => all.find((e) => e.kind === 'navigate'))
    await page.stop()
    expect(kinds(page.events)).toEqual(['click', 'navigate'])
    expectTargetIs(page.events[0], link)
    expect(page.events[1]?.url).toBe(`${base}/results?q=all`)
  })

  test('typing with a typo corrected by Backspace ends with the corrected value', async () => {
    const page = await recordPage('/contact')
    const field = await page.element('textbox', 'Full name')
    await page.click('textbox', 'Full name')
    await page.type('Ada Lovx')
    await page.key('Backspace')
    await page.type('elace')
    const last = await page.reported((all) =>
      all.findLast((e) => e.kind === 'input' && e.value === 'Ada Lovelace'),
    )
    await page.stop()
    expectTargetIs(last, field)
    expect(last.target).toMatchObject({ inputType: 'text', placeholder: 'First and last' })
    const values = page.events.filter((e) => e.kind === 'input').map((e) => e.value)
    expect(values).toEqual(['Ada Lovx', 'Ada Lov', 'Ada Lovelace'])
    // Backspace edits text: it shows as the value, never as a key of its own.
    expect(page.events.some((e) => e.kind === 'key')).toBe(false)
  })

  test('an option chosen in a drop-down is reported by its text, a checkbox by its state', async () => {
    const page = await recordPage('/contact')
    const country = await page.element('combobox', 'Country')
    await page.click('textbox', 'Full name')
    await page.key('Tab')
    await page.key('ArrowDown')
    const chosen = await page.reported((all) => all.find((e) => e.kind === 'select'))
    expect(chosen.value).toBe('France')
    expectTargetIs(chosen, country)

    const news = await page.element('checkbox', 'Subscribe to news')
    await page.click('checkbox', 'Subscribe to news')
    const checked = await page.reported((all) => all.find((e) => e.kind === 'check'))
    expect(checked.value).toBe('true')
    expectTargetIs(checked, news)
    // Its label unchecks it again: reported on the checkbox, once. (A snapshot leaves a check
    // box's label out, its text being the box's name: the label is just right of the box.)
    const box = news.bounds!
    await page.clickAt(box.x + box.width + 20, box.y + box.height / 2)
    await page.reported((all) => all.find((e) => e.kind === 'check' && e.value === 'false'))
    await page.stop()
    expect(page.events.filter((e) => e.kind === 'check').map((e) => e.target?.name)).toEqual([
      'Subscribe to news',
      'Subscribe to news',
    ])
    // The clicks that chose are not reported besides what they chose.
    expect(page.events.filter((e) => e.kind === 'click').map((e) => e.target?.name)).toEqual(['Full name'])
  })

  test('Enter in a search field is a key on that field, then the submitted form navigates', async () => {
    const page = await recordPage('/contact')
    const search = await page.element('textbox', 'Search')
    await page.click('textbox', 'Search')
    await page.type('invoices')
    await page.key('Enter')
    const navigation = await page.reported((all) => all.find((e) => e.kind === 'navigate'))
    expect(navigation.url).toBe(`${base}/results?q=invoices`)
    await page.stop()
    expect(kinds(page.events)).toEqual(['click', 'input', 'key', 'navigate'])
    const enter = page.events[2]
    expect(enter?.key).toBe('Enter')
    expectTargetIs(enter, search)
  })

  test('a password is reported as secret and its characters never cross', async () => {
    const page = await recordPage('/sign-in')
    await page.click('textbox', 'User name')
    await page.type('ada')
    await page.click('textbox', 'Password')
    await page.type(PASSWORD)
    await page.key('Enter')
    await page.reported((all) => all.find((e) => e.kind === 'navigate' && e.url === `${base}/welcome`))
    await page.stop()
    expect(kinds(page.events)).toEqual(['click', 'input', 'click', 'input', 'key', 'navigate'])
    const secret = page.events[3]!
    expect(secret).toMatchObject({
      kind: 'input',
      secret: true,
      target: { role: 'textbox', name: 'Password' },
    })
    expect(secret).not.toHaveProperty('value')
    expect(page.events[1]).toMatchObject({ kind: 'input', value: 'ada' })
    const json = JSON.stringify(page.events)
    for (let i = 0; i + 3 <= PASSWORD.length; i++) expect(json).not.toContain(PASSWORD.slice(i, i + 3))
  })

  test('a password a form sends in its URL is cut from the navigation', async () => {
    const page = await recordPage('/sign-in?get')
    await page.click('textbox', 'User name')
    await page.type('ada')
    await page.click('textbox', 'Password')
    await page.type(PASSWORD)
    await page.key('Enter')
    const navigation = await page.reported((all) => all.find((e) => e.kind === 'navigate'))
    await page.stop()
    expect(navigation.url).toBe(`${base}/welcome?user=ada`)
    expect(JSON.stringify(page.events)).not.toContain(encodeURIComponent(PASSWORD).slice(0, 3))
  })

  test('stop ends the reports; watching again replaces the earlier watcher', async () => {
    const page = await recordPage('/contact')
    const second: InputEvent[] = []
    const stopSecond = await driver.watchInput(page.id, (event) => second.push(event))
    await page.click('button', 'Save draft')
    await eventually(async () => second.find((e) => e.kind === 'click'))
    await stopSecond()
    await page.click('textbox', 'Full name')
    await page.type('after stop')
    await eventually(async () => (await page.element('textbox', 'Full name')).value === 'after stop')
    expect(page.events).toEqual([])
    expect(kinds(second)).toEqual(['click'])
    await page.stop() // already stopped by the second watcher: does nothing
  })
})

describe('input', () => {
  test('a key name outside the remote keys is refused, naming the keys there are', async () => {
    const { id } = await driver.launch({ url: `${base}/contact` })
    const error = await driver.input(id, { kind: 'key', key: 'Ctrl+Launch' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DriverError)
    expect((error as DriverError).code).toBe('UNSUPPORTED_ACTION')
    expect((error as DriverError).message).toContain('Enter, Tab, Escape')
  })
})

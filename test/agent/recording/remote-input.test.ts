// Remote input in the browser driver, against real Chromium, the way an API caller demonstrates:
// points taken from the window's screenshot and element boxes, typed text into the focused field
// (never elsewhere), a drop-down's option, a box ticked and cleared, chords with modifiers. The
// recorder sees each as a person's own action.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { InputEvent } from '../../../src/protocol/recording.ts'
import { eventually } from '../../helpers/cli.ts'

const PAGE = `<!doctype html><html><head><title>Order desk</title>
<style>.pretty input { position: absolute; opacity: 0; width: 0; height: 0 } .pretty span { display: inline-block; width: 18px; height: 18px; border: 1px solid #333 }</style>
</head><body>
<h1>New order</h1>
<p><label for="customer">Customer</label> <input id="customer"></p>
<p><label for="subject">Subject</label> <input id="subject"></p>
<p><label for="notes">Notes</label> <textarea id="notes"></textarea></p>
<p><label for="country">Country</label> <select id="country"><option value="">Choose…</option><option value="de">Germany</option><option value="fr">France</option><option disabled>Atlantis</option><option value="it">Italy</option></select></p>
<p><label><input type="checkbox" id="urgent"> Urgent</label></p>
<p class="pretty"><label for="gift"><input type="checkbox" id="gift"><span></span> Gift wrap</label></p>
<p><button type="button">Save</button></p>
<table id="grid"><tr><td><select aria-label="Type"><option>Phone</option><option>Fax</option><option>E-Mail</option></select></td></tr></table>
<script>
  // An editable grid takes the arrow keys for itself (to move between its rows).
  document.getElementById('grid').addEventListener('keydown', (e) => { if (e.key.startsWith('Arrow')) e.preventDefault() }, true)
</script>
</body></html>`

// A settings screen whose form sits in a frame of the same site (as webmail and admin apps draw
// their edit panes): its elements are of the frame's own HTMLInputElement, not the page's.
const FRAMED = `<!doctype html><title>Settings</title><h1>Folders</h1>
<iframe src="/frame" style="width:500px;height:300px"></iframe>`
const FRAME = `<!doctype html><title>Folder</title>
<p><label for="name">Folder name</label> <input id="name"></p>
<p><label for="parent">Parent folder</label> <select id="parent"><option>---</option><option>Suppliers</option><option>Projects</option></select></p>
<p><label><input type="checkbox" id="sub"> Subscribed</label></p>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let url: string

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => {
      const path = new URL(request.url).pathname
      const html = path === '/framed' ? FRAMED : path === '/frame' ? FRAME : PAGE
      return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
    },
  })
  url = `http://127.0.0.1:${server.port}/orders/new`
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
    const e = stack.pop()!
    if (e.role === role && e.name === name) return e
    stack.push(...e.children)
  }
  throw new Error(`no ${role} "${name}"`)
}

async function open(d = driver, at = url) {
  const { id } = await d.launch({ url: at })
  const events: InputEvent[] = []
  const stop = await d.watchInput(id, (e) => events.push(e))
  const centre = async (role: string, name: string) => {
    const b = find((await d.snapshot(id)).root, role, name).bounds!
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 }
  }
  const value = async (role: string, name: string) => {
    const e = find((await d.snapshot(id)).root, role, name)
    return e.role === 'checkbox' ? e.states.includes('checked') : (e.value ?? '')
  }
  const refused = async (input: Parameters<BrowserDriver['input']>[1]) => {
    const error = await d.input(id, input).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DriverError)
    return (error as DriverError).message
  }
  return {
    id,
    events,
    stop,
    centre,
    value,
    refused,
    input: (i: Parameters<BrowserDriver['input']>[1]) => d.input(id, i),
  }
}

describe('remote input', () => {
  test('typed text goes to the focused field, never the last one; with nothing focused it is refused', async () => {
    const page = await open()
    expect(await page.refused({ kind: 'type', text: 'lost' })).toContain('Nothing that takes text has focus')
    await page.input({ kind: 'click', ...(await page.centre('textbox', 'Customer')) })
    await page.input({ kind: 'type', text: 'ACME' })
    // With its own point: the spot is clicked, then typed into.
    await page.input({ kind: 'type', text: 'Broken printer', ...(await page.centre('textbox', 'Subject')) })
    expect(await page.value('textbox', 'Customer')).toBe('ACME')
    expect(await page.value('textbox', 'Subject')).toBe('Broken printer')
    expect(await page.value('textbox', 'Notes')).toBe('')
    // Chords: back to the previous field, select all of it, type over it.
    await page.input({ kind: 'key', key: 'Shift+Tab' })
    await page.input({ kind: 'key', key: 'Ctrl+A' })
    await page.input({ kind: 'type', text: 'Initech' })
    expect(await page.value('textbox', 'Customer')).toBe('Initech')
    expect(await page.value('textbox', 'Subject')).toBe('Broken printer')
    // A click on the heading leaves nothing focused that takes text.
    await page.input({ kind: 'click', ...(await page.centre('heading', 'New order')) })
    expect(await page.refused({ kind: 'type', text: 'x' })).toContain('click the field first')
    await eventually(async () => page.events.filter((e) => e.kind === 'input').length >= 3)
    await page.stop()
    const typed = page.events.filter((e) => e.kind === 'input')
    expect(typed.at(-1)).toMatchObject({ value: 'Initech', target: { role: 'textbox', name: 'Customer' } })
    expect(typed.find((e) => e.value === 'Broken printer')?.target?.name).toBe('Subject')
    expect(page.events.filter((e) => e.kind === 'key').map((e) => e.key)).toContain('Shift+Tab')
  }, 60_000)

  test('a form inside a frame takes typed text, a choice and a tick as the page itself does', async () => {
    const framed = `${new URL(url).origin}/framed`
    const page = await open(driver, framed)
    // The frame loads after the page: its form is there once the snapshot shows it.
    await eventually(async () => {
      const root = (await driver.snapshot(page.id)).root
      try {
        return !!find(root, 'checkbox', 'Subscribed').bounds
      } catch {
        return false
      }
    })
    await page.input({ kind: 'type', text: 'Quotes', ...(await page.centre('textbox', 'Folder name')) })
    await page.input({
      kind: 'select',
      ...(await page.centre('combobox', 'Parent folder')),
      option: 'Projects',
    })
    await page.input({ kind: 'check', ...(await page.centre('checkbox', 'Subscribed')), checked: true })
    expect(await page.value('textbox', 'Folder name')).toBe('Quotes')
    expect(await page.value('combobox', 'Parent folder')).toBe('Projects')
    expect(await page.value('checkbox', 'Subscribed')).toBe(true)
    await page.stop()
  }, 60_000)

  test('a drop-down’s option by its text, disabled ones passed over; the recorder sees the choice', async () => {
    const page = await open()
    const country = await page.centre('combobox', 'Country')
    await page.input({ kind: 'select', ...country, option: 'italy' })
    expect(await page.value('combobox', 'Country')).toBe('Italy')
    await page.input({ kind: 'select', ...country, option: 'Germany' })
    expect(await page.value('combobox', 'Country')).toBe('Germany')
    expect(await page.refused({ kind: 'select', ...country, option: 'Spain' })).toContain(
      'no option “Spain”; it has “Choose…”, “Germany”, “France”, “Italy”',
    )
    expect(
      await page.refused({ kind: 'select', ...(await page.centre('textbox', 'Customer')), option: 'Italy' }),
    ).toContain('No drop-down at')
    await eventually(async () => page.events.findLast((e) => e.kind === 'select')?.value === 'Germany')
    await page.stop()
    expect(page.events.findLast((e) => e.kind === 'select')?.target).toMatchObject({
      role: 'combobox',
      name: 'Country',
    })
  }, 60_000)

  test('a drop-down in a grid that takes the arrow keys for itself: the option is picked as its list would', async () => {
    const page = await open()
    await page.input({ kind: 'select', ...(await page.centre('combobox', 'Type')), option: 'E-Mail' })
    expect(await page.value('combobox', 'Type')).toBe('E-Mail')
    await eventually(async () => page.events.findLast((e) => e.kind === 'select')?.value === 'E-Mail')
    await page.stop()
  }, 60_000)

  test('a box ticked, left as it is when already so, cleared; one styled away is set through its label', async () => {
    const page = await open()
    const urgent = await page.centre('checkbox', 'Urgent')
    await page.input({ kind: 'check', ...urgent, checked: true })
    await page.input({ kind: 'check', ...urgent, checked: true })
    expect(await page.value('checkbox', 'Urgent')).toBe(true)
    await page.input({ kind: 'check', ...urgent })
    expect(await page.value('checkbox', 'Urgent')).toBe(false)
    // The hidden box's label text is what a person sees and points at.
    const snapshot = await driver.snapshot(page.id)
    const label = find(snapshot.root, 'checkbox', 'Gift wrap')
    const text = [label, ...snapshot.root.children].find(
      (e) => e.name === 'Gift wrap' && e.bounds && e.bounds.width > 2,
    )
    const point = text?.bounds
      ? { x: text.bounds.x + text.bounds.width - 5, y: text.bounds.y + text.bounds.height / 2 }
      : await page.centre('checkbox', 'Gift wrap')
    await page.input({ kind: 'check', ...point, checked: true })
    expect(await page.value('checkbox', 'Gift wrap')).toBe(true)
    expect(await page.refused({ kind: 'check', ...(await page.centre('button', 'Save')) })).toContain(
      'No check box, radio or switch at',
    )
    await eventually(async () => page.events.filter((e) => e.kind === 'check').length >= 3)
    await page.stop()
    expect(page.events.filter((e) => e.kind === 'check').map((e) => [e.target?.name, e.value])).toEqual([
      ['Urgent', 'true'],
      ['Urgent', 'false'],
      ['Gift wrap', 'true'],
    ])
  }, 60_000)
})

describe('a high-density screen', () => {
  test('points are in the screenshot’s pixels, which are the element boxes’: a point taken from it lands where it shows', async () => {
    const dense = new BrowserDriver({ extraArgs: ['--force-device-scale-factor=2'] })
    await dense.start()
    try {
      const page = await open(dense)
      const shot = await dense.screenshot(page.id)
      const { width } = jpegSize(shot)
      const snapshot = await dense.snapshot(page.id)
      const viewport = snapshot.root.bounds?.width ?? 1280
      expect(Math.abs(width - viewport)).toBeLessThanOrEqual(2)
      await page.input({ kind: 'type', text: 'Ada', ...(await page.centre('textbox', 'Subject')) })
      expect(await page.value('textbox', 'Subject')).toBe('Ada')
      expect(await page.value('textbox', 'Customer')).toBe('')
      await page.stop()
    } finally {
      await dense.stop()
    }
  }, 60_000)
})

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  for (let i = 2; i + 9 < bytes.length; ) {
    if (bytes[i] !== 0xff) throw new Error('not a JPEG')
    const marker = bytes[i + 1]!
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: (bytes[i + 5]! << 8) | bytes[i + 6]!, width: (bytes[i + 7]! << 8) | bytes[i + 8]! }
    i += 2 + length
  }
  throw new Error('no frame in the JPEG')
}

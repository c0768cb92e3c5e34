// The browser driver against real Chromium and small pages served here (no fixture app needed).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { launchBrowser } from '../../src/agent/drivers/browser/launch-browser.ts'
import { DriverError } from '../../src/protocol/driver.ts'
import type { UiElement } from '../../src/protocol/elements.ts'
import { eventually } from '../helpers/cli.ts'

const FORM = `<!doctype html><title>Driver form</title>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'submitted ' + this.email.value">
  <label for="email">Email</label><input id="email" name="email" type="email" required aria-describedby="email-help">
  <span id="email-help">We never share it</span>
  <label>Name <input id="name" value="Old"></label>
  <label for="tier">Tier</label>
  <select id="tier"><option value="b">Basic</option><option value="g">Gold</option></select>
  <input type="checkbox" id="news"><label for="news">Newsletter</label>
  <button type="button" id="save">Save</button>
  <button type="button" id="off" disabled>Archive</button>
  <button type="button" id="later">Later</button>
  <button type="submit" id="go">Go</button>
  <div role="status" id="out"></div>
</form>
<button id="alert" onclick="alert('Saved!'); document.getElementById('out').textContent = 'after alert'">Alert</button>
<button id="confirm" onclick="document.getElementById('out').textContent = confirm('Delete customer?') ? 'confirmed' : 'cancelled'">Confirm</button>
<button id="prompt" onclick="document.getElementById('out').textContent = 'hello ' + prompt('Your name?', 'nobody')">Prompt</button>
<script>
  const $ = (id) => document.getElementById(id)
  $('save').onclick = async () => {
    const body = [$('email').value, $('name').value, $('tier').value, $('news').checked].join('|')
    const response = await fetch('/slow-save', { method: 'POST', body })
    $('out').textContent = await response.text()
  }
  // The app shows its result a while after the click (a timer, not a request).
  $('later').onclick = () => setTimeout(() => { $('out').textContent = 'done later' }, 300)
</script>`

// A page that keeps a request open in the background (a long-poll, a slow notification check).
const LONG_POLL = `<!doctype html><title>Inbox</title><h1>Inbox</h1>
<script>fetch('/long-poll').then((r) => r.text()).then((t) => { document.querySelector('h1').textContent = t })</script>`

// A front desk with a clock that ticks on its own, and a button that adds to a list.
const CLOCK = `<!doctype html><title>Front desk</title><p>Now: <span id="t">0</span></p>
<button onclick="const li = document.createElement('li'); li.textContent = 'Called back'; document.getElementById('notes').append(li)">Add a note</button>
<ul id="notes"></ul>
<script>let n = 0; setInterval(() => { document.getElementById('t').textContent = String(++n) }, 40)</script>`

const OVERLAY = `<!doctype html><title>Overlay</title>
<button id="under">Under</button>
<div id="veil" class="veil" style="position:fixed;inset:0;background:rgba(0,0,0,.3)">Please wait</div>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let base: string
let longPolls = 0
let answerLongPoll = () => {}
let slowPageAsked = false
let answerSlowPage = () => {}

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname
      if (path === '/slow-save') {
        const body = await request.text()
        // A slow backend: the driver must wait for this response before reporting the click done.
        await Bun.sleep(300)
        return new Response(`saved ${body}`)
      }
      if (path === '/long-poll') {
        // Answered only when the test says so (or when the server stops).
        longPolls++
        await new Promise<void>((resolve) => {
          answerLongPoll = resolve
        })
        return new Response('new mail')
      }
      if (path === '/slow-page') {
        // A server slow to answer a navigation: held until the test says so.
        slowPageAsked = true
        await new Promise<void>((resolve) => {
          answerSlowPage = resolve
        })
        return new Response('<!doctype html><title>Slow</title><h1>Arrived</h1>', {
          headers: { 'content-type': 'text/html' },
        })
      }
      if (path === '/to-slow')
        return new Response('<!doctype html><title>To slow</title><a href="/slow-page">Go slow</a>', {
          headers: { 'content-type': 'text/html' },
        })
      const html =
        path === '/overlay' ? OVERLAY : path === '/inbox' ? LONG_POLL : path === '/clock' ? CLOCK : FORM
      return new Response(html, { headers: { 'content-type': 'text/html' } })
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

function has(root: UiElement, role: string): boolean {
  return root.role === role || root.children.some((child) => has(child, role))
}

async function open(path = '/form') {
  const window = await driver.launch({ url: `${base}${path}` })
  return { id: window.id, snap: async () => (await driver.snapshot(window.id)).root }
}

async function errorOf(promise: Promise<unknown>): Promise<DriverError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof DriverError)) throw new Error(`expected a DriverError, got ${String(error)}`)
  return error
}

describe('snapshot', () => {
  test('a form has its fields named by their labels, with ids, states, values and bounds', async () => {
    const { snap } = await open()
    const root = await snap()
    expect(root.role).toBe('window')
    expect(root.name).toBe('Driver form')
    const email = find(root, 'textbox', 'Email')
    expect(email.automationId).toBe('email')
    expect(email.states).toContain('required')
    expect(email.description).toBe('We never share it')
    expect(email.value).toBe('')
    expect(email.bounds?.width).toBeGreaterThan(0)
    expect(find(root, 'textbox', 'Name').value).toBe('Old')
    const tier = find(root, 'combobox', 'Tier')
    expect(tier.value).toBe('Basic')
    expect(tier.children.map((option) => option.name)).toEqual(['Basic', 'Gold'])
    expect(find(root, 'checkbox', 'Newsletter').states).not.toContain('checked')
    expect(find(root, 'button', 'Archive').states).toContain('disabled')
    expect(find(root, 'text', 'Email').children).toEqual([])
  })
})

describe('actions', () => {
  test('fill, select and check change what the page holds; a click waits for the request it starts', async () => {
    const { id, snap } = await open()
    let root = await snap()
    await driver.act(id, { kind: 'fill', ref: find(root, 'textbox', 'Email').ref, value: 'ann@example.com' })
    root = await snap()
    expect(
      (await driver.act(id, { kind: 'fill', ref: find(root, 'textbox', 'Name').ref, value: 'Ann' })).value,
    ).toBe('Ann')
    root = await snap()
    await driver.act(id, { kind: 'select', ref: find(root, 'combobox', 'Tier').ref, values: ['Gold'] })
    root = await snap()
    expect(find(root, 'combobox', 'Tier').value).toBe('Gold')
    await driver.act(id, { kind: 'select', ref: find(root, 'combobox', 'Tier').ref, values: ['b'] })
    root = await snap()
    expect(find(root, 'combobox', 'Tier').value).toBe('Basic')
    await driver.act(id, { kind: 'check', ref: find(root, 'checkbox', 'Newsletter').ref, checked: true })
    root = await snap()
    expect(find(root, 'checkbox', 'Newsletter').states).toContain('checked')
    expect(find(root, 'textbox', 'Email').value).toBe('ann@example.com')

    await driver.act(id, { kind: 'click', ref: find(root, 'button', 'Save').ref })
    root = await snap()
    expect(find(root, 'status', 'saved ann@example.com|Ann|b|true')).toBeDefined()
  })

  test('fill with an empty value clears the field; read returns text and value', async () => {
    const { id, snap } = await open()
    let root = await snap()
    await driver.act(id, { kind: 'fill', ref: find(root, 'textbox', 'Name').ref, value: '' })
    root = await snap()
    expect(find(root, 'textbox', 'Name').value).toBe('')
    const read = await driver.act(id, { kind: 'read', ref: find(root, 'combobox', 'Tier').ref })
    expect(read.value).toBe('Basic')
  })

  test('select names the available options when the wanted one is missing', async () => {
    const { id, snap } = await open()
    const root = await snap()
    const error = await errorOf(
      driver.act(id, { kind: 'select', ref: find(root, 'combobox', 'Tier').ref, values: ['Platinum'] }),
    )
    expect(error.code).toBe('OPTION_NOT_FOUND')
    expect(error.message).toContain('"Basic", "Gold"')
  })

  test('a disabled button is not clicked, a covered one names what covers it', async () => {
    const { id, snap } = await open()
    const disabled = await errorOf(
      driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Archive').ref }),
    )
    expect(disabled.code).toBe('ELEMENT_DISABLED')
    const overlay = await open('/overlay')
    const covered = await errorOf(
      driver.act(overlay.id, { kind: 'click', ref: find(await overlay.snap(), 'button', 'Under').ref }),
    )
    expect(covered.code).toBe('ELEMENT_OBSCURED')
    expect(covered.message).toContain('div#veil.veil')
  })

  test('keys are typed into the focused field: Enter submits the form', async () => {
    const { id, snap } = await open()
    let root = await snap()
    await driver.act(id, { kind: 'fill', ref: find(root, 'textbox', 'Email').ref, value: 'x@y.z' })
    root = await snap()
    await driver.act(id, { kind: 'keys', ref: find(root, 'textbox', 'Email').ref, keys: 'Enter' })
    expect(find(await snap(), 'status', 'submitted x@y.z')).toBeDefined()
  })

  test('a ref from an older snapshot is refused', async () => {
    const { id, snap } = await open()
    const old = find(await snap(), 'button', 'Save').ref
    await snap()
    expect((await errorOf(driver.act(id, { kind: 'click', ref: old }))).code).toBe('STALE_REF')
  })
})

describe('native dialogs', () => {
  test('an alert is an alertdialog with the message as name, and OK closes it', async () => {
    const { id, snap } = await open()
    await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Alert').ref })
    const root = await snap()
    const dialog = find(root, 'alertdialog', 'Saved!')
    expect(dialog.states).toContain('modal')
    expect(dialog.children.filter((c) => c.role === 'button').map((c) => c.name)).toEqual(['OK'])
    await driver.act(id, { kind: 'click', ref: find(root, 'button', 'OK').ref })
    const after = await snap()
    expect(has(after, 'alertdialog')).toBe(false)
    expect(find(after, 'status', 'after alert')).toBeDefined()
  })

  test('a confirm can be cancelled and accepted', async () => {
    const { id, snap } = await open()
    await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Confirm').ref })
    let root = await snap()
    expect(find(root, 'alertdialog', 'Delete customer?')).toBeDefined()
    await driver.act(id, { kind: 'click', ref: find(root, 'button', 'Cancel').ref })
    expect(find(await snap(), 'status', 'cancelled')).toBeDefined()
    await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Confirm').ref })
    root = await snap()
    await driver.act(id, { kind: 'click', ref: find(root, 'button', 'OK').ref })
    expect(find(await snap(), 'status', 'confirmed')).toBeDefined()
  })

  test('a prompt has a textbox that can be filled before OK', async () => {
    const { id, snap } = await open()
    await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Prompt').ref })
    let root = await snap()
    const input = find(root, 'textbox', 'Your name?')
    expect(input.value).toBe('nobody')
    await driver.act(id, { kind: 'fill', ref: input.ref, value: 'Ann' })
    root = await snap()
    await driver.act(id, { kind: 'click', ref: find(root, 'button', 'OK').ref })
    expect(find(await snap(), 'status', 'hello Ann')).toBeDefined()
  })

  test('while a dialog is open no screenshot can be taken, and Enter accepts it', async () => {
    const { id, snap } = await open()
    await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Alert').ref })
    expect((await errorOf(driver.screenshot(id))).code).toBe('BLOCKED_BY_DIALOG')
    await driver.act(id, { kind: 'keys', keys: 'Enter' })
    expect(find(await snap(), 'status', 'after alert')).toBeDefined()
  })
})

test('a request the page keeps open in the background does not hold a launch until its timeout', async () => {
  // The navigation timeout (30 s) is well beyond this test's; the launch must end on its own
  // while the long-poll is still unanswered, and the page still takes its answer afterwards.
  const window = await driver.launch({ url: `${base}/inbox` })
  expect(longPolls).toBe(1)
  const before = await driver.snapshot(window.id)
  expect(find(before.root, 'heading', 'Inbox')).toBeDefined()
  answerLongPoll()
  await driver.waitForChange(window.id, 10_000)
  const after = await driver.snapshot(window.id)
  expect(find(after.root, 'heading', 'new mail')).toBeDefined()
}, 20_000)

test('launching again dismisses a dialog an earlier run left open', async () => {
  const { id, snap } = await open()
  await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Confirm').ref })
  expect(has(await snap(), 'alertdialog')).toBe(true)
  const again = await open()
  expect(again.id).toBe(id)
  const root = await again.snap()
  expect(has(root, 'alertdialog')).toBe(false)
  expect(find(root, 'status', '')).toBeDefined()
})

describe('screenshots and waiting', () => {
  test('screenshots are JPEG', async () => {
    const { id } = await open()
    const bytes = await driver.screenshot(id)
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9])
    expect(bytes.length).toBeGreaterThan(1000)
  })

  test('waitForChange wakes on a DOM change and times out when nothing changes', async () => {
    const { id, snap } = await open()
    await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Later').ref })
    let root = await snap()
    while (!JSON.stringify(root).includes('done later')) {
      expect(await driver.waitForChange(id, 5_000)).toBe('changed')
      root = await snap()
    }
    expect(find(root, 'status', 'done later')).toBeDefined()
    expect(await driver.waitForChange(id, 200)).toBe('timeout')
  })

  test('a document still loading counts as a change: whoever waits for quiet waits on', async () => {
    const { id, snap } = await open('/to-slow')
    const link = find(await snap(), 'link', 'Go slow')
    await driver.input(id, {
      kind: 'click',
      x: link.bounds!.x + link.bounds!.width / 2,
      y: link.bounds!.y + link.bounds!.height / 2,
    })
    await eventually(async () => slowPageAsked)
    // The server holds the page: no event comes, yet the window has not settled.
    for (let i = 0; i < 3; i++) expect(await driver.waitForChange(id, 200)).toBe('changed')
    answerSlowPage()
    await eventually(async () => JSON.stringify(await snap()).includes('Arrived'))
    expect(await eventually(async () => (await driver.waitForChange(id, 200)) === 'timeout')).toBe(true)
  })
})

describe('launching and attaching', () => {
  test('a browser that cannot be started fails with LAUNCH_FAILED', async () => {
    const broken = new BrowserDriver({ executablePath: '/nonexistent/chromium' })
    const error = await errorOf(broken.start())
    expect(error.code).toBe('LAUNCH_FAILED')
    expect(error.message).toContain('/nonexistent/chromium')
  })

  test('a driver attached by DevTools URL sees the tabs and leaves the browser running on stop', async () => {
    const browser = await launchBrowser()
    try {
      const first = new BrowserDriver({ devtoolsUrl: browser.wsUrl })
      await first.start()
      const window = await first.launch({ url: `${base}/form` })
      await first.stop()
      const second = new BrowserDriver({ devtoolsUrl: browser.wsUrl })
      await second.start()
      const windows = await second.listWindows()
      expect(windows.map((w) => w.title)).toContain('Driver form')
      expect(find((await second.snapshot(window.id)).root, 'button', 'Save')).toBeDefined()
      await second.stop()
    } finally {
      await browser.dispose()
    }
  })
})

describe('a page with a clock', () => {
  test('its ticks are not changes, what an action adds is', async () => {
    const { id, snap } = await open('/clock')
    // The first rewrites count; from the third within a few seconds the clock is known as a ticker.
    expect(await eventually(async () => (await driver.waitForChange(id, 300)) === 'timeout')).toBe(true)
    expect(await driver.waitForChange(id, 300)).toBe('timeout')
    await driver.act(id, { kind: 'click', ref: find(await snap(), 'button', 'Add a note').ref })
    expect(await driver.waitForChange(id, 5_000)).toBe('changed')
    expect(find(await snap(), 'listitem', 'Called back')).toBeDefined()
  })
})

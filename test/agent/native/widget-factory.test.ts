import { beforeAll, describe, expect, test } from 'bun:test'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../../src/protocol/elements.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'

/** GTK's own widget gallery (Debian's gtk-3-examples), driven through AT-SPI on a headless desktop. */
const native = useNativeDesktop()
let driver: NativeDriver
const APP = { executable: 'gtk3-widget-factory' }

beforeAll(async () => {
  driver = native.driver()
  await driver.start()
}, 30_000)

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
function all(snapshot: Snapshot, match: (e: UiElement) => boolean): UiElement[] {
  return flat(snapshot.root).filter(match)
}
function one(snapshot: Snapshot, match: (e: UiElement) => boolean, what: string): UiElement {
  const found = all(snapshot, match)
  if (found.length === 0) throw new Error(`no ${what} in the snapshot`)
  return found[0]!
}
/** The same element in a later snapshot: refs change with every snapshot, positions do not. */
function again(snapshot: Snapshot, element: UiElement): UiElement {
  return one(
    snapshot,
    (e) => e.role === element.role && JSON.stringify(e.bounds) === JSON.stringify(element.bounds),
    `${element.role} at ${JSON.stringify(element.bounds)}`,
  )
}
async function failure(promise: Promise<unknown>): Promise<DriverError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(DriverError)
    return error as DriverError
  }
  throw new Error('expected the action to fail')
}

/** Page 3's tree view of a family (a table whose header row starts with "Name"). */
const treeView = (page3: Snapshot) =>
  one(page3, (e) => e.role === 'table' && e.children[0]?.children[0]?.name === 'Name', 'the tree view')

async function fresh(): Promise<{ window: WindowInfo; snapshot: Snapshot }> {
  const window = await driver.launch(APP)
  return { window, snapshot: await driver.snapshot(window.id) }
}

async function showPage(window: WindowInfo, page: 'Page 1' | 'Page 2' | 'Page 3'): Promise<Snapshot> {
  const snapshot = await driver.snapshot(window.id)
  await driver.act(window.id, {
    kind: 'click',
    ref: one(snapshot, (e) => e.role === 'radio' && e.name === page, page).ref,
  })
  return driver.snapshot(window.id)
}

describe('gtk3-widget-factory through the desktop driver', () => {
  test('launch shows the window; a fresh launch ends the running instance first', async () => {
    const first = await driver.launch(APP)
    expect(first).toMatchObject({ title: 'gtk3-widget-factory', app: 'gtk3-widget-factory', kind: 'window' })
    const second = await driver.launch(APP)
    const windows = (await driver.listWindows()).filter((w) => w.app === 'gtk3-widget-factory')
    expect(windows.map((w) => w.id)).toEqual([second.id])
    expect(second.id).not.toBe(first.id)
    // The old window is gone for good: acting on it says so.
    expect((await failure(driver.snapshot(first.id))).code).toBe('WINDOW_NOT_FOUND')
  }, 60_000)

  test('the snapshot is the element model: roles, names, values, states, window-relative bounds', async () => {
    const { snapshot } = await fresh()
    expect(snapshot.root).toMatchObject({ role: 'window', name: 'gtk3-widget-factory' })
    // Window-relative: the window itself is at the origin. Its size is GTK's natural size for the
    // fonts installed on the machine, so only its order of magnitude is pinned here (the
    // screenshot test checks it against the picture).
    const root = snapshot.root.bounds!
    expect(root).toMatchObject({ x: 0, y: 0 })
    expect(root.width).toBeGreaterThan(800)
    expect(root.height).toBeGreaterThan(500)
    const pages = all(snapshot, (e) => e.role === 'radio' && /^Page \d$/.test(e.name))
    expect(pages.map((p) => [p.name, p.states.includes('checked')])).toEqual([
      ['Page 1', true],
      ['Page 2', false],
      ['Page 3', false],
    ])
    const combo = one(snapshot, (e) => e.role === 'combobox' && e.value === 'Left', 'the Left combo')
    expect(combo.children.map((o) => [o.role, o.name, o.states])).toEqual([
      ['option', 'Left', ['selected']],
      ['option', 'Middle', []],
      ['option', 'Right', []],
    ])
    const disabled = all(snapshot, (e) => e.role === 'checkbox' && e.states.includes('disabled'))
    expect(disabled.length).toBeGreaterThan(0)
    expect(
      all(snapshot, (e) => e.role === 'button' && e.name === 'togglebutton' && e.states.includes('pressed')),
    ).not.toHaveLength(0)
    for (const element of flat(snapshot.root)) {
      if (!element.bounds) continue
      expect(element.bounds.x).toBeGreaterThanOrEqual(0)
      expect(element.bounds.x + element.bounds.width).toBeLessThanOrEqual(root.width)
    }
  }, 60_000)

  test('an open drop-down’s options have their place on the screen (to point at, to click); a closed one’s have none', async () => {
    const { window, snapshot } = await fresh()
    const combo = one(snapshot, (e) => e.role === 'combobox' && e.value === 'Left', 'the Left combo')
    const options = (s: Snapshot) => again(s, combo).children.filter((c) => c.role === 'option')
    expect(options(snapshot).map((o) => o.name)).toContain('Right')
    expect(options(snapshot).every((o) => o.bounds === undefined)).toBe(true)
    await driver.act(window.id, { kind: 'click', ref: combo.ref })
    await driver.waitForChange(window.id, 2_000)
    const open = options(await driver.snapshot(window.id))
    const right = open.find((o) => o.name === 'Right')
    expect(right?.bounds?.width).toBeGreaterThan(0)
    expect(right?.bounds?.height).toBeGreaterThan(0)
    await driver.act(window.id, { kind: 'keys', keys: 'Escape' })
  })

  test('fill an entry, toggle a check button, pick a combo item, set a spin button', async () => {
    const { window, snapshot } = await fresh()
    const entry = one(
      snapshot,
      (e) => e.role === 'textbox' && e.value === '' && !e.states.includes('disabled'),
      'an empty entry',
    )
    const check = one(
      snapshot,
      (e) => e.role === 'checkbox' && e.states.length === 0,
      'an unchecked check button',
    )
    const combo = one(snapshot, (e) => e.role === 'combobox' && e.value === 'Left', 'the Left combo')
    const spin = one(snapshot, (e) => e.role === 'spinbutton' && e.value === '50', 'the spin button at 50')
    expect(await driver.act(window.id, { kind: 'fill', ref: entry.ref, value: 'Grüße, world' })).toEqual({})
    expect(await driver.act(window.id, { kind: 'check', ref: check.ref, checked: true })).toEqual({
      checked: true,
    })
    expect(await driver.act(window.id, { kind: 'select', ref: combo.ref, values: ['Right'] })).toEqual({})
    expect(await driver.act(window.id, { kind: 'fill', ref: spin.ref, value: '73' })).toEqual({})
    const after = await driver.snapshot(window.id)
    expect(again(after, entry).value).toBe('Grüße, world')
    expect(again(after, check).states).toContain('checked')
    expect(again(after, combo).value).toBe('Right')
    expect(again(after, spin).value).toBe('73')
    // Unchecking goes back; checking what is checked changes nothing.
    expect(
      await driver.act(window.id, { kind: 'check', ref: again(after, check).ref, checked: false }),
    ).toEqual({
      checked: false,
    })
    const read = await driver.act(window.id, { kind: 'read', ref: again(after, entry).ref })
    expect(read).toEqual({ text: 'Grüße, world', value: 'Grüße, world' })
  }, 60_000)

  test('wrong values fail with the typed error the runner knows', async () => {
    const { window, snapshot } = await fresh()
    const combo = one(snapshot, (e) => e.role === 'combobox' && e.value === 'Left', 'the Left combo')
    const missing = await failure(
      driver.act(window.id, { kind: 'select', ref: combo.ref, values: ['Nowhere'] }),
    )
    expect(missing.code).toBe('OPTION_NOT_FOUND')
    expect(missing.message).toBe('No option "Nowhere"; the options are "Left", "Middle", "Right"')
    const spin = one(snapshot, (e) => e.role === 'spinbutton' && e.value === '50', 'the spin button at 50')
    expect((await failure(driver.act(window.id, { kind: 'fill', ref: spin.ref, value: 'fifty' }))).code).toBe(
      'UNSUPPORTED_ACTION',
    )
    const button = one(snapshot, (e) => e.role === 'button' && e.name === 'togglebutton', 'a button')
    expect((await failure(driver.act(window.id, { kind: 'fill', ref: button.ref, value: 'x' }))).code).toBe(
      'UNSUPPORTED_ACTION',
    )
    const disabled = one(
      snapshot,
      (e) => e.role === 'checkbox' && e.states.includes('disabled'),
      'a disabled box',
    )
    expect(
      (await failure(driver.act(window.id, { kind: 'check', ref: disabled.ref, checked: true }))).code,
    ).toBe('ELEMENT_DISABLED')
    // A ref from an older snapshot of the window is stale.
    await driver.snapshot(window.id)
    expect((await failure(driver.act(window.id, { kind: 'click', ref: button.ref }))).code).toBe('STALE_REF')
  }, 60_000)

  test('keys are typed through XTest into the focused entry', async () => {
    const { window, snapshot } = await fresh()
    const entry = one(
      snapshot,
      (e) => e.role === 'textbox' && e.value === 'entry' && !e.states.includes('disabled'),
      'the entry',
    )
    await driver.act(window.id, { kind: 'keys', ref: entry.ref, keys: 'Control+a BackSpace H i Shift+1' })
    expect(again(await driver.snapshot(window.id), entry).value).toBe('Hi!')
  }, 60_000)

  test('menus: the menu bar opens a menu whose items the snapshot then shows; Escape closes it', async () => {
    const { window } = await fresh()
    const page2 = await showPage(window, 'Page 2')
    const bar = one(page2, (e) => e.role === 'menubar', 'the menu bar')
    expect(bar.children.map((m) => [m.role, m.name, m.children.length])).toEqual([
      ['menuitem', 'File', 0],
      ['menuitem', 'Edit', 0],
      ['menuitem', 'View', 0],
      ['menuitem', 'Help', 0],
    ])
    await driver.act(window.id, { kind: 'click', ref: bar.children[0]!.ref })
    const open = one(
      await driver.snapshot(window.id),
      (e) => e.role === 'menuitem' && e.name === 'File',
      'File',
    )
    expect(open.children.map((i) => [i.role, i.name])).toEqual([
      ['menuitem', 'New'],
      ['menuitem', 'Open'],
      ['menuitem', 'Save'],
      ['menuitem', 'Save As'],
      ['menuitem', 'Quit'],
    ])
    await driver.act(window.id, { kind: 'keys', keys: 'Escape' })
    const closed = one(
      await driver.snapshot(window.id),
      (e) => e.role === 'menuitem' && e.name === 'File',
      'File',
    )
    expect(closed.children).toEqual([])
    const status = one(page2, (e) => e.role === 'status', 'the status bar')
    expect(status.name).toBe('All systems are operating normally.')
  }, 60_000)

  test('a tree view reads as a table: cells by row and column header', async () => {
    const { window } = await fresh()
    const page3 = await showPage(window, 'Page 3')
    const table = treeView(page3)
    expect(table.children[0]!.children.map((h) => [h.role, h.name])).toEqual([
      ['columnheader', 'Name'],
      ['columnheader', 'Birth'],
      ['columnheader', 'Death'],
    ])
    const rows = readRows(table)
    expect(rows[0]).toEqual({ Name: 'Charlemagne', Birth: '742', Death: '814' })
    expect(rows.find((r) => r.Name === 'Attila the Hun')).toEqual({
      Name: 'Attila the Hun',
      Birth: 'ca. 390',
      Death: '453',
    })
    // A cell can be read by itself too.
    const cell = one(page3, (e) => e.role === 'cell' && e.name === 'Pepin the Short', 'a cell')
    expect(await driver.act(window.id, { kind: 'read', ref: cell.ref })).toEqual({ text: 'Pepin the Short' })
    // Clicking a cell selects its row, as a mouse click does (synthetic input through XTest).
    const begga = one(page3, (e) => e.role === 'cell' && e.name === 'Begga', 'Begga')
    await driver.act(window.id, { kind: 'click', ref: begga.ref })
    const after = await driver.snapshot(window.id)
    const selected = all(after, (e) => e.role === 'row' && e.states.includes('selected'))
    expect(selected.map((row) => row.name)).toEqual(['Begga 615 693'])
  }, 60_000)

  test('a row partly below the list is scrolled in whole before the click, which then selects it', async () => {
    const { window } = await fresh()
    const page3 = await showPage(window, 'Page 3')
    const table = treeView(page3)
    const box = (e: UiElement) => e.bounds ?? { x: 0, y: 0, width: 0, height: 0 }
    const bottom = box(table).y + box(table).height
    // The last row GTK places on screen: its lower edge is at or past the list's.
    const shown = all(page3, (e) => e.role === 'cell' && e.name !== '' && box(e).height > 0)
    const last = shown.reduce((a, b) => (box(b).y > box(a).y ? b : a))
    expect(box(last).y + box(last).height).toBeGreaterThan(bottom - 16)
    await driver.act(window.id, { kind: 'click', ref: last.ref })
    const after = await driver.snapshot(window.id)
    const now = one(after, (e) => e.role === 'cell' && e.name === last.name, last.name)
    expect(box(now).y + box(now).height).toBeLessThanOrEqual(bottom - 16)
    const selected = all(after, (e) => e.role === 'row' && e.states.includes('selected'))
    expect(selected.map((row) => row.name.split(' ')[0])).toEqual([last.name.split(' ')[0]])
  }, 60_000)

  test('a list box: select picks an option by its text', async () => {
    const { window } = await fresh()
    const page3 = await showPage(window, 'Page 3')
    const isList = (e: UiElement) => e.role === 'listbox' && e.children.some((o) => o.name === 'Address')
    const list = one(page3, isList, 'the list box')
    expect(list.children.map((o) => [o.name, o.states.includes('selected')])).toEqual([
      ['Identity', true],
      ['Birthdate', false],
      ['Address', false],
      ['Pages', false],
    ])
    await driver.act(window.id, { kind: 'select', ref: list.ref, values: ['Address'] })
    const selected = one(await driver.snapshot(window.id), isList, 'the list box').children
    expect(selected.filter((o) => o.states.includes('selected')).map((o) => o.name)).toEqual(['Address'])
  }, 60_000)

  test('a modal dialog shows in the snapshot and the window list, and blocks the window until closed', async () => {
    const { window } = await fresh()
    const page2 = await showPage(window, 'Page 2')
    await driver.act(window.id, {
      kind: 'click',
      ref: one(page2, (e) => e.role === 'button' && e.name === 'Select', 'Select').ref,
    })
    expect((await driver.listWindows()).map((w) => w.title)).toEqual(['gtk3-widget-factory', 'Choose one'])
    const withDialog = await driver.snapshot(window.id)
    const dialog = one(withDialog, (e) => e.role === 'dialog', 'the dialog')
    expect(dialog).toMatchObject({ name: 'Choose one', states: ['modal'] })
    expect(all({ ...withDialog, root: dialog }, (e) => e.role === 'button').map((b) => b.name)).toEqual([
      'Cancel',
      'Select',
    ])
    const page3 = one(withDialog, (e) => e.role === 'radio' && e.name === 'Page 3', 'Page 3')
    const blocked = await failure(driver.act(window.id, { kind: 'click', ref: page3.ref }))
    expect(blocked.code).toBe('BLOCKED_BY_DIALOG')
    expect(blocked.message).toContain('"Choose one"')
    const cancel = one(
      { ...withDialog, root: dialog },
      (e) => e.role === 'button' && e.name === 'Cancel',
      'Cancel',
    )
    await driver.act(window.id, { kind: 'click', ref: cancel.ref })
    expect((await driver.listWindows()).map((w) => w.title)).toEqual(['gtk3-widget-factory'])
    expect(all(await driver.snapshot(window.id), (e) => e.role === 'dialog')).toEqual([])
  }, 60_000)

  test('waitForChange: a quiet window times out; a change made meanwhile resolves it', async () => {
    const { window, snapshot } = await fresh()
    const started = performance.now()
    expect(await driver.waitForChange(window.id, 300)).toBe('timeout')
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    const entry = one(
      snapshot,
      (e) => e.role === 'textbox' && e.value === '' && !e.states.includes('disabled'),
      'an entry',
    )
    const waiting = driver.waitForChange(window.id, 10_000)
    await driver.act(window.id, { kind: 'fill', ref: entry.ref, value: 'changed' })
    expect(await waiting).toBe('changed')
  }, 60_000)

  test('a screenshot is a JPEG of the window at its size', async () => {
    const { window, snapshot } = await fresh()
    const jpeg = await driver.screenshot(window.id)
    expect([...jpeg.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    expect(jpegSize(jpeg)).toEqual({
      width: snapshot.root.bounds!.width,
      height: snapshot.root.bounds!.height,
    })
  }, 60_000)
})

/** Width and height from the JPEG's start-of-frame marker. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  let i = 2
  while (i < bytes.length) {
    const marker = bytes[i + 1]!
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: (bytes[i + 5]! << 8) | bytes[i + 6]!, width: (bytes[i + 7]! << 8) | bytes[i + 8]! }
    i += 2 + length
  }
  throw new Error('no frame in the JPEG')
}

import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { mapWindowTree } from '../../../src/agent/drivers/native/element-mapping.ts'
import { HelperHost } from '../../../src/agent/drivers/native/helper-host.ts'
import { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import { extractUiaHelper } from '../../../src/agent/drivers/windows/extract-helper.ts'
import { createWindowsDesktopDriver } from '../../../src/agent/drivers/windows/index.ts'
import { UIA_PROFILE } from '../../../src/agent/drivers/windows/roles.ts'
import { openDialogs } from '../../../src/automation/conditions.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import { runAutomation } from '../../../src/automation/runner.ts'
import { resolveSelector } from '../../../src/automation/selectors.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import type { Fingerprint, Selector } from '../../../src/protocol/automation.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { HelperNode } from '../../../src/protocol/helper.ts'
import { eventually } from '../../helpers/cli.ts'
import { FAKE_FAULT_COMMAND, FAKE_UIA_HELPER, type FakeFault } from '../../helpers/fake-uia-helper.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

// Every test here runs the real HelperHost, NativeDriver and UIA role table against
// test/helpers/fake-uia-helper.ts: it stands for Windows and its UI Automation helper, which
// cannot run here, serving UIA trees shaped as the helper reads them (test/fixtures/uia).

const WINDOWS = {
  notepad: '0xA0B2C@4312',
  winforms: '0x50E42@6024',
  wpf: '0x71B06@7340',
  win32: '0x120A3E@5120',
  ribbon: '0xC0D5A@9012',
  elevated: '0x90C14@2288',
}
const state = tempDir('deskhook-windows-')
afterAll(() => state.remove())

const quiet = { write: () => true } as unknown as NodeJS.WritableStream
const log = createLogger({ level: 'warn', format: 'json', destination: quiet })

const running: NativeDriver[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()))
})

/** The driver as the agent composes it, over a host the test can also reach (for the fake's knob). */
function windowsDriver(callTimeoutMs = 5_000) {
  const host = new HelperHost({ command: [...FAKE_UIA_HELPER], log, callTimeoutMs })
  const driver = new NativeDriver({ kind: 'windows', host, profile: UIA_PROFILE, log, callTimeoutMs })
  running.push(driver)
  const fault = (f: FakeFault) => host.request(FAKE_FAULT_COMMAND, { ...f })
  return { driver, host, fault }
}

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const line = (e: UiElement) => `${e.role}:${e.name}`
const find = (root: UiElement, role: UiElement['role'], name: string) => {
  const found = flat(root).filter((e) => e.role === role && e.name === name)
  expect(found).toHaveLength(1)
  return found[0]!
}
const selector = (...fingerprints: Fingerprint[]): Selector => ({ fingerprints })
function resolved(root: UiElement, sel: Selector): UiElement {
  const resolution = resolveSelector(root, sel)
  if (resolution.status !== 'found') throw new Error(`selector ${JSON.stringify(sel)}: ${resolution.status}`)
  return resolution.element
}
async function failure(promise: Promise<unknown>): Promise<DriverError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(DriverError)
    return error as DriverError
  }
  throw new Error('expected the call to fail')
}

describe('the Windows driver over recorded UI Automation trees', () => {
  test('as the agent composes it: a UIA helper, its windows listed with their apps and start commands', async () => {
    // The fake stands for Windows here; the agent runs the embedded uia-helper.exe instead.
    const driver = await createWindowsDesktopDriver({
      stateDir: state.path,
      log,
      command: [...FAKE_UIA_HELPER],
    })
    running.push(driver)
    await driver.start()
    expect(driver.kind).toBe('windows')
    const windows = await driver.listWindows()
    expect(windows.find((w) => w.id === WINDOWS.notepad)).toEqual({
      id: WINDOWS.notepad,
      title: 'Untitled - Notepad',
      app: 'notepad.exe',
      kind: 'window',
      launchCommand: { executable: 'C:\\Windows\\system32\\notepad.exe' },
    })
    const screenshot = await driver.screenshot(WINDOWS.notepad)
    expect([screenshot[0], screenshot[1]]).toEqual([0xff, 0xd8])
  })

  test('Notepad: its page is a text box holding the text, the menu bar its items, no title bar', async () => {
    // The fake stands for Windows: the tree is Notepad's as UIA shows it (Document "Text Editor", id 15).
    const { driver } = windowsDriver()
    const { root, window } = await driver.snapshot(WINDOWS.notepad)
    expect(window.title).toBe('Untitled - Notepad')
    expect(root.children.map(line)).toEqual([
      'menubar:Application',
      'textbox:Text Editor',
      'status:Ln 2, Col 28 100% Windows (CRLF) UTF-8',
    ])
    expect(root.children[0]!.children.map(line)).toEqual([
      'menuitem:File',
      'menuitem:Edit',
      'menuitem:Format',
      'menuitem:View',
      'menuitem:Help',
    ])
    expect(root.children[1]).toMatchObject({
      automationId: '15',
      value: 'Dear Ms Weber,\r\nyour order 4711 has shipped.',
      states: ['focused'],
      bounds: { x: 8, y: 51, width: 944, height: 543 },
    })
  })

  test('a WinForms form: each label before its field, designer ids, combo options, toggles, the tab page', async () => {
    // The fake stands for Windows: WinForms lists controls in z-order; reading order puts labels first.
    const { driver } = windowsDriver()
    const { root } = await driver.snapshot(WINDOWS.winforms)
    expect(root.children.map(line)).toEqual([
      'tablist:',
      'tabpanel:Contact',
      'group:Payment',
      'generic:',
      'status:Ready',
    ])
    const page = root.children[1]!
    expect(page.children.map(line)).toEqual([
      'text:Customer no.:',
      'textbox:Customer no.:',
      'text:Name:',
      'textbox:Name:',
      'text:Email:',
      'textbox:Email:',
      'text:Country:',
      'combobox:Country:',
      'checkbox:VIP customer',
      'text:PIN:',
      'textbox:PIN:',
    ])
    expect(find(root, 'textbox', 'Name:')).toMatchObject({ automationId: 'textBox1', value: 'Anna Weber' })
    expect(find(root, 'textbox', 'Customer no.:').states).toEqual(['readonly'])
    expect(find(root, 'textbox', 'PIN:')).toMatchObject({ inputType: 'password', value: '' })
    // The drop-down's "Open" button is no control of the form; its list's items are the options.
    const country = find(root, 'combobox', 'Country:')
    expect(country.value).toBe('Germany')
    expect(country.children.map((o) => [line(o), o.states])).toEqual([
      ['option:Austria', []],
      ['option:Germany', ['selected']],
      ['option:Switzerland', []],
    ])
    expect(flat(root).some((e) => e.name === 'Open')).toBe(false)
    expect(find(root, 'checkbox', 'VIP customer').states).toEqual(['checked'])
    expect(find(root, 'radio', 'Invoice').states).toEqual(['checked'])
    expect(find(root, 'tab', 'Contact').states).toEqual(['selected'])
    expect(find(root, 'button', 'Delete').states).toEqual(['disabled'])
    expect(root.children[3]!.automationId).toBe('panelButtons')
  })

  test('a WPF window: labelled fields, a hint, and a DataGrid read as cells under their column headers', async () => {
    // The fake stands for Windows: WPF names rows after their object's type and cells "Item: …, Column Display Index: n".
    const { driver } = windowsDriver()
    const { root } = await driver.snapshot(WINDOWS.wpf)
    expect(find(root, 'textbox', 'Customer')).toMatchObject({
      automationId: 'CustomerBox',
      value: 'Contoso Ltd',
    })
    expect(flat(root).find((e) => e.automationId === 'OrderDateBox')).toMatchObject({
      name: '',
      placeholder: 'dd.mm.yyyy',
    })
    expect(find(root, 'textbox', 'Notes').states).toEqual(['readonly'])
    expect(find(root, 'combobox', 'Status').value).toBe('Open')
    const grid = flat(root).find((e) => e.automationId === 'OrdersGrid')!
    expect(grid.role).toBe('table')
    // No empty "new item" row, no row headers, no type names: what the grid shows.
    expect(grid.children.map((row) => [row.role, row.children.map((c) => `${c.role}:${c.name}`)])).toEqual([
      ['row', ['columnheader:Order', 'columnheader:Customer', 'columnheader:Total']],
      ['row', ['cell:SO-1001', 'cell:Contoso Ltd', 'cell:1,250.00']],
      ['row', ['cell:SO-1002', 'cell:Fabrikam', 'cell:89.90']],
      ['row', ['cell:SO-1003', 'cell:Contoso Ltd', 'cell:420.00']],
    ])
    expect(grid.children[2]!.states).toEqual(['selected'])
    expect(readRows(grid, { order: 'Order', total: 'Total' })).toEqual([
      { order: 'SO-1001', total: '1,250.00' },
      { order: 'SO-1002', total: '89.90' },
      { order: 'SO-1003', total: '420.00' },
    ])
    // The runner's own resolver: a cell by its row's text and its column's header.
    const total = resolved(
      root,
      selector({
        by: 'inRow',
        rowText: 'Fabrikam',
        role: 'cell',
        name: '.+',
        match: 'regex',
        column: 'Total',
      }),
    )
    expect(total.name).toBe('89.90')
    const recent = find(root, 'listbox', 'Recent customers')
    expect(recent.children.map(line)).toEqual(['option:Contoso Ltd', 'option:Fabrikam'])
  })

  test('a Win32 app with its #32770 dialog open: the dialog is modal, OK and Cancel have ids 1 and 2', async () => {
    // The fake stands for Windows: the helper appends an app's dialogs to its window's tree.
    const { driver } = windowsDriver()
    const { root } = await driver.snapshot(WINDOWS.win32)
    const [dialog] = openDialogs(root)
    expect(dialog).toMatchObject({ role: 'dialog', name: 'Item properties', states: ['modal'] })
    expect(dialog!.children.map(line)).toEqual([
      'text:Name:',
      'textbox:Name:',
      'text:Quantity:',
      'textbox:Quantity:',
      'spinbutton:Quantity:',
      'checkbox:In stock',
      'text:Changes apply to all warehouses.',
      'button:OK',
      'button:Cancel',
    ])
    expect(resolved(root, selector({ by: 'automationId', ids: ['1'] })).name).toBe('OK')
    expect(resolved(root, selector({ by: 'role', role: 'button', name: 'Cancel' })).automationId).toBe('2')
    expect(resolved(root, selector({ by: 'label', label: 'Quantity' })).automationId).toBe('1002')
    expect(find(root, 'spinbutton', 'Quantity:').value).toBe('250')
    // Win32 labels all carry control id -1 (65535): an id that names several elements is ambiguous.
    const labels = resolveSelector(root, selector({ by: 'automationId', ids: ['65535'] }))
    expect(labels.status).toBe('ambiguous')
  })

  test('an Office ribbon: tabs, named groups, split buttons, pressed toggles and the open Paste menu', async () => {
    // The fake stands for Windows: Word's ribbon as UIA shows it.
    const { driver } = windowsDriver()
    const { root } = await driver.snapshot(WINDOWS.ribbon)
    expect(find(root, 'tablist', 'Ribbon Tabs').children.map((t) => [t.name, t.states])).toEqual([
      ['Home', ['selected']],
      ['Insert', []],
      ['Design', []],
      ['Layout', []],
      ['References', []],
    ])
    expect(find(root, 'group', 'Clipboard').children.map(line)).toEqual([
      'button:Paste',
      'button:Cut',
      'button:Copy',
      'button:Format Painter',
    ])
    expect(find(root, 'button', 'Paste').states).toEqual(['expanded'])
    expect(find(root, 'button', 'Bold')).toMatchObject({
      states: ['pressed'],
      description: 'Make your text bold.',
    })
    expect(find(root, 'button', 'Italic').states).toEqual([])
    expect(find(root, 'combobox', 'Font Size').value).toBe('11')
    expect(find(root, 'menu', 'Paste Options').children.map(line)).toEqual([
      'menuitem:Keep Source Formatting (K)',
      'menuitem:Merge Formatting (M)',
      'menuitem:Keep Text Only (T)',
    ])
    expect(find(root, 'slider', 'Zoom').value).toBe('100')
  })

  test('window chrome never reaches the model: the title bar Close button cannot compete with the app’s own', () => {
    // The fake stands for Windows: a tree with the chrome the helper is meant to leave out anyway.
    const node = (role: string, name: string, children: HelperNode[] = []): HelperNode => ({
      ref: `1:${role}${name}`,
      role,
      name,
      states: [],
      children,
    })
    const tree = node('Window', 'Orders', [
      node('TitleBar', '', [node('Button', 'Minimize'), node('Button', 'Close')]),
      node('Edit', 'Notes', [node('ScrollBar', 'Vertical', [node('Thumb', 'Position')])]),
      node('Button', 'Close'),
    ])
    const root = mapWindowTree(tree, 'Orders', {
      profile: UIA_PROFILE,
      origin: { x: 0, y: 0 },
      ref: (r) => r,
    })
    expect(flat(root).map(line)).toEqual(['window:Orders', 'textbox:Notes', 'button:Close'])
  })

  test('every UIA control type has a role in the model or is left out', () => {
    // The fake stands for Windows: the names are the ControlTypes the helper writes in `role`.
    const controlTypes = [
      ...['Button', 'Calendar', 'CheckBox', 'ComboBox', 'Edit', 'Hyperlink', 'Image', 'ListItem', 'List'],
      ...['Menu', 'MenuBar', 'MenuItem', 'ProgressBar', 'RadioButton', 'ScrollBar', 'Slider', 'Spinner'],
      ...['StatusBar', 'Tab', 'TabItem', 'Text', 'ToolBar', 'ToolTip', 'Tree', 'TreeItem', 'Custom', 'Group'],
      ...['Thumb', 'DataGrid', 'DataItem', 'Document', 'SplitButton', 'Window', 'Pane', 'Header'],
      ...['HeaderItem', 'Table', 'TitleBar', 'Separator', 'SemanticZoom', 'AppBar'],
    ]
    const unmapped = controlTypes.filter((t) => !UIA_PROFILE.roles[t] && !UIA_PROFILE.skipped?.has(t))
    expect(unmapped).toEqual([])
  })

  test('the runner drives the form: selectors by id, label and role; values land in the app', async () => {
    // The fake stands for Windows: fill, select, check and click change the tree it serves.
    const { driver } = windowsDriver()
    const app = { executable: 'C:\\Program Files\\CustomerDesk\\CustomerDesk.exe' }
    const run = await runAutomation(
      driver,
      {
        version: 1,
        app,
        scenarios: [],
        steps: [
          { kind: 'launch', name: 'Open CustomerDesk', app },
          {
            kind: 'fill',
            name: 'Email',
            target: selector({ by: 'automationId', ids: ['tabPageContact', 'textBox2'] }),
            value: '{{email}}',
          },
          {
            kind: 'select',
            name: 'Country',
            target: selector({ by: 'label', label: 'Country' }),
            value: '{{country}}',
          },
          {
            kind: 'check',
            name: 'Not VIP',
            target: selector({ by: 'role', role: 'checkbox', name: 'VIP customer' }),
            checked: false,
          },
          { kind: 'click', name: 'Save', target: selector({ by: 'role', role: 'button', name: 'Save' }) },
          {
            kind: 'read',
            name: 'Number',
            target: selector({ by: 'automationId', ids: ['textBoxNumber'] }),
            into: 'number',
          },
        ],
      },
      { email: 'anna@example.com', country: 'Switzerland' },
      {},
      { screenshots: false },
    )
    expect(run.error).toBeUndefined()
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ number: 'C-10442' })
    const { root } = await driver.snapshot(WINDOWS.winforms)
    expect(find(root, 'textbox', 'Email:').value).toBe('anna@example.com')
    expect(find(root, 'combobox', 'Country:').value).toBe('Switzerland')
    expect(find(root, 'checkbox', 'VIP customer').states).toEqual([])
  })

  test('waitForChange: changed at the next act on the window, timeout when nothing happens', async () => {
    // The fake stands for Windows: it wakes waiters of a window when an act changes it.
    const { driver } = windowsDriver()
    expect(await driver.waitForChange(WINDOWS.notepad, 50)).toBe('timeout')
    const { root } = await driver.snapshot(WINDOWS.notepad)
    const waiting = driver.waitForChange(WINDOWS.notepad, 10_000)
    await driver.act(WINDOWS.notepad, {
      kind: 'fill',
      ref: find(root, 'textbox', 'Text Editor').ref,
      value: 'Hi',
    })
    expect(await waiting).toBe('changed')
  })

  test('a ref from an older snapshot is STALE_REF (retryable); a disabled button ELEMENT_DISABLED', async () => {
    // The fake stands for Windows: each snapshot numbers its refs anew, as refs are only valid for the latest.
    const { driver } = windowsDriver()
    const first = await driver.snapshot(WINDOWS.winforms)
    await driver.snapshot(WINDOWS.winforms)
    const stale = await failure(
      driver.act(WINDOWS.winforms, { kind: 'click', ref: find(first.root, 'button', 'Save').ref }),
    )
    expect(stale.code).toBe('STALE_REF')
    expect(stale.retryable).toBe(true)
    const { root } = await driver.snapshot(WINDOWS.winforms)
    const disabled = await failure(
      driver.act(WINDOWS.winforms, { kind: 'click', ref: find(root, 'button', 'Delete').ref }),
    )
    expect(disabled.code).toBe('ELEMENT_DISABLED')
  })

  test('an elevated window is listed but its content is ACCESS_DENIED, a typed error no retry cures', async () => {
    // The fake stands for Windows: UIPI keeps an elevated app's elements from a non-elevated agent.
    const { driver } = windowsDriver()
    expect((await driver.listWindows()).map((w) => w.title)).toContain('Registry Editor')
    const denied = await failure(driver.snapshot(WINDOWS.elevated))
    expect(denied.code).toBe('ACCESS_DENIED')
    expect(denied.message).toContain('elevated')
    expect(denied.retryable).toBe(false)
    // The helper stays up: the next window is read as usual.
    expect((await driver.snapshot(WINDOWS.notepad)).window.title).toBe('Untitled - Notepad')
  })

  test('a hung helper fails the call HELPER_TIMEOUT; a new helper answers the next one', async () => {
    // The fake stands for Windows: asked to, it never answers the next snapshot.
    const { driver, host, fault } = windowsDriver(800)
    const before = await driver.snapshot(WINDOWS.notepad)
    const hungPid = host.pid
    await fault({ on: 'snapshot', fault: 'hang' })
    const error = await failure(driver.snapshot(WINDOWS.notepad))
    expect(error.code).toBe('HELPER_TIMEOUT')
    expect(error.message).toContain('snapshot')
    // The host starts the next helper once the hung one is gone.
    await eventually(async () => host.instance === 2, 5_000)
    const after = await driver.snapshot(WINDOWS.notepad)
    expect(host.pid).not.toBe(hungPid)
    expect(host.instance).toBe(2)
    expect(after.root.children.map(line)).toEqual(before.root.children.map(line))
    // A ref from the killed helper points at nothing in the new one.
    const old = find(before.root, 'textbox', 'Text Editor').ref
    expect((await failure(driver.act(WINDOWS.notepad, { kind: 'read', ref: old }))).code).toBe('STALE_REF')
  })

  test('a helper that crashes mid-call fails it HELPER_CRASHED with its last words; the next call works', async () => {
    // The fake stands for Windows: asked to, it exits in the middle of the next act.
    const { driver, host, fault } = windowsDriver()
    const { root } = await driver.snapshot(WINDOWS.wpf)
    const firstPid = host.pid
    await fault({ on: 'act', fault: 'crash' })
    const error = await failure(
      driver.act(WINDOWS.wpf, { kind: 'click', ref: find(root, 'button', 'Save').ref }),
    )
    expect(error.code).toBe('HELPER_CRASHED')
    expect(error.message).toContain('COMException')
    const again = await driver.snapshot(WINDOWS.wpf)
    expect(host.pid).not.toBe(firstPid)
    await driver.act(WINDOWS.wpf, { kind: 'click', ref: find(again.root, 'button', 'Save').ref })
  })

  test('errors the helper names pass on typed: ACCESS_DENIED from an act, WINDOW_NOT_FOUND', async () => {
    // The fake stands for Windows: an app elevated after the snapshot refuses the act.
    const { driver, fault } = windowsDriver()
    const { root } = await driver.snapshot(WINDOWS.win32)
    await fault({ on: 'act', fault: 'error', code: 'ACCESS_DENIED', message: 'The app runs elevated now' })
    const denied = await failure(
      driver.act(WINDOWS.win32, { kind: 'click', ref: find(root, 'button', 'OK').ref }),
    )
    expect([denied.code, denied.message]).toEqual(['ACCESS_DENIED', 'The app runs elevated now'])
    expect((await failure(driver.snapshot('0xDEAD@1'))).code).toBe('WINDOW_NOT_FOUND')
  })
})

describe('the embedded helper, extracted to the state dir', () => {
  test('written once, left alone while its SHA-256 matches, rewritten when it differs', () => {
    // No fake needed: a file stands for uia-helper.exe (the copying is the same on Windows).
    const dir = tempDir('deskhook-uia-extract-')
    try {
      const source = join(dir.path, 'embedded.exe')
      writeFileSync(source, 'MZ version 1')
      const path = extractUiaHelper(join(dir.path, 'state'), source)
      expect(path).toBe(join(dir.path, 'state', 'helpers', 'uia', 'uia-helper.exe'))
      expect(readFileSync(path, 'utf8')).toBe('MZ version 1')
      const written = statSync(path).mtimeMs
      expect(extractUiaHelper(join(dir.path, 'state'), source)).toBe(path)
      expect(statSync(path).mtimeMs).toBe(written)
      // Damaged (or tampered with) on disk: the agent's own copy replaces it.
      writeFileSync(path, 'MZ tampered')
      extractUiaHelper(join(dir.path, 'state'), source)
      expect(readFileSync(path, 'utf8')).toBe('MZ version 1')
      // An upgraded agent brings another helper.
      writeFileSync(source, 'MZ version 2')
      extractUiaHelper(join(dir.path, 'state'), source)
      expect(readFileSync(path, 'utf8')).toBe('MZ version 2')
    } finally {
      dir.remove()
    }
  })
})

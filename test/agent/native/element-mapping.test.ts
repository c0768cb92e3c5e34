import { describe, expect, test } from 'bun:test'
import { ATSPI_PROFILE } from '../../../src/agent/drivers/linux/atspi-roles.ts'
import { mapWindowTree } from '../../../src/agent/drivers/native/element-mapping.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { HelperNode, HelperResult } from '../../../src/protocol/helper.ts'
import page2 from '../../fixtures/native/widget-factory-page2.json'
import page3 from '../../fixtures/native/widget-factory-page3.json'
import yadForm from '../../fixtures/native/yad-form.json'

/** The shared native mapping over snapshots the real AT-SPI helper recorded (test/fixtures/native). */
type Recorded = HelperResult<'snapshot'>

function map(recorded: Recorded, origin = recorded.window.bounds ?? { x: 0, y: 0 }): UiElement {
  return mapWindowTree(recorded.root, recorded.window.title, {
    profile: ATSPI_PROFILE,
    origin,
    ref: (r) => `9/${r}`,
  })
}
const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const node = (role: string, name: string, extra: Partial<HelperNode> = {}): HelperNode => ({
  ref: `1:${role}-${name}`,
  role,
  name,
  states: [],
  children: [],
  ...extra,
})

describe('mapping AT-SPI trees into the element model', () => {
  test('a check menu item or toggle button says it switches (checkable); a check box does not need to', () => {
    const root = mapWindowTree(
      node('frame', 'Editor', {
        children: [
          node('menu bar', '', {
            children: [
              node('menu', 'View', {
                children: [
                  node('check menu item', 'Show Toolbar', { states: ['checkable', 'checked'] }),
                  node('menu item', 'Zoom In'),
                ],
              }),
            ],
          }),
          node('toggle button', 'Bold', { states: ['checkable', 'checked'] }),
          node('push button', 'Save'),
          node('check box', 'Remember me', { states: ['checkable'] }),
        ],
      }),
      'Editor',
      { profile: ATSPI_PROFILE, origin: { x: 0, y: 0 }, ref: (r) => r },
    )
    const states = Object.fromEntries(flat(root).map((e) => [e.name, e.states]))
    expect(states['Show Toolbar']).toEqual(['checked', 'checkable'])
    expect(states['Zoom In']).toEqual([])
    expect(states.Bold).toEqual(['pressed', 'checkable'])
    expect(states.Save).toEqual([])
    expect(states['Remember me']).toEqual([])
  })

  test('a yad form: layout dissolves, fields take their labels, reading order puts each label first', () => {
    const root = map(yadForm as Recorded)
    expect(root).toMatchObject({ role: 'window', name: 'New customer', ref: '9/1:0' })
    expect(root.children.map((e) => `${e.role}:${e.name}`)).toEqual([
      'text:Name',
      'textbox:Name',
      'text:Email',
      'textbox:Email',
      'text:Country',
      'combobox:Country',
      'checkbox:VIP',
      'text:Age',
      'spinbutton:Age',
      'button:Cancel',
      'button:OK',
    ])
    const combo = root.children.find((e) => e.role === 'combobox')!
    expect(combo.value).toBe('France')
    expect(combo.children.map((o) => [o.role, o.name, o.states])).toEqual([
      ['option', 'France', ['selected']],
      ['option', 'Germany', []],
      ['option', 'Italy', []],
    ])
  })

  test('menus, the status bar and toolbar buttons of a GTK window', () => {
    const all = flat(map(page2 as Recorded))
    const bar = all.find((e) => e.role === 'menubar')!
    expect(bar.children.map((m) => `${m.role}:${m.name}`)).toEqual([
      'menuitem:File',
      'menuitem:Edit',
      'menuitem:View',
      'menuitem:Help',
    ])
    expect(all.find((e) => e.role === 'status')?.name).toBe('All systems are operating normally.')
    const toolbar = all.find((e) => e.role === 'toolbar' && e.children.some((b) => b.name === 'Save'))!
    expect(toolbar.children.map((b) => b.name)).toEqual(['New', 'Save', 'Search', 'Insert'])
  })

  test('a tree view becomes rows of cells under a header row, which read-rows turns into records', () => {
    const table = flat(map(page3 as Recorded)).find(
      (e) => e.role === 'table' && e.children[0]?.children[0]?.name === 'Name',
    )!
    expect(table.children[0]!.children.map((h) => h.role)).toEqual([
      'columnheader',
      'columnheader',
      'columnheader',
    ])
    expect(table.children.every((row) => row.role === 'row')).toBe(true)
    const rows = readRows(table)
    expect(rows.slice(0, 2)).toEqual([
      { Name: 'Charlemagne', Birth: '742', Death: '814' },
      { Name: 'Pepin the Short', Birth: '714', Death: '768' },
    ])
    // Rows scrolled out of view are still rows, without a place on screen.
    const attila = table.children.find((row) => row.name.startsWith('Attila'))!
    expect(attila.children.map((c) => c.name)).toEqual(['Attila the Hun', 'ca. 390', '453'])
  })

  test('a tree of cells in columns (a Qt item view) is a table; hidden columns’ headers are left out', () => {
    const box = (x: number, y: number) => ({ bounds: { x, y, width: 80, height: 30 } })
    const cell = (name: string, row: number, column: number, x: number) =>
      node('table cell', name, { row, column, ...box(x, 40 + 30 * row) })
    const root = mapWindowTree(
      node('frame', 'Passwords', {
        children: [
          node('tree', '', {
            columns: ['Group', 'Title', 'Username', 'Password', 'URL'],
            children: [
              node('table column header', 'Group'),
              node('table column header', 'Title', box(0, 0)),
              node('table column header', 'Username', box(80, 0)),
              node('table column header', 'Password'),
              node('table column header', 'URL', box(160, 0)),
              cell('Bank', 0, 1, 0),
              cell('amorgan', 0, 2, 80),
              cell('https://bank.example', 0, 4, 160),
              cell('Webmail', 1, 1, 0),
              cell('alice', 1, 2, 80),
              cell('https://mail.example', 1, 4, 160),
            ],
          }),
        ],
      }),
      'Passwords',
      { profile: ATSPI_PROFILE, origin: { x: 0, y: 0 }, ref: (r) => r },
    )
    const table = flat(root).find((e) => e.role === 'table')!
    expect(table.children.map((r) => r.role)).toEqual(['row', 'row', 'row'])
    expect(readRows(table)).toEqual([
      { Title: 'Bank', Username: 'amorgan', URL: 'https://bank.example' },
      { Title: 'Webmail', Username: 'alice', URL: 'https://mail.example' },
    ])
  })

  test('bounds are window pixels: screen position minus the window origin', () => {
    const recorded = structuredClone(yadForm) as Recorded
    const moved = map(recorded, { x: -100, y: -50 })
    const ok = flat(moved).find((e) => e.name === 'OK')!
    const original = flat(map(recorded)).find((e) => e.name === 'OK')!
    expect(ok.bounds).toEqual({
      ...original.bounds!,
      x: original.bounds!.x + 100,
      y: original.bounds!.y + 50,
    })
  })

  test('names: own name first, else the labelled-by label; combo boxes are named by their label, not their selection', () => {
    const root = node('frame', 'Form', {
      children: [
        node('text', '', { labelledBy: 'Customer name', states: ['editable'], value: 'Ada' }),
        node('combo box', 'Normal', {
          labelledBy: 'Priority',
          children: [node('option', 'Low'), node('option', 'Normal', { states: ['selected'] })],
        }),
        node('combo box', 'Shipping', { children: [node('option', 'Express', { states: ['selected'] })] }),
        node('password text', '', { labelledBy: 'Password', states: ['editable'], value: '' }),
      ],
    })
    const [entry, combo, named, password] = mapWindowTree(root, 'Form', {
      profile: ATSPI_PROFILE,
      origin: { x: 0, y: 0 },
      ref: (r) => r,
    }).children
    expect([entry!.role, entry!.name, entry!.value]).toEqual(['textbox', 'Customer name', 'Ada'])
    expect([combo!.name, combo!.value]).toEqual(['Priority', 'Normal'])
    expect([named!.name, named!.value]).toEqual(['Shipping', 'Express'])
    expect([password!.role, password!.inputType]).toEqual(['textbox', 'password'])
  })

  test('states: toggle buttons are pressed, non-editable text boxes read-only, mixed and disabled kept', () => {
    const root = node('frame', 'W', {
      children: [
        node('toggle button', 'Bold', { states: ['checked'] }),
        node('text', '', { states: [], text: 'Terms and conditions…' }),
        node('check box', 'All', { states: ['indeterminate', 'disabled'] }),
      ],
    })
    const [toggle, text, box] = mapWindowTree(root, 'W', {
      profile: ATSPI_PROFILE,
      origin: { x: 0, y: 0 },
      ref: (r) => r,
    }).children
    // A toggle button switches on and off by its role alone (GTK sets no checkable state on it).
    expect(toggle!.states).toEqual(['pressed', 'checkable'])
    expect([text!.name, text!.value, text!.states]).toEqual(['', 'Terms and conditions…', ['readonly']])
    expect(box!.states.sort()).toEqual(['disabled', 'mixed'])
  })

  test('states: a tree’s node that can open says whether it is open (expanded) or shut (collapsed)', () => {
    const root = node('frame', 'W', {
      children: [
        node('tree table', '', {
          children: [
            node('table cell', 'Party', { states: ['expandable'] }),
            node('table cell', 'Sales', { states: ['expandable', 'expanded'] }),
            node('table cell', 'Parties', { states: [] }),
          ],
        }),
      ],
    })
    const cells = flat(
      mapWindowTree(root, 'W', { profile: ATSPI_PROFILE, origin: { x: 0, y: 0 }, ref: (r) => r }),
    )
      .filter((e) => e.role === 'cell')
      .map((e) => [e.name, e.states])
    expect(cells).toEqual([
      ['Party', ['collapsed']],
      ['Sales', ['expanded']],
      ['Parties', []],
    ])
  })

  test('a container with a click action is a button; one with only text reads as that text', () => {
    const root = node('frame', 'W', {
      children: [
        node('panel', '', { actions: ['click'], children: [node('label', 'Open record')] }),
        node('filler', '', { children: [node('label', 'Total:'), node('label', '42.00')] }),
      ],
    })
    const [clickable, text] = mapWindowTree(root, 'W', {
      profile: ATSPI_PROFILE,
      origin: { x: 0, y: 0 },
      ref: (r) => r,
    }).children
    expect([clickable!.role, clickable!.children.map((c) => c.name)]).toEqual(['button', ['Open record']])
    expect([text!.role, text!.name]).toEqual(['text', 'Total: 42.00'])
  })
})

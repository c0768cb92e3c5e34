// A window most of which shows nothing to the accessibility interface (a spreadsheet's grid drawn
// by the app itself) is said plainly, not explored for minutes (issue 24 §7). The screens are
// written out as a toolkit's tree reads them; no desktop needed.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { blindArea } from '../../src/builder/explore/blind-area.ts'
import type { Bounds, UiElement } from '../../src/protocol/elements.ts'

let refs = 0
const el = (role: UiElement['role'], name: string, bounds: Bounds, children: UiElement[] = []) =>
  ({ ref: `e${++refs}`, role, name, bounds, states: [], children }) as UiElement
const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height })

describe('a part of the window nothing can be read of', () => {
  test('a spreadsheet: a grid panel holding only two tiny unnamed labels is blind', () => {
    const grid = el('tabpanel', '', box(0, 172, 1440, 689), [
      el('text', '', box(1426, 172, 14, 21)),
      el('text', '', box(0, 842, 48, 19)),
    ])
    const root = el('window', 'stock.gnumeric', box(0, 0, 1440, 900), [
      el('menubar', '', box(0, 0, 1440, 30), [el('menuitem', 'File', box(0, 0, 40, 30))]),
      el('textbox', '', box(4, 137, 169, 35)),
      grid,
      el('tab', 'Stock', box(0, 861, 80, 20)),
    ])
    expect(blindArea(root)).toEqual(grid.bounds)
  })

  test('a text editor’s page is its text box; a form full of fields; a small empty panel: none is blind', () => {
    const editor = el('window', 'notes.txt', box(0, 0, 640, 480), [
      el('tabpanel', '', box(1, 56, 638, 421), [el('textbox', '', box(1, 56, 638, 421))]),
    ])
    expect(blindArea(editor)).toBeUndefined()
    const form = el('window', 'New customer', box(0, 0, 400, 300), [
      el('generic', '', box(0, 0, 400, 260), [
        el('text', 'Name', box(10, 10, 80, 20)),
        el('textbox', 'Name', box(100, 10, 280, 24)),
        el('text', 'Address', box(10, 50, 80, 20)),
        el('textbox', 'Address', box(100, 50, 280, 200)),
      ]),
    ])
    expect(blindArea(form)).toBeUndefined()
    const spacer = el('window', 'Tool', box(0, 0, 400, 300), [
      el('generic', '', box(0, 0, 400, 40)),
      el('list', 'Items', box(0, 40, 400, 260)),
    ])
    expect(blindArea(spacer)).toBeUndefined()
  })

  test('recorded desktop screens with tabs, menus and a calendar drawn by the app are not blind', async () => {
    // Osmo's first screen: most of it is a calendar, around tabs and buttons that lead on.
    for (const name of ['osmo-calendar', 'osmo-contacts', 'homebank-main']) {
      const snapshot = await Bun.file(join(import.meta.dir, 'native-snapshots', `${name}.json`)).json()
      expect(blindArea(snapshot.root), name).toBeUndefined()
    }
  })
})

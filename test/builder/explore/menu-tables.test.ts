// A menu drawn as a table (an app's sections as a tree of rows, as desktop-like web clients draw
// them): rows of one name each, no headers, no controls. Its cells are ways on; a data table's
// cells (headers, several values a row) and a form laid out in a table are not.
import { expect, test } from 'bun:test'
import { menuEntries } from '../../../src/builder/explore/explore-frontier.ts'
import { el } from '../../helpers/elements.ts'

const row = (...cells: string[]) =>
  el(
    'row',
    '',
    cells.map((c) => el('cell', c)),
  )

test('a table of one name a row is a menu; a data table and a form table are not', () => {
  const menu = el('table', '', [row('', 'Party', ''), row('', 'Parties', ''), row('', 'Administration', '')])
  const data = el('table', 'Parties', [
    el('row', '', [el('columnheader', 'Code'), el('columnheader', 'Name')]),
    row('C1001', 'Northwind Traders'),
  ])
  const form = el('table', '', [
    el('row', '', [el('cell', 'Name'), el('cell', '', [el('textbox', 'Name')])]),
    el('row', '', [el('cell', 'Email'), el('cell', '', [el('textbox', 'Email')])]),
  ])
  const root = el('window', 'Tryton', [menu, data, form])
  expect(menuEntries(root).map((e) => e.name)).toEqual(['Party', 'Parties', 'Administration'])
})

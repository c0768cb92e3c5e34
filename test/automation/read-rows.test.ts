// `read` with `source: rows` over element trees shaped like the browser driver's snapshots.
import { describe, expect, test } from 'bun:test'
import { readRows } from '../../src/automation/read-rows.ts'
import type { UiElement } from '../../src/protocol/elements.ts'
import { el } from '../helpers/elements.ts'

const header = (...names: string[]) =>
  el(
    'row',
    names.join(' '),
    names.map((h) => el('columnheader', h)),
  )
const row = (...cells: (string | UiElement)[]) =>
  el(
    'row',
    '',
    cells.map((c) => (typeof c === 'string' ? el('cell', c) : el('cell', '', [c]))),
  )

const tickets = el('table', 'Tickets', [
  // Grid libraries wrap header and body rows in groups that the snapshot keeps as generic.
  el('generic', '', [header('Ticket #', 'Sujet', 'Statut')], { automationId: 'thead' }),
  el('generic', '', [
    row(el('link', 'T-1', [], { href: 'http://app/t/1' }), 'Printer jam', 'Open'),
    row('T-2', 'VPN', 'Closed'),
  ]),
])

describe('readRows on tables', () => {
  test('one object per data row keyed by the header texts', () => {
    expect(readRows(tickets)).toEqual([
      { 'Ticket #': 'T-1', Sujet: 'Printer jam', Statut: 'Open' },
      { 'Ticket #': 'T-2', Sujet: 'VPN', Statut: 'Closed' },
    ])
  })

  test('columns map output keys to headers, compared without case, accents or punctuation', () => {
    expect(readRows(tickets, { id: 'ticket', subject: 'SUJET', status: 'statut:' })).toEqual([
      { id: 'T-1', subject: 'Printer jam', status: 'Open' },
      { id: 'T-2', subject: 'VPN', status: 'Closed' },
    ])
    expect(readRows(tickets, { état: 'Statut' })[0]).toEqual({ état: 'Open' })
  })

  test('a column the table lacks is an error that lists the headers', () => {
    expect(() => readRows(tickets, { owner: 'Owner' })).toThrow(
      'The table has no column "Owner" (for "owner"); its headers are: "Ticket #", "Sujet", "Statut"',
    )
  })

  test('a table with only its header row reads as []', () => {
    expect(readRows(el('table', 'Empty', [header('Name', 'Email')]))).toEqual([])
  })

  test('without headers, columns are numbered; controls in cells give their values', () => {
    const table = el('table', '', [row('a', el('textbox', 'Qty', [], { value: '3' }))])
    expect(readRows(table)).toEqual([{ column1: 'a', column2: '3' }])
  })

  test('a container around a table reads as the table; other elements are refused', () => {
    expect(readRows(el('generic', 'Card', [tickets]))).toHaveLength(2)
    expect(() => readRows(el('button', 'Save'))).toThrow('button "Save" is not a table, grid or list')
  })
})

describe('readRows on lists', () => {
  test('one {text, href?} per item, links giving their absolute href; nested lists stay inside their item', () => {
    const list = el('list', 'Results', [
      el('listitem', 'Ada Lovelace', [el('link', 'Ada Lovelace', [], { href: 'http://app/c/1' })]),
      el('listitem', 'Grace Hopper', [el('list', '', [el('listitem', 'nested')])]),
      el('listitem', '', [el('text', 'No link')]),
    ])
    expect(readRows(list)).toEqual([
      { text: 'Ada Lovelace', href: 'http://app/c/1' },
      { text: 'Grace Hopper' },
      { text: 'No link' },
    ])
  })
})

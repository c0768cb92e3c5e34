// An ending is evidence only when its condition did not already hold before the submit (issue
// 24: a spreadsheet's save dropped the "*" of its title, the title then "appeared", and every
// live call passed while writing nothing). The screens are written out; no desktop needed.
import { describe, expect, test } from 'bun:test'
import { classifyEnding } from '../../src/builder/observe/classify.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

let refs = 0
const el = (role: UiElement['role'], name: string, children: UiElement[] = []) =>
  ({ ref: `e${++refs}`, role, name, states: [], children }) as UiElement

const sheet = (title: string, extra: UiElement[] = []) =>
  el('window', title, [el('toolbar', '', [el('button', 'Save'), el('textbox', 'B4')]), ...extra])

describe('what a submit’s ending must show', () => {
  test('a title that only lost its “modified” mark is no evidence: no ending', () => {
    expect(
      classifyEnding(
        sheet('*stock.gnumeric - Gnumeric'),
        sheet('stock.gnumeric - Gnumeric'),
        [],
        ['B3', '42'],
      ),
    ).toBeUndefined()
  })

  test('a new title, or a message that was not there, is', () => {
    const retitled = classifyEnding(sheet('New invoice'), sheet('Invoice 1042'), [], ['42'])
    expect(retitled?.message).toBe('Invoice 1042')
    const saved = classifyEnding(
      sheet('Stock'),
      sheet('Stock', [el('status', 'Saved stock.gnumeric')]),
      [],
      [],
    )
    expect(saved?.message).toBe('Saved stock.gnumeric')
  })
})

describe('a record added from another window', () => {
  test('the row showing what the caller sent, that appeared in the main window, is the ending', () => {
    const tree = (rows: string[]) =>
      el('window', 'books.gnucash - Accounts', [
        el(
          'table',
          'Accounts',
          rows.map((name) => el('row', `${name} $0.00`, [el('cell', name), el('cell', '$0.00')])),
        ),
      ])
    const ending = classifyEnding(
      tree(['Expenses', 'Rent']),
      tree(['Expenses', 'Rent', 'Software Subscriptions']),
      [],
      ['Software Subscriptions', 'Expenses'],
    )
    expect(ending?.message).toBe('Software Subscriptions $0.00')
    // A row of the same name already there is nothing new.
    expect(classifyEnding(tree(['Rent']), tree(['Rent']), [], ['Rent'])).toBeUndefined()
  })
})

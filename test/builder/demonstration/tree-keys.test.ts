// Keys in a demonstration: those that only edit text or move the cursor are left out (the values
// they lead to are recorded by themselves); an arrow key that opens or closes a tree's node (a
// menu tree's "Party" → its entries, in Tryton's client) is the way to what follows and is kept.
import { expect, test } from 'bun:test'
import { type Act, editingKey } from '../../../src/builder/demonstrate/recorded-actions.ts'
import type { UiElement, UiState } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'

const element = (role: UiElement['role'], name: string, states: UiState[] = []) =>
  el(role, name, [], { states })
const key = (k: string, on?: UiElement): Act =>
  ({ action: { kind: 'key', key: k, before: 0 }, ...(on ? { element: on } : {}) }) as unknown as Act

test('an arrow key on a tree node that opens or closes is no edit', () => {
  expect(editingKey(key('shift+ArrowRight', element('cell', 'Party', ['collapsed'])))).toBe(false)
  expect(editingKey(key('ArrowLeft', element('treeitem', 'Party', ['expanded'])))).toBe(false)
})

test('an arrow key on a tree view whose current row opens is no edit either (the view keeps the focus)', () => {
  const row = {
    ...element('row', 'Party', ['selected']),
    children: [element('cell', 'Party', ['collapsed'])],
  }
  const tree = { ...element('table', ''), children: [row, element('row', 'Sales')] }
  expect(editingKey(key('shift+ArrowRight', tree))).toBe(false)
  const plain = { ...element('table', ''), children: [element('row', 'Sales', ['selected'])] }
  expect(editingKey(key('ArrowRight', plain))).toBe(true)
  // A focused view is no current row: nodes elsewhere in it do not make its arrow keys open one.
  const focused = {
    ...element('tree', '', ['focused']),
    children: [element('treeitem', 'Party', ['collapsed']), element('treeitem', 'Sales', ['selected'])],
  }
  expect(editingKey(key('ArrowRight', focused))).toBe(true)
})

test('keys that edit text or move the cursor are edits, on a node too when they do not open it', () => {
  expect(editingKey(key('ArrowRight', element('textbox', 'Name')))).toBe(true)
  expect(editingKey(key('Backspace', element('textbox', 'Name')))).toBe(true)
  expect(editingKey(key('ArrowDown', element('cell', 'Party', ['collapsed'])))).toBe(true)
  expect(editingKey(key('ArrowRight'))).toBe(true)
  expect(editingKey(key('Enter', element('cell', 'Party', ['collapsed'])))).toBe(false)
})

// A desktop app's record window that is not modal (GnuCash's "New Account", titled after what is
// typed into it) closing on OK is the ending, as a modal dialog's closing is: the new account went
// under a collapsed parent, so no row showing it appeared. The snapshots are GnuCash's own, read
// through AT-SPI by the native driver in a demonstration (test/builder/native-snapshots/).
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { indexTree } from '../../../src/automation/element-tree.ts'
import { evaluateCondition } from '../../../src/automation/index.ts'
import { inputTexts } from '../../../src/builder/generalise.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { closedDialog } from '../../../src/builder/observe/closed-dialog.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'

const snapshot = async (name: string) =>
  (await Bun.file(join(import.meta.dir, '..', 'native-snapshots', `${name}.json`)).json()) as Snapshot

const inputs = inputTexts({ name: 'Software Subscriptions', parent: 'Expenses' })
const find = (root: UiElement, role: string, name: string) =>
  indexTree(root).all.find((e) => e.role === role && e.name === name)!

/** The same screen with the record window titled after other values (the next call's). */
function retitled(root: UiElement, from: string, to: string): UiElement {
  return JSON.parse(JSON.stringify(root).split(from).join(to)) as UiElement
}

test('the non-modal “New Account” window that held the fields closing is the success', async () => {
  const before = (await snapshot('gnucash-new-account')).root
  const after = (await snapshot('gnucash-account-added')).root
  const window = find(before, 'dialog', 'New Account - Expenses:Software Subscriptions')
  expect(window.states).not.toContain('modal')
  // The parent was picked in the main window's table, which is still there.
  const fields = [find(before, 'textbox', 'Account name'), find(before, 'cell', 'Expenses')]
  const ending = classifyEnding(before, after, fields, inputs)!
  expect(ending).toMatchObject({ kind: 'screen', name: 'New Account done', message: '“New Account” closed' })
  expect(ending.condition.kind).toBe('disappears')
  expect(evaluateCondition(after, ending.condition, {}).holds).toBe(true)
  expect(evaluateCondition(before, ending.condition, {}).holds).toBe(false)
  // The next call's window is titled after its own values: still open, it is still seen.
  const another = retitled(before, 'Expenses:Software Subscriptions', 'Income:Interest Income')
  expect(evaluateCondition(another, ending.condition, {}).holds).toBe(false)
})

test('a non-modal window that did not hold the fields is no evidence when it closes', async () => {
  const before = (await snapshot('gnucash-new-account')).root
  const after = (await snapshot('gnucash-account-added')).root
  // Fields somewhere else (the main window's own): the record window going away says nothing.
  const elsewhere = [find(before, 'button', 'New')]
  expect(classifyEnding(before, after, elsewhere, inputs)?.name).not.toBe('New Account done')
})

test('a record window still open under a new title did not close', async () => {
  const before = (await snapshot('gnucash-new-account')).root
  // Its title no longer matches (the name box was emptied), but its own fields still show.
  const stillOpen = retitled(
    before,
    'New Account - Expenses:Software Subscriptions',
    'New Account - Expenses:',
  )
  const fields = [find(before, 'textbox', 'Account name')]
  expect(closedDialog(before, stillOpen, fields, inputs)).toBeUndefined()
  const after = (await snapshot('gnucash-account-added')).root
  expect(closedDialog(before, after, fields, inputs)?.name).toBe(
    'New Account - Expenses:Software Subscriptions',
  )
})

test('a window named by nothing but the caller’s values is no evidence: its name would match any dialog', async () => {
  const before = retitled(
    (await snapshot('gnucash-new-account')).root,
    'New Account - Expenses:Software Subscriptions',
    'Software Subscriptions',
  )
  const after = (await snapshot('gnucash-account-added')).root
  const fields = [find(before, 'textbox', 'Account name')]
  expect(closedDialog(before, after, fields, inputs)).toBeUndefined()
})

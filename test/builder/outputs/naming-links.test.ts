// A list of the records' names ("subjects", "titles") from a table with no column named so, whose
// rows run the sender, the date and the subject together in one cell (a mail client's message
// list in its narrow layout): each row's one link, the one that opens the record, is its name.
import { describe, expect, test } from 'bun:test'
import { findMatches, indexTree } from '../../../src/automation/index.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { expectedReads, type OutputContext } from '../../../src/builder/outputs/outputs.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'

let refs = 0
const el = (role: UiElement['role'], name: string, children: UiElement[] = []): UiElement => ({
  ref: `r${++refs}`,
  role,
  name,
  states: [],
  children,
})
const message = (from: string, date: string, subject: string, links = [subject]) =>
  el('row', '', [
    el('cell', `${from} ${date} ${subject}`, [
      el('text', from),
      el('text', date),
      ...links.map((l) => el('link', l)),
    ]),
  ])
// The screen's frame stays as it was; the messages are what the click on a folder brought up.
const frame = el('heading', 'Office Webmail')
const screen = (rows: UiElement[]) =>
  el('window', 'Webmail :: Suppliers', [frame, el('table', 'Email Messages Listing', rows)])

function context(after: UiElement): OutputContext {
  const before = el('window', 'Webmail :: Inbox', [frame])
  const ending = classifyEnding(before, after, [], ['Suppliers'])
  if (!ending) throw new Error('no ending')
  return {
    ending,
    after,
    inputs: ['Suppliers'],
    reading: readPrompt('List the subjects of the mail in a folder'),
    submitLabel: 'Suppliers',
  }
}

describe('a list of names reads each row’s one link', () => {
  test('“subjects” reads the subject link of each row, not the row’s whole text', () => {
    const after = screen([
      message('Northwind Supplies', '2025-02-20 09:00', 'Price list for the second quarter'),
      message('Becker Logistics', '2025-02-24 10:30', 'New pallet rates'),
    ])
    const { steps, missing } = expectedReads(context(after), { subjects: { $type: 'array' } })
    expect(missing).toEqual([])
    const step = steps[0]! as Extract<(typeof steps)[number], { kind: 'read' }>
    expect(step.pluck).toBeDefined()
    const table = step.target!.fingerprints.flatMap((f) => findMatches(indexTree(after), f))[0]!
    const rows = readRows(table, step.columns, { parts: step.parts, pluck: step.pluck })
    expect(rows).toEqual(['Price list for the second quarter', 'New pallet rates'])
  })

  test('rows with two links, or a key that is not a name, keep the whole rows', () => {
    const two = screen([
      message('Northwind Supplies', '2025-02-20 09:00', 'Price list', ['Price list', 'Northwind Supplies']),
      message('Becker Logistics', '2025-02-24 10:30', 'New pallet rates', [
        'New pallet rates',
        'Becker Logistics',
      ]),
    ])
    const [twoLinks] = expectedReads(context(two), { subjects: { $type: 'array' } }).steps
    expect((twoLinks as { pluck?: string }).pluck).toBeUndefined()
    const one = screen([
      message('Northwind Supplies', '2025-02-20 09:00', 'Price list'),
      message('Becker Logistics', '2025-02-24 10:30', 'New pallet rates'),
    ])
    const [messages] = expectedReads(context(one), { messages: { $type: 'array' } }).steps
    expect((messages as { pluck?: string }).pluck).toBeUndefined()
    // "senderNames" asks for no record's name; one link shared by every row names none.
    const [senders] = expectedReads(context(one), { senderNames: { $type: 'array' } }).steps
    expect((senders as { pluck?: string }).pluck).toBeUndefined()
    const shared = screen([
      message('Northwind Supplies', '2025-02-20 09:00', 'Price list', ['Reply']),
      message('Becker Logistics', '2025-02-24 10:30', 'New pallet rates', ['Reply']),
    ])
    const [replies] = expectedReads(context(shared), { subjects: { $type: 'array' } }).steps
    expect((replies as { pluck?: string }).pluck).toBeUndefined()
  })
})

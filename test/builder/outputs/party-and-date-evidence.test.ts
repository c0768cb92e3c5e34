// Evidence for a message's outputs (docs/builder.md, "Outputs"), over element trees: a sender is
// read beside the header word “From”, and a date key with no label takes the one date shown in
// what appeared; two different dates stay a question.
import { describe, expect, test } from 'bun:test'
import { evidencedValues, labelMeansKey, meansDate } from '../../../src/builder/outputs/output-evidence.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'

let n = 0
const el = (role: UiElement['role'], name: string, children: UiElement[] = []): UiElement => ({
  ref: `r${++n}`,
  role,
  name,
  states: [],
  children,
})

/** A message view: its header, and a body that may mention another date. */
function message(body: string) {
  const from = el('text', 'From')
  const sender = el('link', 'Maria Keller')
  const on = el('text', 'on')
  const date = el('text', '2025-03-03 12:05')
  const header = el('generic', '', [el('heading', 'Invoice 2291'), from, sender, on, date])
  const text = el('text', body)
  const root = el('window', 'Mail', [header, text])
  // The date also showed before, in the result's row: it is not among what appeared.
  return { root, appeared: [from, sender, on, text], date, sender }
}

describe('a message’s sender and date', () => {
  test('“From” means the sender and “To” the recipient, not the other way round', () => {
    expect(labelMeansKey('From', 'sender')).toBe(true)
    expect(labelMeansKey('To', 'recipient')).toBe(true)
    expect(labelMeansKey('To', 'sender')).toBe(false)
    expect(labelMeansKey('From', 'recipient')).toBe(false)
  })

  test('keys that ask for a date, and one that asks for an identifier', () => {
    expect(['date', 'sentAt', 'receivedOn', 'time'].map(meansDate)).toEqual([true, true, true, true])
    expect(['dateId', 'sender', 'updated'].map(meansDate)).toEqual([false, false, false])
  })

  test('the sender beside “From”, and the one date shown beside what appeared', () => {
    const m = message('Payment within 30 days, please.')
    const sender = evidencedValues(m.root, m.appeared, 'sender', ['Invoice 2291'])
    expect(sender.map((f) => [f.token, f.label])).toEqual([['Maria Keller', 'From']])
    const date = evidencedValues(m.root, m.appeared, 'date', ['Invoice 2291'])
    expect(date.map((f) => f.element)).toEqual([m.date])
  })

  test('two different dates shown are two candidates (a question), never a pick', () => {
    const m = message('2025-03-20')
    const date = evidencedValues(m.root, m.appeared, 'date', ['Invoice 2291'])
    expect(new Set(date.map((f) => f.token))).toEqual(new Set(['2025-03-03 12:05', '2025-03-20']))
  })

  test('a number in words is no date, and an input value is never one', () => {
    const m = message('version 3 2024')
    expect(evidencedValues(m.root, m.appeared, 'date', ['Invoice 2291']).map((f) => f.token)).toEqual([
      '2025-03-03 12:05',
    ])
    expect(evidencedValues(m.root, m.appeared, 'date', ['2025-03-03 12:05'])).toEqual([])
  })
})

test('dates as people write them, and words that only look like one', () => {
  const shown = (text: string) => {
    const m = message('Thanks')
    const date = m.date
    date.name = text
    return evidencedValues(m.root, m.appeared, 'date', []).length === 1
  }
  for (const t of [
    '2025-03-03 12:05',
    '3.3.2025',
    '3 March 2025',
    'Mon, Mar 3, 2025 at 12:05 pm',
    '03/03/2025',
  ])
    expect(shown(t)).toBe(true)
  for (const t of ['Marketing 3 2025', 'version 3 2024', '12:05']) expect(shown(t)).toBe(false)
})

describe('a count is no identifier', () => {
  test('“Found 1 ticket”, “3 results”, “Watchers (0)” give no ticket number; “Ticket 12 created” does', () => {
    const texts = ['Found 1 ticket', '3 results', 'Watchers (0)', 'Ticket 12 created']
    const shown = texts.map((t) => el('heading', t))
    const root = el('window', 'Tracker', shown)
    const found = evidencedValues(root, shown, 'ticketNumber', [])
    expect(found.map((f) => f.token)).toEqual(['12'])
  })
})

describe('a generated id is none of the caller’s values', () => {
  test('“The item “MUG-001 Coffee mug” was added” gives no itemId; “Item 57 was added” does', () => {
    const label = el('text', 'The item “')
    const link = el('link', 'MUG-001 Coffee mug')
    const rest = el('text', '” was added successfully.')
    const made = el('text', 'Item 57 was added.')
    const shown = [label, link, rest, made]
    const root = el('window', 'Admin', [el('listitem', '', [label, link, rest]), made])
    const found = evidencedValues(root, shown, 'itemId', ['MUG-001', 'Coffee mug', 'Shelf A'])
    expect(found.map((f) => f.token)).toEqual(['57'])
  })
})

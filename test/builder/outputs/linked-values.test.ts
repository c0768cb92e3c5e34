// A record's value shown as a link to its own page ("Queue: IT Support", the queue's name linking
// to the queue): a literal `expect` finds it there, read by its caption, so a live call reads its
// own record's queue. A link that was on the screen before (a menu's "IT Support") is no value.
import { describe, expect, test } from 'bun:test'
import { findMatches, indexTree } from '../../../src/automation/index.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { exactRead, type OutputContext } from '../../../src/builder/outputs/outputs.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'

const menu = () => el('list', 'Queues', [el('link', 'IT Support'), el('link', 'General')])
const ticket = (queue: string) =>
  el('window', '#5: Password reset', [
    menu(),
    el('heading', '#5: Password reset'),
    el('generic', 'The Basics', [
      el('text', 'Status:'),
      el('text', 'open'),
      el('text', 'Queue:'),
      el('link', queue),
    ]),
  ])

/** What the outputs stage sees after a send: the screens before and after, the caller's input, the task. */
function sent(
  before: UiElement,
  after: UiElement,
  input: string,
  prompt: string,
  submitLabel: string,
): OutputContext {
  const ending = classifyEnding(before, after, [], [input])
  if (!ending) throw new Error('no ending')
  return { ending, after, inputs: [input], reading: readPrompt(prompt), submitLabel }
}

function context(after: UiElement): OutputContext {
  const before = el('window', 'RT at a glance', [menu(), el('heading', 'RT at a glance')])
  return sent(
    before,
    after,
    '5',
    'Look up the ticket with this number and return its subject, status and queue',
    'Open the ticket',
  )
}

describe('a value shown as a link', () => {
  test('the queue is read from the link after its caption, not from the menu’s link of that name', () => {
    const after = ticket('IT Support')
    const step = exactRead(context(after), 'queue', 'IT Support')
    expect(step).toBeDefined()
    const index = indexTree(after)
    const found = step!.target.fingerprints.flatMap((f) => findMatches(index, f))[0]!
    expect(found.role).toBe('link')
    expect(index.parent.get(found)!.name).toBe('The Basics')
    // Another ticket's queue, by the same selector.
    const other = ticket('General')
    const again = step!.target.fingerprints.flatMap((f) => findMatches(indexTree(other), f))[0]!
    expect(again.name).toBe('General')
  })

  test('the link right after its caption, when the screen before showed a link of that name too', () => {
    // RT at a glance lists the queues; the ticket's page shows its queue after "Queue:".
    const before = el('window', 'RT at a glance', [menu(), el('heading', 'RT at a glance')])
    const after = el('window', '#5: Password reset', [
      el('heading', '#5: Password reset'),
      el('generic', '', [
        el('generic', '', [el('text', 'Status:'), el('generic', '', [el('text', 'open')])]),
        el('generic', '', [el('text', 'Queue:'), el('generic', '', [el('link', 'IT Support')])]),
      ]),
    ])
    const ending = classifyEnding(before, after, [], ['5'])
    if (!ending) throw new Error('no ending')
    const ctx: OutputContext = {
      ending,
      after,
      inputs: ['5'],
      reading: readPrompt('Look up the ticket with this number and return its queue'),
      submitLabel: 'Open the ticket',
    }
    const step = exactRead(ctx, 'queue', 'IT Support')
    expect(step).toBeDefined()
    const found = step!.target.fingerprints.flatMap((f) => findMatches(indexTree(after), f))[0]
    expect(found?.name).toBe('IT Support')
    // Another ticket's page: its own queue, by the same selector.
    const other = JSON.parse(JSON.stringify(after).replaceAll('IT Support', 'General')) as UiElement
    const again = step!.target.fingerprints.flatMap((f) => findMatches(indexTree(other), f))[0]
    expect(again?.name).toBe('General')
  })

  test('a link that was there before the submit is not the value', () => {
    const after = el('window', '#5: Password reset', [menu(), el('heading', '#5: Password reset')])
    expect(exactRead(context(after), 'queue', 'IT Support')).toBeUndefined()
  })
})

describe('a value shown in a record form’s field', () => {
  // The form wraps each field in a box the screen names by what the field holds.
  const form = (city: string, typed: string) =>
    el('window', 'Parties', [
      el('combobox', 'Search', [], { value: typed }),
      el('generic', 'Addresses', [
        el('text', 'City:'),
        el('generic', city, [el('combobox', 'City:', [el('text', city)], { value: city })]),
      ]),
    ])
  const ctx = (after: UiElement): OutputContext =>
    sent(
      el('window', 'Parties', [el('combobox', 'Search', [], { value: 'Harbour Lights Cafe' })]),
      after,
      'Harbour Lights Cafe',
      'Look up the customer with this name and return their city',
      'Switch',
    )

  test('is read from the field by its label, not from the box around it', () => {
    const after = form('Whitby', 'Harbour Lights Cafe')
    const step = exactRead(ctx(after), 'city', 'Whitby')
    expect(step?.target.fingerprints[0]).toMatchObject({ by: 'role', role: 'combobox', name: 'City:' })
    const other = form('Alnwick', 'Fenwick Joinery')
    const found = step!.target.fingerprints.flatMap((f) => findMatches(indexTree(other), f))[0]
    expect(found?.value).toBe('Alnwick')
  })

  test('a field holding what the caller typed is no answer', () => {
    const after = el('window', 'Parties', [
      el('combobox', 'Search', [], { value: 'Harbour Lights Cafe' }),
      el('heading', 'Results'),
      el('text', 'Nothing found'),
    ])
    expect(exactRead(ctx(after), 'name', 'Harbour Lights Cafe')).toBeUndefined()
  })
})

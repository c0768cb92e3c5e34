// Issue 21, item 4: a list output reads whichever collection shows the rows (a table, a grid
// without headers, a list, a run of cards), chosen by evidence, mapped by headers or by the
// sample's example list; two collections with the same evidence are a question.
import { describe, expect, test } from 'bun:test'
import { resolveSelector } from '../../../src/automation/index.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { appeared } from '../../../src/builder/observe/ui-diff.ts'
import { findCollections, isPropertySheet, rowsRead } from '../../../src/builder/outputs/collections.ts'
import type { OutputContext } from '../../../src/builder/outputs/outputs.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'

const link = (name: string) => el('link', name, [], { href: `http://app/${encodeURIComponent(name)}` })
const header = (...names: string[]) =>
  el(
    'row',
    '',
    names.map((h) => el('columnheader', h)),
  )
const row = (...cells: (string | UiElement)[]) =>
  el(
    'row',
    '',
    cells.map((c) => (typeof c === 'string' ? el('cell', c) : el('cell', '', [c]))),
  )
const sidebar = () =>
  el('generic', 'Main menu', [
    el(
      'list',
      '',
      ['Tickets', 'Customers', 'Reports'].map((t) => el('listitem', '', [link(t)])),
    ),
  ])
const form = () =>
  el('form', 'Search', [el('textbox', 'Search tickets', [], { value: 'printer' }), el('button', 'Search')])

function context(before: UiElement, after: UiElement, inputs = ['printer']): OutputContext {
  // A screen whose only news is a list may be no ending to classify: the news is all outputs read.
  const ending = classifyEnding(before, after, [], inputs) ?? {
    kind: 'screen' as const,
    message: '',
    appeared: appeared(before, after),
    condition: { kind: 'appears' as const, target: { fingerprints: [] } },
    signature: '',
  }
  return {
    ending,
    after,
    inputs,
    reading: readPrompt('Search tickets and return the list'),
    submitLabel: 'Search',
  }
}
const window = (...children: UiElement[]) => el('window', 'Helpdesk', children)
const read = (ctx: OutputContext, step: ReturnType<typeof rowsRead>) => {
  if (!step?.target) throw new Error('no step')
  const found = resolveSelector(ctx.after, step.target)
  if (found.status !== 'found') throw new Error(found.status)
  return readRows(found.element, step.columns, { parts: step.parts, cards: step.cards, pluck: step.pluck })
}

// The results table: a selection checkbox column, header row, the search's hits.
const results = () =>
  el('table', '', [
    header('', 'Subject', 'Status', 'Priority'),
    row(el('checkbox', 'Select'), link('Printer broken'), 'New', 'High'),
    row(el('checkbox', 'Select'), link('Printer out of toner'), 'Open', 'Low'),
  ])
// Everything on the results page is new (a fresh page load), the menu too: only meaning decides.
const searched = () =>
  context(
    window(form()),
    window(sidebar(), form(), el('heading', 'Tickets'), el('text', '2 results'), results()),
  )

describe('a table of results', () => {
  test('{"$type":"array"}: the results table, not the menu; keys are the headers in camelCase', () => {
    const ctx = searched()
    const step = rowsRead(ctx, 'tickets', { $type: 'array' })
    expect(step).toMatchObject({
      source: 'rows',
      columns: { subject: 'Subject', status: 'Status', priority: 'Priority' },
    })
    expect(read(ctx, step)).toEqual([
      { subject: 'Printer broken', status: 'New', priority: 'High' },
      { subject: 'Printer out of toner', status: 'Open', priority: 'Low' },
    ])
    const [best] = findCollections(ctx, 'tickets')
    expect(best?.evidence.join('; ')).toContain('sample’s values')
  })

  test('an example list of objects maps keys to the columns that show its values, item by item', () => {
    const ctx = searched()
    const example = [
      { subject: 'Printer broken', state: 'New' },
      { subject: 'Printer out of toner', state: 'Open' },
    ]
    const step = rowsRead(ctx, 'tickets', example)
    expect(step?.columns).toEqual({ subject: 'Subject', state: 'Status' })
    expect(read(ctx, step)).toEqual([
      { subject: 'Printer broken', state: 'New' },
      { subject: 'Printer out of toner', state: 'Open' },
    ])
  })

  test('an example item the screen does not show as one row is no match', () => {
    const ctx = searched()
    expect(rowsRead(ctx, 'tickets', [{ subject: 'Printer broken', state: 'Open' }])).toBeUndefined()
    expect(rowsRead(ctx, 'tickets', [{ subject: 'Printer on fire' }])).toBeUndefined()
  })

  test('an example list of strings reads that column alone', () => {
    const ctx = searched()
    const step = rowsRead(ctx, 'subjects', ['Printer broken'])
    expect(step).toMatchObject({ columns: { subjects: 'Subject' }, pluck: 'subjects' })
    expect(read(ctx, step)).toEqual(['Printer broken', 'Printer out of toner'])
  })
})

describe('grids without headers and cards', () => {
  test('a message grid without a header row is mapped by cell positions from the example', () => {
    const grid = el('table', 'Messages', [
      row(el('checkbox', 'Select'), 'Alice', link('Printer broken'), 'Mar 3'),
      row(el('checkbox', 'Select'), 'Bob', link('Printer on fire'), 'Mar 4'),
    ])
    const ctx = context(window(form()), window(form(), grid))
    const step = rowsRead(ctx, 'messages', [{ from: 'Bob', subject: 'Printer on fire' }])
    expect(step?.parts).toEqual({ from: { cell: 2 }, subject: { cell: 3 } })
    expect(read(ctx, step)).toEqual([
      { from: 'Alice', subject: 'Printer broken' },
      { from: 'Bob', subject: 'Printer on fire' },
    ])
    // Without an example: the cells by position, the checkbox column left out.
    expect(rowsRead(ctx, 'messages', { $type: 'array' })?.parts).toEqual({
      column2: { cell: 2 },
      column3: { cell: 3 },
      column4: { cell: 4 },
    })
  })

  test('a run of article cards: titles and their links, or a part chosen by the example', () => {
    const card = (title: string, by: string) =>
      el('listitem', '', [el('heading', title, [link(title)]), el('text', by), el('text', 'Posted today')])
    const list = el('generic', '', [card('Printer tips', 'by Ada'), card('Printer history', 'by Grace')], {
      automationId: 'posts',
    })
    const ctx = context(window(sidebar(), form()), window(sidebar(), form(), el('heading', 'Posts'), list))
    const step = rowsRead(ctx, 'posts', { $type: 'array' })
    expect(step?.cards).toEqual({ role: 'listitem' })
    expect(read(ctx, step)).toEqual([
      { title: 'Printer tips', href: 'http://app/Printer%20tips', text: 'by Ada Posted today' },
      { title: 'Printer history', href: 'http://app/Printer%20history', text: 'by Grace Posted today' },
    ])
    const byExample = rowsRead(ctx, 'posts', [{ title: 'Printer tips', author: 'by Ada' }])
    expect(byExample?.parts).toEqual({ title: { role: 'heading', nth: 1 }, author: { role: 'text', nth: 1 } })
    expect(read(ctx, byExample)).toEqual([
      { title: 'Printer tips', author: 'by Ada' },
      { title: 'Printer history', author: 'by Grace' },
    ])
  })
})

describe('choosing by evidence', () => {
  test('two lists with the same evidence are a question: candidates come back, no read', () => {
    const list = (...items: string[]) =>
      el(
        'list',
        '',
        items.map((t) => el('listitem', '', [link(t)])),
      )
    const after = window(form(), list('Printer A', 'Printer B'), list('Printer C', 'Printer D'))
    const ctx = context(window(form()), after)
    expect(findCollections(ctx, 'results')).toHaveLength(2)
    expect(rowsRead(ctx, 'results', { $type: 'array' })).toBeUndefined()
    // Words that mean the key decide it.
    const named = window(
      form(),
      el('heading', 'Related'),
      list('Printer A'),
      el('heading', 'Results'),
      list('Printer C'),
    )
    const ctx2 = context(window(form()), named)
    expect(read(ctx2, rowsRead(ctx2, 'results', { $type: 'array' }))).toEqual([
      { text: 'Printer C', href: 'http://app/Printer%20C' },
    ])
  })

  test('a lone count is never a list, and nothing new is nothing to read', () => {
    const counted = window(form(), el('list', '', [el('listitem', '3 results')]))
    expect(rowsRead(context(window(form()), counted), 'results', { $type: 'array' })).toBeUndefined()
    const same = window(sidebar(), form())
    expect(rowsRead(context(window(sidebar(), form()), same), 'results', { $type: 'array' })).toBeUndefined()
  })
})

test('a table of one record’s fields (a caption and a value on each row, no column headers) is no list of records', () => {
  const before = window(el('button', 'Office NAS', [], { states: ['collapsed'] }))
  const sheet = el('table', '', [
    el('row', '', [el('rowheader', 'Address'), el('cell', 'dynamic')]),
    el('row', '', [el('rowheader', 'Folders'), el('cell', 'Invoices, Scans, Contracts')]),
    el('row', '', [el('rowheader', 'Last seen'), el('cell', 'Never')]),
  ])
  const after = window(el('button', 'Office NAS', [], { states: ['expanded'] }), sheet)
  expect(findCollections(context(before, after, ['Office NAS']), 'folders')).toEqual([])
  // Pointed at, its value is not a list either (ask-output.ts reads no rows of it).
  expect(isPropertySheet(sheet)).toBe(true)
  // The same rows under column headers are a list.
  const listed = el('table', '', [
    header('Device', 'Folders'),
    row('Office NAS', 'Invoices'),
    row('Laptop', 'Scans'),
  ])
  expect(findCollections(context(before, window(listed), ['Office NAS']), 'folders')).toHaveLength(1)
  expect(isPropertySheet(listed)).toBe(false)
})

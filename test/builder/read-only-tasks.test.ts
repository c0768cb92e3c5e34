// Lookups and lists never write, and a task that publishes is not done by a draft box: which form
// is the task's (submit.ts), which screen a list task with no values reads (list-screen.ts), and
// a table's column named like a list key (collections.ts). Element trees only, no browser.
import { describe, expect, test } from 'bun:test'
import { resolveSelector } from '../../src/automation/index.ts'
import { readRows } from '../../src/automation/read-rows.ts'
import { listFitness, listsWithoutValues } from '../../src/builder/explore/list-screen.ts'
import { readPrompt } from '../../src/builder/locate/prompt.ts'
import { rowsRead } from '../../src/builder/outputs/collections.ts'
import type { OutputContext } from '../../src/builder/outputs/outputs.ts'
import { notTheTasksSend, sendsOnlyElsewhere, submitScore } from '../../src/builder/submit/submit.ts'
import { actionOf, stems } from '../../src/builder/words.ts'
import type { Snapshot, UiElement } from '../../src/protocol/elements.ts'
import { el } from '../helpers/elements.ts'

const screen = (title: string, ...children: UiElement[]): Snapshot =>
  ({
    window: { id: 'w', title, url: 'http://app/' },
    root: el('window', title, children),
  }) as unknown as Snapshot

// A dashboard's quick-draft box beside a list's search form.
const quickDraft = el('form', '', [
  el('textbox', 'Title'),
  el('textbox', 'Content'),
  el('button', 'Save Draft'),
])
const search = el('form', '', [
  el('textbox', 'Search Articles:'),
  el('button', 'Search Articles'),
  el('button', 'Apply'),
])
const dashboard = el('window', 'Dashboard', [quickDraft, search])
const title = quickDraft.children[0]!
const searchBox = search.children[0]!

describe('a form whose sends do something else is not the task’s form', () => {
  const lookup = readPrompt('Find the article with the given title and return its status')
  const publish = readPrompt('Write an article with the given title and text, publish it, and return its id')

  test('a lookup never presses a send named for saving or creating', () => {
    expect(notTheTasksSend('Save Draft', lookup)).toBe(true)
    expect(notTheTasksSend('Create', lookup)).toBe(true)
    expect(notTheTasksSend('Search Articles', lookup)).toBe(false)
    expect(notTheTasksSend('Apply', lookup)).toBe(false)
    expect(submitScore('Save Draft', lookup)).toBe(0)
    // The draft box's title does not make the screen fit a lookup; the search box does.
    expect(sendsOnlyElsewhere(dashboard, title, lookup)).toBe(true)
    expect(sendsOnlyElsewhere(dashboard, searchBox, lookup)).toBe(false)
  })

  test('a task that asks to be told or to read something is a lookup too: it never saves or creates', () => {
    for (const prompt of [
      'Tell me where on disk the folder with this label is (its folder path)',
      'Read the message with this subject and return its sender',
      'See which room is booked on this day',
    ]) {
      const reading = readPrompt(prompt)
      expect(reading.verb).toBe(actionOf('find'))
      expect(notTheTasksSend('Save', reading)).toBe(true)
      expect(notTheTasksSend('Add Folder', reading)).toBe(true)
      expect(notTheTasksSend('Search', reading)).toBe(false)
    }
    // Only as the opening verb, and "tell" only when it asks to be told: a message to someone is sent.
    expect(readPrompt('Tell Bob in the team chat that the build is green').verb).not.toBe(actionOf('find'))
    expect(notTheTasksSend('Send', readPrompt('Tell Bob in the team chat that the build is green'))).toBe(
      false,
    )
    // Nor when the task goes on to write, or asks to see to something.
    expect(readPrompt('Read the meter and submit the reading').verb).not.toBe(actionOf('find'))
    expect(readPrompt('See that the invoice is paid').verb).not.toBe(actionOf('find'))
    // A label or flag named "Read" is no search word.
    expect(stems('Read')).not.toEqual(stems('find'))
  })

  test('a send that only keeps a draft is weaker than a task that publishes or sends', () => {
    expect(notTheTasksSend('Save Draft', publish)).toBe(true)
    expect(sendsOnlyElsewhere(dashboard, title, publish)).toBe(true)
    // Beside "Publish", the draft button loses; for a task that says draft, it is the send.
    expect(submitScore('Publish', publish)!).toBeGreaterThan(submitScore('Save draft', publish)!)
    expect(notTheTasksSend('Save Draft', readPrompt('Write a draft article with the given title'))).toBe(
      false,
    )
    expect(notTheTasksSend('Save Draft', readPrompt('Write an article with the given title'))).toBe(false)
  })
})

// The list screen of articles: a filter by state above the table, a Title column.
const filters = el('list', '', [
  el('listitem', '', [el('link', 'All (3)')]),
  el('listitem', '', [el('link', 'Published (2)')]),
  el('listitem', '', [el('link', 'Draft (1)')]),
])
const row = (...cells: string[]) =>
  el(
    'row',
    '',
    cells.map((c) => el('cell', c)),
  )
const table = (rows: UiElement[]) =>
  el('table', '', [el('row', '', [el('columnheader', 'Title'), el('columnheader', 'Date')]), ...rows])
const articles = (...rows: UiElement[]) =>
  screen('Articles ‹ Office Site', el('heading', 'Articles'), filters, table(rows))

describe('a list task with no values reads the list its words name, sending nothing', () => {
  const list = readPrompt("List the titles of my site's published articles")

  test('it is a list task only without values, and only when it reads', () => {
    expect(listsWithoutValues(list, 0, actionOf('find'))).toBe(true)
    expect(listsWithoutValues(list, 1, actionOf('find'))).toBe(false)
    expect(listsWithoutValues(readPrompt('Create an article'), 0, actionOf('find'))).toBe(false)
  })

  test('the screen named by every task word wins: the list, then its filter the task names', () => {
    const rows = [row('Parking', 'Published 2026/11/26'), row('Holiday rota', 'Last Modified 2026/11/26')]
    const all = listFitness(articles(...rows), ['Articles'], list)
    const published = listFitness(articles(rows[0]!), ['Articles', 'Published (2)'], list)
    const home = listFitness(screen('Dashboard ‹ Office Site', el('heading', 'Welcome')), [], list)
    expect(home).toBe(0)
    expect(all).toBeGreaterThan(0.5)
    expect(all).toBeLessThan(1)
    expect(published).toBe(1)
  })
})

describe('a list key named like a column reads that column', () => {
  test('`titles` reads the Title column of the only table, as strings', () => {
    const after = articles(
      row('Parking', 'Published 2026/11/26'),
      row('Printer', 'Published 2026/11/25'),
    ).root
    const ctx: OutputContext = {
      ending: {
        kind: 'screen',
        message: '2 items',
        appeared: [],
        condition: { kind: 'appears', target: { fingerprints: [] } },
        signature: '',
      },
      after,
      inputs: [],
      reading: readPrompt("List the titles of my site's published articles"),
      submitLabel: 'Published (2)',
    }
    const step = rowsRead(ctx, 'titles', { $type: 'array' })
    expect(step?.pluck).toBe('title')
    const found = resolveSelector(after, step!.target)
    if (found.status !== 'found') throw new Error(found.status)
    expect(readRows(found.element, step!.columns, { pluck: step!.pluck })).toEqual(['Parking', 'Printer'])
  })
})

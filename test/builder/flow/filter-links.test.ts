// The app's own filter for a value: a link showing the value whose address sets a parameter named
// like its key. A lookup of the records that have the value opens it by address; a list of such
// links offers the value as a choice and is never the list of results showing it. A value shown
// after its caption ("Status:" → "New") is read by the caption, whatever details come before.
import { describe, expect, test } from 'bun:test'
import { findMatches, indexTree, resolveSelector } from '../../../src/automation/index.ts'
import { readRows } from '../../../src/automation/read-rows.ts'
import { filterPatterns } from '../../../src/builder/explore/filter-route.ts'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import type { Ending } from '../../../src/builder/observe/classify.ts'
import { rowsRead } from '../../../src/builder/outputs/collections.ts'
import type { OutputContext } from '../../../src/builder/outputs/outputs.ts'
import { designPlaceSelector } from '../../../src/builder/selector-design.ts'
import type { Snapshot, UiElement, UiRole } from '../../../src/protocol/elements.ts'

let refs = 0
function el(
  role: UiRole,
  name: string,
  extra: Partial<UiElement> = {},
  children: UiElement[] = [],
): UiElement {
  return { ref: `r${++refs}`, role, name, states: [], children, ...extra }
}

const base = 'http://127.0.0.1:8000/admin/stock/item/'
const filter = (name: string, query: string) =>
  el('listitem', '', {}, [el('link', name, { href: `${base}${query}` })])
const item = (code: string, name: string, place: string) =>
  el('row', '', {}, [
    el('cell', code, {}, [el('link', code, { href: `${base}${code.length}/change/` })]),
    el('cell', name),
    el('cell', place),
  ])

/** A list of items filtered to a place, beside the list of places to filter by. */
function page(rows: UiElement[]): UiElement {
  return el('window', 'Items', {}, [
    el('heading', 'Inventory'),
    el('table', '', {}, [
      el('row', '', {}, [
        el('columnheader', 'Code'),
        el('columnheader', 'Name'),
        el('columnheader', 'Place'),
      ]),
      ...rows,
    ]),
    el('generic', '', {}, [
      el('heading', 'By location'),
      el('list', '', {}, [
        filter('All', '?'),
        filter('Back room', '?location=Back+room'),
        filter('Garage', '?location=Garage'),
        filter('Print room (3)', '?location=Print+room'),
      ]),
    ]),
  ])
}

const snapshot = (root: UiElement): Snapshot => ({
  window: { id: 'w', title: 'Items', url: base } as Snapshot['window'],
  capturedAt: '2026-11-26T00:00:00Z',
  root,
})

describe('the app’s own filter for a value', () => {
  test('a link showing the value whose address sets a parameter named like its key becomes the address', () => {
    const leaves = inputLeaves({ location: 'Back room' })
    const patterns = filterPatterns([snapshot(page([]))], leaves, base)
    expect(patterns.map((p) => p.template)).toEqual(['/admin/stock/item/?location={{location}}'])
    // A count after the value still shows it; a parameter named otherwise is no filter by the key.
    const print = filterPatterns([snapshot(page([]))], inputLeaves({ location: 'Print room' }), base)
    expect(print.map((p) => p.template)).toEqual(['/admin/stock/item/?location={{location}}'])
    expect(filterPatterns([snapshot(page([]))], inputLeaves({ place: 'Back room' }), base)).toEqual([])
    expect(filterPatterns([snapshot(page([]))], inputLeaves({ location: 'Cellar' }), base)).toEqual([])
  })

  test('the list of filter links is no list of results, though it shows the value', () => {
    const root = page([
      item('TAPE-50', 'Packing tape', 'Back room'),
      item('BOX-M', 'Medium box', 'Back room'),
    ])
    const ending: Ending = {
      kind: 'screen',
      message: '',
      appeared: [],
      condition: {} as never,
      signature: '',
    }
    const ctx: OutputContext = {
      ending,
      after: root,
      afterUrl: `${base}?location=Back+room`,
      inputs: ['Back room'],
      values: [{ path: 'location', value: 'Back room' }],
      reading: readPrompt('List the items kept in the given location'),
      submitLabel: 'Open',
    }
    const step = rowsRead(ctx, 'things')
    expect(step).toBeDefined()
    const [table] = step!.target.fingerprints.flatMap((f) => findMatches(indexTree(root), f))
    expect(table?.role).toBe('table')
    expect(readRows(table!)).toHaveLength(2)
  })
})

describe('a value shown after its caption', () => {
  const details = (extra: UiElement[], status: string, priority: string) =>
    el('window', 'Issue', {}, [
      el('heading', 'Bug #4'),
      el('generic', '', {}, [
        ...extra,
        el('text', 'Status:'),
        el('text', status),
        el('text', 'Priority:'),
        el('text', priority),
      ]),
    ])

  test('is read by the caption where other details come before it', () => {
    const sample = details([el('text', 'Updated 2 days ago.')], 'New', 'Normal')
    const value = indexTree(sample).all.find((e) => e.name === 'New')!
    const selector = designPlaceSelector(sample, value, 'the “status” value')
    const live = details([], 'In Progress', 'Normal')
    const found = resolveSelector(live, selector)
    expect(found.status === 'found' && found.element.name).toBe('In Progress')
  })

  test('a text after another value (no caption) is not taken for its label', () => {
    const row = el('window', 'Row', {}, [el('generic', '', {}, [el('text', 'Red pen'), el('text', '80')])])
    const value = indexTree(row).all.find((e) => e.name === '80')!
    const selector = designPlaceSelector(row, value, 'the quantity')
    expect(selector.fingerprints.some((f) => f.by === 'label')).toBe(false)
  })
})

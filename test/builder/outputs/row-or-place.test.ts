// A value in a list is read in its own row (the row showing the caller's value, under its column),
// never by its place among several rows: the next call's list is ordered, filtered or grown
// otherwise. A Tryton lookup whose result rows showed the party twice (its e-mail and its phone)
// had no row of its own, was read by place, and answered every live call with the list's first
// e-mail; now such a value is not read (the build asks or fails), and a list of one row, or a
// record's own screen, is still read where it shows.
import { expect, test } from 'bun:test'
import { indexTree, renderSelector, resolveSelector } from '../../../src/automation/index.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import type { Ending } from '../../../src/builder/observe/classify.ts'
import { exactRead } from '../../../src/builder/outputs/exact-read.ts'
import { expectedReads, type OutputContext, showsExpected } from '../../../src/builder/outputs/outputs.ts'
import { rowOrPlace } from '../../../src/builder/outputs/row-reads.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'

const header = el('row', 'Type Value Party', [
  el('columnheader', 'Type'),
  el('columnheader', 'Value'),
  el('columnheader', 'Party'),
])
const row = (type: string, value: string, party: string) =>
  el('row', `${type} ${value} ${party}`, [el('cell', type), el('cell', value), el('cell', party)])
const list = (...rows: UiElement[]) =>
  el('window', 'Contact Mechanisms', [el('table', '', [header, ...rows])])

function context(after: UiElement, name: string): OutputContext {
  const ending = {
    kind: 'screen',
    message: '',
    appeared: [],
    condition: { kind: 'text', text: 'x' },
    signature: '',
  }
  return {
    ending: ending as unknown as Ending,
    after,
    inputs: [name],
    values: [{ path: 'name', value: name }],
    reading: readPrompt('Look up the party with this name and tell me its e-mail address'),
    submitLabel: 'Enter',
  }
}

test('a value in one of several rows that show the caller’s value alike is not read by its place', () => {
  const after = list(
    row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
    row('Phone', '+44 1947 820 331', 'Harbour Lights Cafe'),
  )
  expect(
    exactRead(context(after, 'Harbour Lights Cafe'), 'contact', 'bookings@harbourlights.example'),
  ).toBeUndefined()
})

test('a row that alone shows the caller’s value is read under its column; a list of one row where it shows', () => {
  const after = list(
    row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
    row('E-Mail', 'hello@blueharbor.example', 'Blue Harbor Bakery'),
  )
  const keyed = exactRead(context(after, 'Harbour Lights Cafe'), 'email', 'bookings@harbourlights.example')
  expect(keyed?.target?.fingerprints[0]).toMatchObject({ by: 'inRow', rowText: '{{name}}', column: 'Value' })
  const one = list(row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights'))
  const placed = exactRead(context(one, 'Harbour Lights Cafe'), 'email', 'bookings@harbourlights.example')
  expect(placed?.target?.fingerprints[0]?.by).toBe('path')
})

test('row headers beside column headers are a list’s row numbers: still no read by place', () => {
  const numbered = (n: string, type: string, value: string, party: string) =>
    el('row', `${n} ${type} ${value} ${party}`, [
      el('rowheader', n),
      el('cell', type),
      el('cell', value),
      el('cell', party),
    ])
  const after = list(
    numbered('1', 'E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
    numbered('2', 'Phone', '+44 1947 820 331', 'Harbour Lights Cafe'),
  )
  expect(
    exactRead(context(after, 'Harbour Lights Cafe'), 'contact', 'bookings@harbourlights.example'),
  ).toBeUndefined()
})

test('a value shown only in a list row is shown all the same: the ending is still the sample’s success', () => {
  // A value that cannot be read in its own row is no evidence that the ending is not the success
  // (outputs-or-scenario.ts took it for an alternate scenario); the build then opens the record or
  // asks. A value the screen does not show at all is still missing.
  const after = list(
    row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
    row('Phone', '+44 1947 820 331', 'Harbour Lights Cafe'),
  )
  const base = context(after, 'Harbour Lights Cafe')
  const came = (kind: string) => ({
    ...base,
    ending: { ...base.ending, kind, appeared: [...indexTree(after).all] } as Ending,
  })
  const ctx = came('dialog')
  const shown = { contact: 'bookings@harbourlights.example' }
  expect(expectedReads(ctx, shown)).toMatchObject({ steps: [], missing: ['contact'], inList: ['contact'] })
  expect(showsExpected(ctx, shown)).toBe(true)
  const elsewhere = { contact: 'orders@harbourlights.example' }
  expect(expectedReads(ctx, elsewhere)).toMatchObject({ missing: ['contact'], inList: [] })
  expect(showsExpected(ctx, elsewhere)).toBe(false)
  expect(showsExpected(ctx, undefined)).toBe(false)
  // A complaint ("already exists") over the list, or a list that was there before the ending
  // (nothing of it appeared), shows the value without being the success.
  expect(showsExpected(came('validation'), shown)).toBe(false)
  expect(showsExpected(base, shown)).toBe(false)
})

test('a record with a row per kind of value is read in the row that shows the caller’s value and the output’s label', () => {
  // The key names the label cell ("E-Mail" for "email"): the row is picked by both, on any call.
  const ctx = context(
    list(
      row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
      row('Phone', '+44 1947 820 331', 'Harbour Lights Cafe'),
    ),
    'Harbour Lights Cafe',
  )
  const step = exactRead(ctx, 'email', 'bookings@harbourlights.example')
  expect(step?.target.fingerprints[0]).toMatchObject({
    by: 'inRow',
    rowText: '{{name}}',
    rowAlso: 'E-Mail',
    column: 'Value',
  })
  const next = list(
    row('Phone', '+44 1947 600 118', 'Blue Harbor Bakery'),
    row('E-Mail', 'hello@blueharbor.example', 'Blue Harbor Bakery'),
    row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
  )
  const found = resolveSelector(next, renderSelector(step!.target, { name: 'Blue Harbor Bakery' }))
  expect(found.status === 'found' && found.element.name).toBe('hello@blueharbor.example')
})

test('a record’s details, a row per field under column headers, are read in the row of the field’s label', () => {
  const details = (email: string, phone: string) =>
    el('window', 'Customer', [
      el('table', '', [
        el('row', 'Field Value', [el('columnheader', 'Field'), el('columnheader', 'Value')]),
        el('row', '', [el('cell', 'E-Mail'), el('cell', email)]),
        el('row', '', [el('cell', 'Phone'), el('cell', phone)]),
      ]),
    ])
  const step = exactRead(
    context(details('ada@example.com', '+44 1 2345'), 'Ada Lovelace'),
    'email',
    'ada@example.com',
  )
  expect(step?.target.fingerprints[0]).toMatchObject({ by: 'inRow', rowText: 'E-Mail', column: 'Value' })
  const found = resolveSelector(details('alan@example.com', '+44 9'), renderSelector(step!.target, {}))
  expect(found.status === 'found' && found.element.name).toBe('alan@example.com')
  // A type repeated down a list of records is no field's label: that list is not read by it.
  const records = list(
    row('E-Mail', 'hello@blueharbor.example', 'Blue Harbor Bakery'),
    row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
  )
  expect(exactRead(context(records, 'Ada Lovelace'), 'email', 'hello@blueharbor.example')).toBeUndefined()
  // Nor is a list of records whose types happen to differ: its rows hold more than a label and a value.
  const mixed = list(
    row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
    row('Phone', '+44 1947 600 118', 'Blue Harbor Bakery'),
  )
  expect(exactRead(context(mixed, 'Ada Lovelace'), 'email', 'bookings@harbourlights.example')).toBeUndefined()
})

test('where the row shows the output’s label, the label picks the row even when the caller’s value alone would', () => {
  // The sample's party has only its e-mail row; a party with only a phone must not answer for it.
  const one = list(
    row('E-Mail', 'bookings@harbourlights.example', 'Harbour Lights Cafe'),
    row('Phone', '+44 1947 600 118', 'Blue Harbor Bakery'),
  )
  const step = exactRead(context(one, 'Harbour Lights Cafe'), 'email', 'bookings@harbourlights.example')
  expect(step?.target.fingerprints[0]).toMatchObject({ rowText: '{{name}}', rowAlso: 'E-Mail' })
  const found = resolveSelector(one, renderSelector(step!.target, { name: 'Blue Harbor Bakery' }))
  expect(found.status).toBe('not-found')
})

test('a link pointed at inside a cell is read in its own row, or not at all, as the cell would be', () => {
  // A web table's cells hold links and texts; the one pointed at is known by its cell's column.
  const linked = (title: string, category: string) =>
    el('row', '', [el('cell', title, [el('link', title)]), el('cell', category, [el('link', category)])])
  const posts = el('window', 'Posts', [
    el('table', '', [
      el('row', 'Title Categories', [el('columnheader', 'Title'), el('columnheader', 'Categories')]),
      linked('Fire drill', 'Facilities'),
      linked('New kettle', 'Kitchen'),
    ]),
  ])
  const link = posts.children[0]!.children[2]!.children[1]!.children[0]!
  const place = { fingerprints: [{ by: 'path' as const, path: [] }], description: 'there' }
  const own = rowOrPlace(context(posts, 'New kettle'), link, place, 'category')
  expect(own?.fingerprints[0]).toMatchObject({
    by: 'inRow',
    rowText: '{{name}}',
    role: 'link',
    column: 'Categories',
  })
  const next = el('window', 'Posts', [
    el('table', '', [
      posts.children[0]!.children[0]!,
      linked('Bike shed', 'Outdoors'),
      linked('Fire drill', 'Facilities'),
    ]),
  ])
  const found = resolveSelector(next, renderSelector(own!, { name: 'Bike shed' }))
  expect(found.status === 'found' && found.element.name).toBe('Outdoors')
  expect(rowOrPlace(context(posts, 'Ada Lovelace'), link, place, 'category')).toBeUndefined()
})

// A value in a list is read in its own row (the row showing the caller's value, under its column),
// never by its place among several rows: the next call's list is ordered, filtered or grown
// otherwise. A Tryton lookup whose result rows showed the party twice (its e-mail and its phone)
// had no row of its own, was read by place, and answered every live call with the list's first
// e-mail; now such a value is not read (the build asks or fails), and a list of one row, or a
// record's own screen, is still read where it shows.
import { expect, test } from 'bun:test'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import type { Ending } from '../../../src/builder/observe/classify.ts'
import { exactRead } from '../../../src/builder/outputs/exact-read.ts'
import type { OutputContext } from '../../../src/builder/outputs/outputs.ts'
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
    exactRead(context(after, 'Harbour Lights Cafe'), 'email', 'bookings@harbourlights.example'),
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
    exactRead(context(after, 'Harbour Lights Cafe'), 'email', 'bookings@harbourlights.example'),
  ).toBeUndefined()
})

// A list's caption that only changed its count where it stood ("Party / Contact Mechanisms 1 / 12"
// → "… 1 / 2" after a search in Tryton's client) is no evidence of what the submit did: its
// condition held before the submit too, so every later run would pass it at once and read the
// unfiltered list (a built job that answered every live call with another party's e-mail).
import { expect, test } from 'bun:test'
import { evaluateCondition } from '../../../src/automation/index.ts'
import { classifyEnding, classifySent } from '../../../src/builder/observe/classify.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'

const row = (type: string, value: string) => el('row', '', [el('cell', type), el('cell', value)])
const screen = (caption: string, search: string, rows: UiElement[], extra: UiElement[] = []) =>
  el('window', 'Administrator - Tryton', [
    el('tabpanel', 'Party / Contact M...', [
      el('text', caption),
      el('textbox', 'Search', [], { value: search }),
      el('table', '', rows),
      ...extra,
    ]),
  ])

test('a count that changed where it stood is no ending; a message that appeared is', () => {
  const before = screen('Party / Contact Mechanisms 1 / 12', '', [
    row('E-Mail', 'hello@blueharbor.example'),
    row('Phone', '+44 1947 600 118'),
  ])
  const after = screen('Party / Contact Mechanisms 1 / 2', 'Party: "Harbour Lights Cafe"', [
    row('E-Mail', 'bookings@harbourlights.example'),
    row('Phone', '+44 1947 820 331'),
  ])
  const search = before.children[0]!.children[1]!
  const inputs = ['Harbour Lights Cafe']
  const ending = classifyEnding(before, after, [search], inputs)
  expect(ending?.message).not.toBe('Party / Contact Mechanisms 1 / 2')
  // Whatever is taken instead must not hold on the screen before the search.
  if (ending) expect(evaluateCondition(before, ending.condition, {}).holds).toBe(false)
  // A status line that appeared beside the list is still an ending.
  const said = screen(
    'Party / Contact Mechanisms 1 / 2',
    'Party: "Harbour Lights Cafe"',
    after.children[0]!.children[2]!.children,
    [el('status', '2 records found')],
  )
  expect(classifyEnding(before, said, [search], inputs)?.message).toBe('2 records found')
})

test('a text rewritten where it stood with other words is still an ending (a preview showing the entry picked)', () => {
  const preview = (title: string) =>
    el('window', 'Passwords.kdbx - KeePassXC', [el('table', '', []), el('text', `Passwords / ${title}`)])
  const ending = classifyEnding(preview('Allotment Society'), preview('Webmail'), [], ['Webmail'])
  expect(ending?.message).toBe('Passwords / Webmail')
})

test('a heading rewritten in place to the caller’s own number is an ending: it is waited for as that number', () => {
  const record = (id: string) =>
    el('window', 'Orders', [el('heading', id), el('textbox', 'Order number', [], { value: id })])
  const leaves = [{ path: 'order', value: '1043' }] as never
  const ending = classifyEnding(record('1042'), record('1043'), [], ['1043'], leaves)
  expect(ending?.message).toBe('1043')
  expect(evaluateCondition(record('1042'), ending!.condition, { order: '1043' }).holds).toBe(false)
  expect(evaluateCondition(record('1043'), ending!.condition, { order: '1043' }).holds).toBe(true)
})

test('a count on a page drawn anew (the window went to a new address) is the new page’s, not one rewritten in place', () => {
  // A web list's filter sent as an address ("?cat=3"): the driver lets the new page settle
  // before a run looks, so its "3 items" is evidence the filter ran; the same rewrite without a
  // new address (a desktop list filtered in place) is not.
  const page = (count: string, rows: string[]) =>
    el('window', 'Posts', [
      el('text', count),
      el(
        'table',
        '',
        rows.map((r) => row(r, 'Facilities')),
      ),
    ])
  const snap = (url: string, root: UiElement): Snapshot => ({
    window: { id: 'w', title: 'Posts', app: 'http://blog.example', kind: 'tab', url },
    root,
    capturedAt: new Date(0).toISOString(),
  })
  const before = page('9 items', ['Fire drill', 'New kettle', 'Bike shed'])
  const after = page('3 items', ['Fire drill', 'New kettle', 'Bike shed'])
  const anew = classifySent(
    { before: snap('/posts', before), after: snap('/posts?cat=3', after) },
    [],
    ['Facilities'],
  )
  expect(anew?.message).toBe('3 items')
  const inPlace = classifySent(
    { before: snap('/posts', before), after: snap('/posts', after) },
    [],
    ['Facilities'],
  )
  expect(inPlace?.message).not.toBe('3 items')
})

// A record shown as a row of a list: its own link opens it for a lookup or a change, and the form
// that changes it keeps what the record already holds.
import { describe, expect, test } from 'bun:test'
import { indexTree, renderSelector, resolveSelector } from '../../../src/automation/index.ts'
import { moveScore, ownRecordLink } from '../../../src/builder/explore/explore-moves.ts'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { holdsValue } from '../../../src/builder/map/map-fields.ts'
import { readControls } from '../../../src/builder/screen.ts'
import type { UiElement, UiRole } from '../../../src/protocol/elements.ts'

let refs = 0
function el(
  role: UiRole,
  name: string,
  extra: Partial<UiElement> = {},
  children: UiElement[] = [],
): UiElement {
  return { ref: `r${++refs}`, role, name, states: [], children, ...extra }
}

const row = (code: string, name: string, qty: string) =>
  el('row', '', {}, [
    el('cell', '', {}, [el('checkbox', `Select ${code}`)]),
    el('cell', code, {}, [el('link', code, { href: `/things/${code.length}/change/` })]),
    el('cell', name),
    el('cell', qty),
  ])

const list = el('window', 'Select item to change', {}, [
  el('link', 'Add item'),
  el('table', '', {}, [
    el('row', '', {}, [
      el('columnheader', 'Code'),
      el('columnheader', 'Name'),
      el('columnheader', 'Quantity'),
    ]),
    row('PEN-BLK', 'Black pen', '200'),
    row('PEN-RED', 'Red pen', '80'),
    row('NB-A5', 'A5 notebook', '45'),
  ]),
])

describe('the record’s own link in its row', () => {
  const index = indexTree(list)
  const links = index.all.filter((e) => e.role === 'link')
  const leaves = inputLeaves({ sku: 'PEN-RED', quantity: 75 })

  test('a change of the record the sample names opens it by the link showing its value, named by each call’s value', () => {
    const reading = readPrompt('Set the quantity in stock of the item with the given SKU')
    const own = links.find((l) => l.name === 'PEN-RED')!
    // Its words share nothing with the task: only being the record's own link makes it a way.
    expect(moveScore(reading, own.name)).toBe(0)
    const found = ownRecordLink(reading, index, own, leaves)
    expect(found?.value).toBe('PEN-RED')
    // A live call with another code opens that record's row link, not the sample's.
    const live = renderSelector(found!.selector, { sku: 'NB-A5' })
    const hit = resolveSelector(list, live)
    expect(hit.status === 'found' && hit.element.name).toBe('NB-A5')
    // Another row's link is no way to this record.
    expect(ownRecordLink(reading, index, links.find((l) => l.name === 'PEN-BLK')!, leaves)).toBeUndefined()
  })

  test('a lookup opens it too; a task that creates a record does not', () => {
    const own = links.find((l) => l.name === 'PEN-RED')!
    expect(ownRecordLink(readPrompt('Show the item with the given SKU'), index, own, leaves)).toBeDefined()
    expect(ownRecordLink(readPrompt('Add an item with this SKU'), index, own, leaves)).toBeUndefined()
  })
})

describe('a required field that already holds a value', () => {
  test('is left as it stands; a blank one or a placeholder choice still needs a value', () => {
    const form = el('form', 'Change item', {}, [
      el('textbox', 'Name', { value: 'Red pen', states: ['required'] }),
      el('textbox', 'Location', { value: '', states: ['required'] }),
      el('combobox', 'Kind', { value: '---------', states: ['required'] }, [
        el('option', '---------'),
        el('option', 'Tool'),
      ]),
      el('combobox', 'Unit', { value: 'Box', states: ['required'] }, [
        el('option', '---------'),
        el('option', 'Box'),
      ]),
    ])
    const held = Object.fromEntries(readControls(form).map((c) => [c.label, holdsValue(c)]))
    expect(held).toEqual({ Name: true, Location: false, Kind: false, Unit: true })
  })
})

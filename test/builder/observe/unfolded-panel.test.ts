// A record shown as a panel whose heading unfolds it (a button that goes from collapsed to
// expanded and shows a table of captions and values): the click that unfolds it has an ending,
// the captions it revealed. Element trees only, no browser.
import { expect, test } from 'bun:test'
import { evaluateCondition } from '../../../src/automation/index.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'

const panel = (name: string, open: boolean, rows: [string, string][]): UiElement[] => [
  el('button', name, [], { states: [open ? 'expanded' : 'collapsed'] }),
  ...(open
    ? [
        el(
          'table',
          '',
          rows.map(([caption, value]) => el('row', '', [el('rowheader', caption), el('cell', value)])),
        ),
      ]
    : []),
]
const screen = (open: boolean, other = false) =>
  el('window', 'Syncing', [
    el('heading', 'Remote Devices'),
    ...panel('Office NAS', open, [
      ['Address', 'dynamic'],
      ['Folders', 'Photos, Scans'],
    ]),
    ...panel('Laptop', other, [
      ['Address', 'dynamic'],
      ['Folders', 'Music'],
    ]),
  ])

test('a heading that unfolds and shows its captions and values ends the click', () => {
  const before = screen(false)
  const after = screen(true)
  const ending = classifyEnding(before, after, [], ['Office NAS'])!
  expect(ending).toMatchObject({ kind: 'screen', message: 'Address' })
  expect(evaluateCondition(after, ending.condition, {}).holds).toBe(true)
  expect(evaluateCondition(before, ending.condition, {}).holds).toBe(false)
})

test('nothing unfolded: no ending from captions alone', () => {
  // The other panel was open all along; the click changed nothing.
  expect(classifyEnding(screen(false, true), screen(false, true), [], ['Office NAS'])).toBeUndefined()
})

test('a caption another open panel showed all along is no evidence, nor is a value of the sample’s record', () => {
  // The laptop's panel was open before the click, showing the same captions.
  expect(classifyEnding(screen(false, true), screen(true, true), [], ['Office NAS'])).toBeUndefined()
})

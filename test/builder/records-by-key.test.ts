// Records by key (issue 24 §3): "change the username of the entry with this title" picks the row
// showing the title before anything is edited, never the row that happens to be selected; and a
// drop-down holding a text box (KeePassXC's user name box, suggesting names used before) takes the
// caller's text as typed, not the option sharing a word with it. Screens written out; no desktop.
import { describe, expect, test } from 'bun:test'
import { evaluateCondition, renderSelector, resolveSelector } from '../../src/automation/index.ts'
import { keyRowStep } from '../../src/builder/explore/key-row.ts'
import { inputLeaves } from '../../src/builder/input-leaves.ts'
import { readPrompt } from '../../src/builder/locate/prompt.ts'
import { checkedKey } from '../../src/builder/map/fill-sample.ts'
import { readControls } from '../../src/builder/screen.ts'
import type { Step } from '../../src/protocol/automation.ts'
import type { UiElement, UiState } from '../../src/protocol/elements.ts'

let refs = 0
const el = (role: UiElement['role'], name: string, children: UiElement[] = [], states: UiState[] = []) =>
  ({ ref: `e${++refs}`, role, name, states, children }) as UiElement

const entries = (selected: string) =>
  el('window', 'Passwords.kdbx - KeePassXC', [
    el('toolbar', '', [el('button', 'Edit Entry…')]),
    el('table', '', [
      el('row', 'Title Username', [el('columnheader', 'Title'), el('columnheader', 'Username')]),
      ...[
        ['Bank of Leeds', 'amorgan1987'],
        ['Home Router', 'admin'],
        ['Webmail', 'alice'],
      ].map(([title, user]) =>
        el(
          'row',
          `${title} ${user}`,
          [el('cell', title!), el('cell', user!)],
          title === selected ? ['selected'] : [],
        ),
      ),
    ]),
  ])

describe('the record with a given key', () => {
  test('a change picks the row showing the key first; a live call picks its own', () => {
    const reading = readPrompt(
      'In KeePassXC, change the username of the password entry with this title to the new username',
    )
    const screen = entries('Bank of Leeds')
    const keyed = keyRowStep(screen, inputLeaves({ title: 'Home Router', username: 'router-admin' }), reading)
    expect(keyed?.key.path).toBe('title')
    const step = keyed!.step
    if (step.kind !== 'click') throw new Error(step.kind)
    const sample = resolveSelector(screen, renderSelector(step.target, { title: 'Home Router' }))
    expect(sample.status === 'found' && sample.element.name).toBe('Home Router')
    const live = resolveSelector(screen, renderSelector(step.target, { title: 'Webmail' }))
    expect(live.status === 'found' && live.element.name).toBe('Webmail')
    // A title the list does not show is never replaced by the selected row.
    expect(resolveSelector(screen, renderSelector(step.target, { title: 'Library Card' })).status).toBe(
      'not-found',
    )
  })

  test('the key is the value the prompt picks the record by: a new user name another entry already has is not it', () => {
    const reading = readPrompt('Change the username of the entry with this title to the new username')
    const keyed = keyRowStep(entries(''), inputLeaves({ username: 'alice', title: 'Home Router' }), reading)
    expect(keyed?.key.path).toBe('title')
    const step = keyed!.step
    if (step.kind !== 'click') throw new Error(step.kind)
    expect(step.target.fingerprints[0]).toMatchObject({ by: 'inRow', column: 'Title' })
  })

  test('the key is checked in the record’s own field, never typed there: another record open fails the check', () => {
    const fill: Step = {
      kind: 'fill',
      name: 'Fill “Title”',
      target: {
        fingerprints: [{ by: 'label', label: 'Title', role: 'textbox' }],
        description: 'the Title box',
      },
      value: '{{title}}',
    }
    const check = checkedKey(fill, inputLeaves({ title: 'Home Router' }))
    if (check.kind !== 'assert') throw new Error(check.kind)
    const form = (title: string) =>
      el('window', 'Edit entry', [el('text', 'Title'), { ...el('textbox', 'Title'), value: title }])
    expect(evaluateCondition(form('Home Router'), check.that, { title: 'Home Router' }).holds).toBe(true)
    expect(evaluateCondition(form('Allotment Society'), check.that, { title: 'Home Router' }).holds).toBe(
      false,
    )
    // A value the way did not pick the record by is typed as before.
    const other = { ...fill, value: '{{username}}' }
    expect(checkedKey(other, inputLeaves({ title: 'Home Router' }))).toBe(other)
  })

  test('a new record, or a key no row shows exactly, picks nothing', () => {
    const create = readPrompt('In KeePassXC, add an entry with this title and username')
    expect(keyRowStep(entries(''), inputLeaves({ title: 'Home Router' }), create)).toBeUndefined()
    const change = readPrompt('Change the username of the entry with this title')
    expect(keyRowStep(entries(''), inputLeaves({ title: 'Home' }), change)).toBeUndefined()
  })
})

test('a drop-down holding a text box is filled as a text box, not chosen from its suggestions', () => {
  const entry = el('textbox', 'Username')
  const root = el('window', 'Edit entry', [
    el('text', 'Username'),
    el('combobox', 'Username', [entry, el('option', 'admin'), el('option', 'alice')]),
  ])
  const controls = readControls(root)
  expect(controls.map((c) => [c.kind, c.element.role])).toEqual([['text', 'textbox']])
})

// After a create, the record the send shows holds the caller's values; one it does not show while
// it shows the others as given was never taken (a helpdesk's requestor box whose entry must be
// picked from its suggestions). Pure: screens and fields built here.
import { describe, expect, test } from 'bun:test'
import type { FieldStep } from '../../../src/builder/map/field-steps.ts'
import { valuesNotTaken } from '../../../src/builder/verify/values-taken.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'

let ref = 0
const el = (role: UiElement['role'], name: string, extra: Partial<UiElement> = {}): UiElement => ({
  ref: `e${++ref}`,
  role,
  name,
  states: [],
  children: [],
  ...extra,
})
const field = (
  label: string,
  path: string,
  value: unknown,
  extra: Partial<FieldStep['control']> = {},
): FieldStep =>
  ({
    step: { kind: 'fill', name: `Fill “${label}”`, value: `{{${path}}}` },
    control: {
      key: label,
      kind: 'text',
      element: el('textbox', label),
      label,
      names: [label],
      options: [],
      radios: [],
      required: false,
      ...extra,
    },
    leaf: { path, key: path, value, source: 'body' },
  }) as unknown as FieldStep
const page = (...texts: string[]) => el('window', 'Ticket', { children: texts.map((t) => el('text', t)) })

const fields = [
  field('Subject', 'subject', 'Cannot print to the second-floor printer'),
  field('Queue', 'queue', 'IT Support'),
  field('Requestors', 'requestor', 'maria.lopez@example.com', { shape: 'email' }),
]

describe('the app took what was typed', () => {
  test('a record showing the subject and queue but not the requestor typed: that field did not take it', () => {
    const shown = page(
      '#12: Cannot print to the second-floor printer',
      'Queue: IT Support',
      'Requestors: root (Sam Carter)',
    )
    expect(valuesNotTaken(shown, fields).map((f) => f.control.label)).toEqual(['Requestors'])
  })

  test('every value shown (in text or in a box) is taken; a screen showing fewer than two is not a record to judge', () => {
    const all = page('#12: Cannot print to the second-floor printer', 'IT Support')
    all.children.push(el('textbox', 'Requestors', { value: 'Maria.Lopez@example.com' }))
    expect(valuesNotTaken(all, fields)).toEqual([])
    expect(valuesNotTaken(page('Ticket 12 created'), fields)).toEqual([])
    expect(valuesNotTaken(page('#12: Cannot print to the second-floor printer'), fields)).toEqual([])
  })

  test('passwords, dates, numbers and long text are never held against the record', () => {
    const odd = [
      field('Subject', 'subject', 'Cannot print to the second-floor printer'),
      field('Queue', 'queue', 'IT Support'),
      field('Password', 'password', 'Secret-2026', {
        element: el('textbox', 'Password', { inputType: 'password' }),
      }),
      field('Due', 'due', '2026-12-01', { shape: 'date' }),
      field('Count', 'count', 12),
      field('Notes', 'notes', 'x'.repeat(200)),
    ]
    expect(valuesNotTaken(page('Cannot print to the second-floor printer', 'IT Support'), odd)).toEqual([])
  })
})

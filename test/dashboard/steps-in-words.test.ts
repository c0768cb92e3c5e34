import { describe, expect, test } from 'bun:test'
import {
  conditionInWords,
  selectorInWords,
  stepInWords,
  templateInWords,
} from '../../src/dashboard/ui/steps-in-words.ts'
import { Condition, Fingerprint, type Selector, Step } from '../../src/protocol/automation.ts'
import { crmCreateCustomer } from '../fixtures/automations/crm.ts'

const role = (
  r: 'button' | 'textbox' | 'combobox' | 'checkbox' | 'table' | 'link',
  name: string,
): Selector => ({
  fingerprints: [{ by: 'role', role: r, name }],
})

/** One example of every step kind, with the sentence a person reads. */
const CASES: [Step, string][] = [
  [{ kind: 'launch', name: 'Open the CRM', app: { url: 'http://crm.local/' } }, 'Open http://crm.local/'],
  [{ kind: 'focus', name: 'Focus search', target: role('textbox', 'Search') }, 'Focus “Search”'],
  [{ kind: 'click', name: 'Save', target: role('button', 'Save') }, 'Click “Save”'],
  [
    {
      kind: 'fill',
      name: 'Email',
      target: { fingerprints: [{ by: 'label', label: 'Email' }] },
      value: '{{email}}',
    },
    'Type {email} into “Email”',
  ],
  [
    { kind: 'select', name: 'Country', target: role('combobox', 'Country'), value: '{{country}}' },
    'Choose {country} in “Country”',
  ],
  [{ kind: 'navigate', name: 'Go', url: '/tickets/{{id}}' }, 'Go to /tickets/{id}'],
  [{ kind: 'check', name: 'VIP', target: role('checkbox', 'VIP'), checked: true }, 'Tick “VIP”'],
  [
    { kind: 'keys', name: 'Submit', keys: 'Enter', target: role('textbox', 'Search') },
    'Press Enter in “Search”',
  ],
  [
    { kind: 'wait', name: 'Wait', until: { kind: 'text', text: 'created', match: 'contains' } },
    'Wait until the text containing “created” shows',
  ],
  [
    {
      kind: 'read',
      name: 'Read order',
      target: { fingerprints: [{ by: 'label', label: 'Order number' }] },
      into: 'orderNumber',
    },
    'Read “Order number” as orderNumber',
  ],
  [
    {
      kind: 'branch',
      name: 'Duplicate',
      scenario: 'duplicate',
      when: { kind: 'dialog', text: 'already exists' },
    },
    'If a dialog containing “already exists” shows, finish as “duplicate”',
  ],
  [
    {
      kind: 'assert',
      name: 'Saved',
      that: { kind: 'appears', target: role('link', 'Invoice {{number}}') },
      message: 'not saved',
    },
    'Make sure “Invoice {number}” appears (else: not saved)',
  ],
]

describe('steps in plain words', () => {
  test('every step kind of the protocol has a wording (and this test has a case for it)', () => {
    const kinds = Step.anyOf.map((s) => s.properties.kind.const as string)
    expect(CASES.map(([step]): string => step.kind).sort()).toEqual([...kinds].sort())
  })

  test.each(CASES)('%o', (step, words) => {
    expect(stepInWords(step)).toBe(words)
  })

  test('variants: clicks, checks from the input, reads of rows and addresses, optional and conditional steps', () => {
    const save = role('button', 'Save')
    expect(stepInWords({ kind: 'click', name: 'x', target: save, clickCount: 2 })).toBe('Double-click “Save”')
    expect(stepInWords({ kind: 'click', name: 'x', target: save, button: 'right' })).toBe(
      'Right-click “Save”',
    )
    expect(
      stepInWords({
        kind: 'click',
        name: 'x',
        target: role('link', 'C-7'),
        pageWith: role('button', 'Next'),
      }),
    ).toBe('Click “C-7”, turning pages with “Next” until it shows')
    expect(stepInWords({ kind: 'check', name: 'x', target: role('checkbox', 'VIP'), checked: false })).toBe(
      'Untick “VIP”',
    )
    expect(
      stepInWords({
        kind: 'check',
        name: 'x',
        target: role('checkbox', 'VIP'),
        checked: '{{vip}}',
        optional: true,
      }),
    ).toBe('Set “VIP” to {vip} (skipped when the input has no value for it)')
    expect(
      stepInWords({
        kind: 'select',
        name: 'x',
        target: role('combobox', 'Type'),
        value: '{{type}}',
        valueMap: { defect: 'Code_Defect' },
      }),
    ).toBe('Choose {type} in “Type” (“defect” means “Code_Defect”)')
    expect(stepInWords({ kind: 'read', name: 'x', source: 'url', into: 'url', extract: 'id=(\\d+)' })).toBe(
      'Read the page address as url, keeping the part matching /id=(\\d+)/',
    )
    expect(
      stepInWords({
        kind: 'read',
        name: 'x',
        source: 'rows',
        target: role('table', 'Orders'),
        columns: { id: 'Order', total: 'Total' },
        into: 'orders',
      }),
    ).toBe('Read the rows of “Orders” (columns “Order”, “Total”) as orders')
    expect(stepInWords({ kind: 'launch', name: 'x' })).toBe('Open the app')
    expect(stepInWords({ kind: 'focus', name: 'x', window: { titleContains: 'Invoices' } })).toBe(
      'Bring the window titled containing “Invoices” to the front',
    )
    expect(
      stepInWords({
        kind: 'fill',
        name: 'x',
        target: role('textbox', 'User'),
        value: '{{user}}',
        onlyIf: { kind: 'appears', target: role('button', 'Sign in') },
      }),
    ).toBe('Only if “Sign in” appears: type {user} into “User”')
    expect(stepInWords({ kind: 'branch', name: 'x', scenario: 'not found' })).toBe(
      'If the “not found” screen shows, finish as “not found”',
    )
  })

  test('every fingerprint and condition kind reads as words', () => {
    const byKind: Record<string, Selector> = {
      automationId: { fingerprints: [{ by: 'automationId', ids: ['form', 'save'] }] },
      role: role('button', 'Save'),
      label: { fingerprints: [{ by: 'label', label: 'Email' }] },
      path: {
        fingerprints: [
          {
            by: 'path',
            path: [
              { role: 'window', index: 0 },
              { role: 'button', index: 2 },
            ],
          },
        ],
      },
      text: { fingerprints: [{ by: 'text', text: 'Saved', match: 'contains' }] },
      inRow: {
        fingerprints: [{ by: 'inRow', rowText: '{{email}}', role: 'button', name: 'Edit' }],
      },
    }
    expect(Object.keys(byKind).sort()).toEqual(
      Fingerprint.anyOf.map((f) => f.properties.by.const as string).sort(),
    )
    expect(Object.fromEntries(Object.entries(byKind).map(([k, s]) => [k, selectorInWords(s)]))).toEqual({
      automationId: '#form › save',
      role: '“Save”',
      label: '“Email”',
      path: 'window 1 › button 3',
      text: 'the text containing “Saved”',
      inRow: '“Edit” in the row showing “{email}”',
    })
    // A selector with a description but no visible name reads by its description.
    expect(
      selectorInWords({ description: 'the Save button', fingerprints: [{ by: 'automationId', ids: ['s'] }] }),
    ).toBe('the Save button')
    const conditions: Condition[] = [
      { kind: 'appears', target: role('button', 'OK') },
      { kind: 'disappears', target: role('button', 'OK') },
      { kind: 'dialog' },
      { kind: 'text', text: 'Order \\d+', match: 'regex' },
      { kind: 'anyOf', conditions: [{ kind: 'dialog' }, { kind: 'text', text: 'Done', match: 'exact' }] },
    ]
    expect(conditions.map((c): string => c.kind).sort()).toEqual(
      (Condition as unknown as { anyOf: { properties: { kind: { const: string } } }[] }).anyOf
        .map((c) => c.properties.kind.const)
        .sort(),
    )
    expect(conditions.map(conditionInWords)).toEqual([
      '“OK” appears',
      '“OK” disappears',
      'a dialog shows',
      'the text matching /Order \\d+/ shows',
      'a dialog shows, or the text “Done” shows',
    ])
  })

  test('templates: fallbacks, filters and secrets', () => {
    expect(templateInWords('{{ customer.email }}')).toBe('{customer.email}')
    expect(templateInWords('{{country ?? "France"}}')).toBe('{country, else "France"}')
    expect(templateInWords('{{dob|day2}}')).toBe('{dob | day2}')
    expect(templateInWords('{{$secrets.password}}')).toBe('{secret password}')
  })

  test('the fixture CRM automation reads as a person would say it', () => {
    const a = crmCreateCustomer('http://127.0.0.1:1')
    expect(a.steps.map((step) => stepInWords(step, a.app))).toEqual([
      'Open http://127.0.0.1:1/crm/',
      'Click “New customer”',
      'Type {firstName} into “First name” (skipped when the input has no value for it)',
      'Type {lastName} into “Last name” (skipped when the input has no value for it)',
      'Type {email} into “Email”',
      'Choose {country} in “Country” (skipped when the input has no value for it)',
      'Set “VIP customer” to {vip} (skipped when the input has no value for it)',
      'Click “Save”',
      'Wait until the text containing “created” shows, or a dialog containing “already exists” shows',
      'If the “duplicate customer” screen shows, finish as “duplicate customer”',
      'Read the text matching /Customer C-\\d+ created/ as customerId, keeping the part matching /(C-\\d+)/',
    ])
  })
})

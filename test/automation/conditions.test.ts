import { describe, expect, test } from 'bun:test'
import { evaluateCondition, openDialogs } from '../../src/automation/conditions.ts'
import type { Condition } from '../../src/protocol/automation.ts'
import type { UiElement } from '../../src/protocol/elements.ts'
import { recorded } from './recorded.ts'

const holds = (root: UiElement, condition: Condition, scope = {}) =>
  evaluateCondition(root, condition, scope).holds

describe('evaluateCondition on the recorded CRM', () => {
  test('dialog: the duplicate modal is present, optionally with its text', async () => {
    const { root } = await recorded('crm-duplicate-dialog')
    expect(holds(root, { kind: 'dialog' })).toBe(true)
    expect(holds(root, { kind: 'dialog', text: 'already exists' })).toBe(true)
    expect(holds(root, { kind: 'dialog', text: 'Duplicate customer', match: 'exact' })).toBe(true)
    expect(holds(root, { kind: 'dialog', text: 'was deleted' })).toBe(false)
    const created = await recorded('crm-created')
    expect(holds(created.root, { kind: 'dialog' })).toBe(false)
  })

  test('dialog: a native alert modelled as alertdialog counts, a non-modal dialog does not', () => {
    const root: UiElement = {
      ref: 'r',
      role: 'window',
      name: 'App',
      states: [],
      children: [
        { ref: 'a', role: 'alertdialog', name: 'Saved!', states: ['modal'], children: [] },
        { ref: 'b', role: 'dialog', name: 'Help', states: [], children: [] },
      ],
    }
    expect(openDialogs(root).map((d) => d.name)).toEqual(['Saved!'])
  })

  test('text: visible text anywhere, in names, values and descriptions', async () => {
    const { root } = await recorded('crm-email-required')
    expect(holds(root, { kind: 'text', text: 'Email is required' })).toBe(true)
    expect(holds(root, { kind: 'text', text: 'email IS required' })).toBe(true)
    expect(holds(root, { kind: 'text', text: 'Customer saved' })).toBe(false)
    const created = await recorded('crm-created')
    expect(holds(created.root, { kind: 'text', text: 'Customer {{id}} created' }, { id: 'C-1042' })).toBe(
      true,
    )
  })

  test('appears / disappears follow the selector', async () => {
    const { root } = await recorded('crm-created')
    const created = { fingerprints: [{ by: 'automationId' as const, ids: ['created-id'] }] }
    expect(holds(root, { kind: 'appears', target: created })).toBe(true)
    expect(holds(root, { kind: 'disappears', target: created })).toBe(false)
    const form = await recorded('crm-new-customer')
    expect(holds(form.root, { kind: 'disappears', target: created })).toBe(true)
  })

  test('anyOf holds when one holds and reports which', async () => {
    const { root } = await recorded('crm-duplicate-dialog')
    const result = evaluateCondition(
      root,
      {
        kind: 'anyOf',
        conditions: [
          { kind: 'text', text: 'Customer saved' },
          { kind: 'dialog', text: 'already exists' },
        ],
      },
      {},
    )
    expect(result.holds).toBe(true)
    expect(result.detail).toContain('Duplicate customer')
  })
})

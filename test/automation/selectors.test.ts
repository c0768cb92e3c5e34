import { describe, expect, test } from 'bun:test'
import { indexTree, pathTo } from '../../src/automation/element-tree.ts'
import {
  describeCandidates,
  describeSelector,
  renderSelector,
  resolveSelector,
} from '../../src/automation/selectors.ts'
import type { Fingerprint, Selector } from '../../src/protocol/automation.ts'
import type { UiElement } from '../../src/protocol/elements.ts'
import { all, only, recorded } from './recorded.ts'

const sel = (...fingerprints: Fingerprint[]): Selector => ({ fingerprints })

function found(root: UiElement, selector: Selector): UiElement {
  const resolution = resolveSelector(root, selector)
  if (resolution.status !== 'found') throw new Error(`expected found, got ${resolution.status}`)
  return resolution.element
}

describe('resolveSelector on the recorded CRM', () => {
  test('automationId finds the DOM id; a chain requires the ids as ancestors in order', async () => {
    const { root } = await recorded('crm-new-customer')
    expect(found(root, sel({ by: 'automationId', ids: ['email'] })).role).toBe('textbox')
    expect(found(root, sel({ by: 'automationId', ids: ['customer-form', 'email'] })).name).toBe('Email')
    expect(resolveSelector(root, sel({ by: 'automationId', ids: ['email', 'customer-form'] })).status).toBe(
      'not-found',
    )
    expect(
      resolveSelector(root, sel({ by: 'automationId', ids: ['screen-customers', 'email'] })).status,
    ).toBe('not-found')
  })

  test('role + name matches the accessible name built from the label', async () => {
    const { root } = await recorded('crm-new-customer')
    expect(found(root, sel({ by: 'role', role: 'textbox', name: 'Email' })).automationId).toBe('email')
    expect(found(root, sel({ by: 'role', role: 'combobox', name: 'country', match: 'contains' })).value).toBe(
      'Select a country',
    )
    expect(resolveSelector(root, sel({ by: 'role', role: 'button', name: 'Email' })).status).toBe('not-found')
  })

  test('a label relation finds the control next to a text, also for controls without a name', async () => {
    const { root } = await recorded('crm-new-customer')
    expect(found(root, sel({ by: 'label', label: 'Country' })).automationId).toBe('country')
    expect(found(root, sel({ by: 'label', label: 'Email:' })).automationId).toBe('email')
    const unnamed: UiElement = {
      ref: 'r',
      role: 'window',
      name: 'Legacy',
      states: [],
      children: [
        { ref: 'a', role: 'text', name: 'Phone:', states: [], children: [] },
        { ref: 'b', role: 'textbox', name: '', value: '', states: [], children: [] },
        { ref: 'c', role: 'text', name: 'Fax:', states: [], children: [] },
        { ref: 'd', role: 'textbox', name: '', value: '', states: [], children: [] },
        { ref: 'e', role: 'checkbox', name: '', states: [], children: [] },
        { ref: 'f', role: 'text', name: 'Newsletter', states: [], children: [] },
        { ref: 'g', role: 'checkbox', name: '', states: [], children: [] },
        { ref: 'h', role: 'text', name: 'Invoices by post', states: [], children: [] },
      ],
    }
    expect(found(unnamed, sel({ by: 'label', label: 'Phone' })).ref).toBe('b')
    expect(found(unnamed, sel({ by: 'label', label: 'Fax' })).ref).toBe('d')
    // "[x] Newsletter": a toggle stands before its label.
    expect(found(unnamed, sel({ by: 'label', label: 'Newsletter', role: 'checkbox' })).ref).toBe('e')
    expect(found(unnamed, sel({ by: 'label', label: 'Invoices by post', role: 'checkbox' })).ref).toBe('g')
  })

  test('a path built by pathTo picks exactly its element, for every element of every recording', async () => {
    for (const name of [
      'crm-customers',
      'crm-new-customer',
      'crm-lookup-found',
      'crm-duplicate-dialog',
    ] as const) {
      const { root } = await recorded(name)
      const index = indexTree(root)
      for (const element of all(root).slice(1)) {
        expect(found(root, sel({ by: 'path', path: pathTo(index, element) }))).toBe(element)
      }
    }
  })

  test('text prefers the innermost element that shows it', async () => {
    const { root } = await recorded('crm-created')
    expect(found(root, sel({ by: 'text', text: 'C-1042', match: 'contains' })).automationId).toBe(
      'created-id',
    )
    const status = found(root, sel({ by: 'text', text: '^Customer C-\\d+ created$', match: 'regex' }))
    expect(status.role).toBe('status')
  })

  test('the first fingerprint that matches decides; several matches are ambiguous, never the first', async () => {
    const { root } = await recorded('crm-customers')
    const fallback = resolveSelector(
      root,
      sel({ by: 'automationId', ids: ['no-such-id'] }, { by: 'role', role: 'button', name: 'New customer' }),
    )
    expect(fallback).toMatchObject({ status: 'found', fingerprint: 1 })
    const ambiguous = resolveSelector(
      root,
      sel(
        { by: 'role', role: 'cell', name: 'example', match: 'contains' },
        { by: 'role', role: 'cell', name: 'ada@example.com' },
      ),
    )
    expect(ambiguous.status).toBe('ambiguous')
    if (ambiguous.status !== 'ambiguous') return
    expect(ambiguous.fingerprint).toBe(0)
    expect(ambiguous.matches.map((e) => e.name)).toEqual([
      'grace.hopper@example.com',
      'ada@example.com',
      'jan.devries@example.nl',
    ])
  })

  test('templates in fingerprints are rendered from the input', async () => {
    const { root } = await recorded('crm-customers')
    const selector = renderSelector(sel({ by: 'role', role: 'cell', name: '{{_http.params.id}}' }), {
      _http: { params: { id: 'C-1040' } },
    })
    expect(describeSelector(selector)).toBe('cell "C-1040"')
    const cell = found(root, selector)
    const row = only(root, (e) => e.children.includes(cell))
    expect(row.children.map((c) => c.name)).toContain('Ada Lovelace')
  })
})

/** An element of a hand-made tree: the roles and names a selector reads, nothing else. */
const el = (ref: string, role: UiElement['role'], name: string, children: UiElement[] = []): UiElement => ({
  ref,
  role,
  name,
  states: [],
  children,
})

describe('a name with a count beside it', () => {
  const folder = (ref: string, name: string, count?: string) => {
    const shown = count ? `${name} ${count}` : name
    return el(`${ref}i`, 'treeitem', shown, [el(ref, 'link', shown)])
  }
  const tree = (...items: UiElement[]) => el('w', 'window', 'Mail', [el('t', 'tree', '', items)])

  test('an exact name finds the control named by it and a count, when none is named so whole', () => {
    const root = tree(folder('a', 'Inbox', '4'), folder('b', 'Projects', '(12)'), folder('c', 'Project'))
    expect(found(root, sel({ by: 'role', role: 'link', name: 'Projects' })).ref).toBe('b')
    const row = {
      by: 'inRow',
      rowText: 'Projects',
      rowMatch: 'exact',
      role: 'link',
      name: 'Projects',
    } as const
    expect(found(root, sel(row)).ref).toBe('b')
    expect(resolveSelector(root, sel({ by: 'role', role: 'link', name: 'Inbox 5' })).status).toBe('not-found')
    const words = tree(folder('a', 'Projects', 'old'), folder('b', 'Projects', '2024 Q1'))
    expect(resolveSelector(words, sel({ by: 'role', role: 'link', name: 'Projects' })).status).toBe(
      'not-found',
    )
    // Outside a tree, tab or menu a bare number is part of the name; one in brackets is a count.
    const rooms = el('w', 'window', 'Rooms', [el('x', 'link', 'Room 101'), el('y', 'link', 'Kitchen (3)')])
    expect(resolveSelector(rooms, sel({ by: 'role', role: 'link', name: 'Room' })).status).toBe('not-found')
    expect(found(rooms, sel({ by: 'role', role: 'link', name: 'Kitchen' })).ref).toBe('y')
    // Four digits are a name even in a tree: "Archive 2024" is not the folder "Archive".
    const years = tree(folder('a', 'Archive', '2024'), folder('b', 'Projects', '7'))
    expect(resolveSelector(years, sel({ by: 'role', role: 'link', name: 'Archive' })).status).toBe(
      'not-found',
    )
    expect(found(years, sel({ ...row, rowText: 'Projects', name: 'Projects' })).ref).toBe('b')
  })

  test('a name a style shows in capitals is the same name, when only one control has it', () => {
    const caps = el('w', 'window', 'Editor', [el('x', 'button', 'ADD NEW TAG'), el('y', 'button', 'Publish')])
    expect(found(caps, sel({ by: 'role', role: 'button', name: 'Add New Tag' })).ref).toBe('x')
    // Two of them without case: neither is picked; the exact one always wins.
    const two = el('w', 'window', 'Editor', [el('x', 'button', 'ADD'), el('y', 'button', 'add')])
    expect(resolveSelector(two, sel({ by: 'role', role: 'button', name: 'Add' })).status).toBe('not-found')
    expect(found(two, sel({ by: 'role', role: 'button', name: 'add' })).ref).toBe('y')
  })

  test('a control named so whole wins over one that only holds the name among its texts', () => {
    const root = tree(folder('a', 'Suppliers'), folder('b', 'Suppliers', '2'))
    expect(found(root, sel({ by: 'role', role: 'link', name: 'Suppliers' })).ref).toBe('a')
    expect(
      resolveSelector(root, sel({ by: 'role', role: 'link', name: 'Suppl', match: 'exact' })).status,
    ).toBe('not-found')
  })
})

describe('a scope and names drawn as glyphs', () => {
  test('a scope narrows before names are compared: a count inside the menu is found beside a whole name outside', () => {
    const root = el('w', 'window', 'Mail', [
      el('t', 'tree', '', [el('ti', 'treeitem', 'Suppliers', [el('side', 'link', 'Suppliers')])]),
      el('m', 'menu', 'Move to', [
        el('li', 'listitem', 'Suppliers (2)', [el('pick', 'link', 'Suppliers (2)')]),
      ]),
    ])
    expect(found(root, sel({ by: 'role', role: 'link', name: 'Suppliers', within: 'menu' })).ref).toBe('pick')
    expect(found(root, sel({ by: 'role', role: 'link', name: 'Suppliers' })).ref).toBe('side')
    const inRow = {
      by: 'inRow',
      rowText: 'Suppliers',
      rowMatch: 'exact',
      role: 'link',
      name: 'Suppliers',
    } as const
    expect(found(root, sel({ ...inRow, within: 'menu' })).ref).toBe('pick')
  })

  test('a name saved as a glyph alone never matches the nameless controls', () => {
    const root = el('w', 'window', 'Mail', [el('trash', 'button', ''), el('cog', 'button', 'Settings')])
    expect(resolveSelector(root, sel({ by: 'role', role: 'button', name: '\uf013' })).status).toBe(
      'not-found',
    )
    expect(found(root, sel({ by: 'role', role: 'button', name: '\uf013 Settings' })).ref).toBe('cog')
  })
})

describe('describeCandidates', () => {
  test('lists role, name, id and a path that picks each candidate', async () => {
    const { root } = await recorded('crm-customers')
    const resolution = resolveSelector(
      root,
      sel({ by: 'role', role: 'button', name: 'customer', match: 'contains' }),
    )
    if (resolution.status !== 'ambiguous') throw new Error('expected ambiguity')
    const candidates = describeCandidates(root, resolution.matches)
    expect(candidates.map((c) => c.text)).toEqual([
      'button "New customer" #new-customer at generic[0] > generic[0] > generic[0] > button[0]',
      'button "Find customer" #find-customer at generic[0] > generic[0] > generic[0] > button[1]',
    ])
    for (const [i, candidate] of candidates.entries()) {
      expect(found(root, sel({ by: 'path', path: candidate.path }))).toBe(resolution.matches[i]!)
    }
  })
})

// The builder's judgement on screens of two real GTK apps, recorded through the Linux desktop
// driver (native-snapshots/capture.ts): Osmo's contacts and HomeBank's accounts. The same code
// paths as for web pages: screen reading (label relations, the text before a box, a dialog's
// title), the open modal dialog as the only part that takes input, menus as ways, a dialog's OK
// as its submit, a dialog closing as the ending, a message box as a scenario, a filter box's
// results, and reads from table cells. No desktop needed.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { indexTree } from '../../src/automation/element-tree.ts'
import { evaluateCondition, renderSelector, resolveSelector } from '../../src/automation/index.ts'
import { moveScore, refusal } from '../../src/builder/explore/explore-moves.ts'
import { inputTexts } from '../../src/builder/generalise.ts'
import { inputLeaves } from '../../src/builder/input-leaves.ts'
import { appSpecOf, scoreWindows } from '../../src/builder/locate/locate-window.ts'
import { readPrompt } from '../../src/builder/locate/prompt.ts'
import { assignFields, screenFitness } from '../../src/builder/map/field-scores.ts'
import { classifyEnding } from '../../src/builder/observe/classify.ts'
import { resultsEnding } from '../../src/builder/observe/results-ending.ts'
import { expectedReads, type OutputContext } from '../../src/builder/outputs/outputs.ts'
import { actionElements, activeScope, readControls } from '../../src/builder/screen.ts'
import {
  buttonsNear,
  chooseSubmit,
  fieldsInDialog,
  speaksForItself,
} from '../../src/builder/submit/submit.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../src/protocol/elements.ts'
import { all, only } from '../automation/recorded.ts'
import { offlineSession } from './scripted-io.ts'

type Native =
  | 'osmo-calendar'
  | 'osmo-contacts'
  | 'osmo-add-contact'
  | 'osmo-contact-added'
  | 'osmo-contacts-search'
  | 'homebank-main'
  | 'homebank-manage-menu'
  | 'homebank-add-transaction'
  | 'homebank-manage-accounts'
  | 'homebank-account-name'
  | 'homebank-account-exists'
  | 'homebank-account-added'

const native = async (name: Native): Promise<Snapshot> =>
  (await Bun.file(join(import.meta.dir, 'native-snapshots', `${name}.json`)).json()) as Snapshot

const labels = (root: UiElement) => readControls(root).map((c) => `${c.kind}:${c.label}`)

describe('reading a native screen', () => {
  test('labels come from label relations (HomeBank) or the text before the box (Osmo), without their colon', async () => {
    const transaction = await native('homebank-add-transaction')
    expect(labels(transaction.root)).toEqual([
      'radio-group:Add transaction',
      'text:Date',
      'text:Amount',
      'text:Account',
      'select:pm-none',
      'text:Info',
      'text:Payee',
      'text:Category',
      'text:Memo',
      'text:Tags',
    ])
    const payment = readControls(transaction.root).find((c) => c.kind === 'select')!
    expect(payment.names).toContain('Payment')
    expect(payment.options).toContain('Cash')
    const contact = await native('osmo-add-contact')
    expect(labels(contact.root)).toEqual([
      'select:Group',
      'text:First name',
      'text:Last name',
      'text:Second name',
      'text:Nickname',
      'text:Tags',
      'text:Address',
      'text:Postcode',
    ])
  })

  test('while a modal dialog is open, only it takes input: the window behind it offers nothing', async () => {
    const contact = await native('osmo-add-contact')
    expect(activeScope(contact.root)).toMatchObject({ role: 'dialog', name: 'Add contact' })
    // The contacts tab's search box and toolbar are behind the dialog.
    expect(readControls(contact.root).some((c) => c.names.includes('Search'))).toBe(false)
    expect(actionElements(contact.root).map((e) => e.name)).toEqual(['Clear', 'Cancel'])
    // A dialog over a dialog: the top one.
    const prompt = await native('homebank-account-name')
    expect(activeScope(prompt.root)).toMatchObject({ role: 'dialog', name: 'Account name' })
    expect(actionElements(prompt.root).map((e) => e.name)).toEqual(['Cancel', 'OK'])
  })

  test('a dialog read before its own captions were drawn takes none from the window behind it', async () => {
    const contact = await native('osmo-add-contact')
    const dialog = contact.root.children.find((c) => c.role === 'dialog')!
    expect(dialog).toBeTruthy()
    // The window behind ends with a long text of its own (a calendar day's details); the dialog's
    // captions are not there yet.
    const behind = contact.root.children.find((c) => c.role !== 'dialog')!
    const half: UiElement = {
      ...contact.root,
      children: [
        {
          ...behind,
          children: [...behind.children, { ...dialog, role: 'text', name: 'Today Info', children: [] }],
        },
        { ...dialog, children: dialog.children.filter((c) => c.role !== 'text') },
      ],
    }
    const read = readControls(half)
    expect(read.length).toBeGreaterThan(0)
    expect(read.some((c) => c.names.includes('Today Info'))).toBe(false)
  })
  test('the one box of a dialog that asks for one thing is named by the dialog’s title', async () => {
    const { root } = await native('homebank-account-name')
    const [box] = readControls(root)
    expect(box).toMatchObject({ kind: 'text', label: 'Account name' })
    expect(box!.element.name).toBe('')
    const { assigned, unsure } = assignFields(inputLeaves({ name: 'Savings' }), readControls(root))
    expect(assigned.map((a) => `${a.leaf.path}→${a.control.label}`)).toEqual(['name→Account name'])
    expect(unsure).toEqual([])
  })

  test('a transaction sample maps onto HomeBank’s dialog through the label relations', async () => {
    const { root } = await native('homebank-add-transaction')
    const leaves = inputLeaves({ amount: 42.5, payee: 'Bakery', category: 'Food', memo: 'bread' })
    const { assigned, unsure } = assignFields(leaves, readControls(root))
    expect(assigned.map((a) => `${a.leaf.path}→${a.control.label}`).sort()).toEqual([
      'amount→Amount',
      'category→Category',
      'memo→Memo',
      'payee→Payee',
    ])
    expect(unsure).toEqual([])
    expect(screenFitness(leaves, readControls(root))).toBe(1)
  })
})

describe('exploring a native app', () => {
  test('the menu bar’s menus are what exploring opens; their items score like buttons', async () => {
    const reading = readPrompt('Add an account in HomeBank')
    const home = await native('homebank-main')
    const index = indexTree(home.root)
    const menus = actionElements(home.root).filter(
      (e) => e.role === 'menuitem' && index.parent.get(e)?.role === 'menubar',
    )
    expect(menus.map((m) => m.name)).toEqual([
      'File',
      'Edit',
      'View',
      'Manage',
      'Transactions',
      'Reports',
      'Tools',
      'Help',
    ])
    // None of the menus' own names shares a word with the task: only their items do.
    expect(menus.map((m) => moveScore(reading, m.name)).every((s) => s === 0)).toBe(true)
    const open = await native('homebank-manage-menu')
    const manage = only(open.root, (e) => e.role === 'menuitem' && e.name === 'Manage')
    const items = manage.children.filter((c) => c.role === 'menuitem').map((c) => c.name)
    expect(items).toContain('Accounts...')
    expect(moveScore(reading, 'Accounts...')).toBeGreaterThan(0)
    const accounts = only(open.root, (e) => e.name === 'Accounts...')
    expect(refusal(indexTree(open.root), accounts, undefined)).toBeUndefined()
  })

  test('a dialog’s “Add” is a way on even though its (disabled) form is empty', async () => {
    const { root } = await native('homebank-manage-accounts')
    const add = actionElements(root).find((e) => e.name === 'Add')!
    expect(refusal(indexTree(root), add, undefined)).toBeUndefined()
    expect(moveScore(readPrompt('Add an account in HomeBank'), add.name)).toBeGreaterThan(0)
  })

  test('Osmo’s tabs are ways to its pages; the contacts tab scores for a contact', async () => {
    const { root } = await native('osmo-calendar')
    const reading = readPrompt('Add a contact in Osmo')
    const tabs = actionElements(root).filter((e) => e.role === 'tab')
    expect(tabs.map((t) => [t.name, moveScore(reading, t.name) > 0])).toEqual([
      ['Calendar', false],
      ['Tasks', false],
      ['Contacts', true],
      ['Notes', false],
    ])
  })
})

describe('sending a native form', () => {
  test('a dialog’s OK sends its fields; outside a dialog “OK” stays doubtful', async () => {
    const { root } = await native('osmo-add-contact')
    const reading = readPrompt('Add a contact in Osmo')
    const fields = readControls(root)
      .filter((c) => c.label === 'First name' || c.label === 'Last name')
      .map((c) => c.element)
    expect(fieldsInDialog(root, fields)).toBe(true)
    // OK is greyed out until a name is typed: buttonsNear lists what the dialog shows.
    expect(buttonsNear(root, fields).map((b) => b.name)).toEqual(['Clear', 'Cancel', 'OK'])
    expect(speaksForItself('OK', reading, true)).toBe(true)
    expect(speaksForItself('OK', reading)).toBe(false)
    const { session, script } = offlineSession('Add a contact in Osmo')
    const choice = await chooseSubmit(session, root, fields, reading)
    expect(choice.label).toBe('OK')
    expect(script.questions).toEqual([])
  })

  test('a filter box has no send button: “Show contact location on the map” is no way to search', async () => {
    const { root } = await native('osmo-contacts')
    const reading = readPrompt('Find a contact in Osmo by first name and return the last name')
    const search = readControls(root).find((c) => c.shape === 'search')!
    const { session, script } = offlineSession(reading.text)
    const choice = await chooseSubmit(session, root, [search.element], reading)
    expect(choice).toMatchObject({ label: 'Enter', step: { kind: 'keys', keys: 'Enter' } })
    expect(script.lines.join('\n')).toContain('no button next to them is named for searching')
  })
})

describe('judging a native ending', () => {
  test('the Add contact dialog closing is the success; the new row is what it says', async () => {
    const before = await native('osmo-add-contact')
    const after = await native('osmo-contact-added')
    const inputs = inputTexts({ firstName: 'Ada', lastName: 'Lovelace' })
    const fields = readControls(before.root).map((c) => c.element)
    const ending = classifyEnding(before.root, after.root, fields, inputs)!
    expect(ending).toMatchObject({ kind: 'screen', message: 'None Ada Lovelace', name: 'Add contact done' })
    expect(ending.condition.kind).toBe('disappears')
    expect(evaluateCondition(after.root, ending.condition, {}).holds).toBe(true)
    expect(evaluateCondition(before.root, ending.condition, {}).holds).toBe(false)
  })

  test('HomeBank’s “name already exists” message box is a dialog ending named without its title', async () => {
    const before = await native('homebank-account-name')
    const after = await native('homebank-account-exists')
    const inputs = inputTexts({ name: 'Checking' })
    const ending = classifyEnding(
      before.root,
      after.root,
      readControls(before.root).map((c) => c.element),
      inputs,
    )!
    expect(ending.kind).toBe('dialog')
    expect(ending.message).toBe("Error Cannot add an account 'Checking', this name already exists.")
    expect(ending.name).toBe("Cannot add an account '…', this name already exists")
    expect(ending.signature).toBe("dialog: error cannot add an account '*', this name already exists.")
    const added = await native('homebank-account-added')
    expect(evaluateCondition(after.root, ending.condition, {}).holds).toBe(true)
    expect(evaluateCondition(added.root, ending.condition, {}).holds).toBe(false)
  })

  test('a prompt dialog that closed with an alert in its place is no success', async () => {
    const before = await native('homebank-account-name')
    const added = await native('homebank-account-added')
    const exists = await native('homebank-account-exists')
    const fields = readControls(before.root).map((c) => c.element)
    const ending = classifyEnding(before.root, added.root, fields, inputTexts({ name: 'Savings' }))!
    expect(ending).toMatchObject({ kind: 'screen', name: 'Account name done' })
    expect(evaluateCondition(added.root, ending.condition, {}).holds).toBe(true)
    // The account-name prompt is gone there too, but an error stands in its place.
    expect(evaluateCondition(exists.root, ending.condition, {}).holds).toBe(false)
    expect(evaluateCondition(before.root, ending.condition, {}).holds).toBe(false)
  })

  test('a filter box’s results are the ending: the row showing the value searched for', async () => {
    const after = await native('osmo-contacts-search')
    const ending = resultsEnding(
      after.root,
      [{ path: 'firstName', value: 'Ada' }],
      inputTexts({ firstName: 'Ada' }),
    )!
    expect(ending).toMatchObject({ kind: 'screen', message: 'None Ada Lovelace', name: 'Found' })
    expect(evaluateCondition(after.root, ending.condition, { firstName: 'Ada' }).holds).toBe(true)
    expect(evaluateCondition(after.root, ending.condition, { firstName: 'Grace' }).holds).toBe(false)
    // Reading the last name back: the cell of the result row.
    const ctx: OutputContext = {
      ending,
      after: after.root,
      inputs: inputTexts({ firstName: 'Ada' }),
      values: [{ path: 'firstName', value: 'Ada' }],
      reading: readPrompt('Find a contact in Osmo by first name and return the last name'),
      submitLabel: 'Enter',
    }
    const { steps, missing } = expectedReads(ctx, { lastName: 'Lovelace' })
    expect(missing).toEqual([])
    const found = resolveSelector(after.root, renderSelector(steps[0]!.target!, { firstName: 'Ada' }))
    expect(found.status === 'found' && [found.element.role, found.element.name]).toEqual(['cell', 'Lovelace'])
    // By the row showing the value searched for and the column's header, not by the row's place.
    expect(steps[0]!.target!.fingerprints[0]).toEqual({
      by: 'inRow',
      rowText: '{{firstName}}',
      rowMatch: 'exact',
      role: 'cell',
      name: '.*',
      match: 'regex',
      column: 'Last name',
    })
    const list = await native('osmo-contact-added')
    const rendered = renderSelector(steps[0]!.target!, { firstName: 'Ada' })
    const inList = resolveSelector(list.root, { fingerprints: [rendered.fingerprints[0]!] })
    expect(inList.status === 'found' && inList.element.name).toBe('Lovelace')
  })
})

describe('finding and starting a native app', () => {
  const windows: WindowInfo[] = [
    {
      id: 'o',
      title: 'Osmo 0.4.4',
      app: 'osmo',
      kind: 'window',
      launchCommand: { executable: 'osmo' },
    },
    {
      id: 'h',
      title: 'household.xhb - Household - HomeBank',
      app: 'homebank',
      kind: 'window',
      launchCommand: { executable: 'homebank', args: ['/home/test/household.xhb'], cwd: '/home/test' },
    },
  ]

  test('the prompt’s app name picks the window; the app is started afresh from its command line', () => {
    expect(scoreWindows(readPrompt('Add a contact in Osmo'), windows)[0]!.window.id).toBe('o')
    expect(scoreWindows(readPrompt('Add an account in HomeBank'), windows)[0]!.window.id).toBe('h')
    expect(appSpecOf(windows[1]!)).toEqual({
      executable: 'homebank',
      args: ['/home/test/household.xhb'],
      cwd: '/home/test',
      processName: 'homebank',
    })
    // No command line known: attach to the window by its program and title, as before.
    expect(appSpecOf({ ...windows[0]!, launchCommand: undefined })).toEqual({
      processName: 'osmo',
      titleContains: 'Osmo 0.4.4',
    })
  })

  test('the recorded screens are whole windows with their open dialogs inside', async () => {
    const { root, window } = await native('homebank-account-exists')
    expect(root.role).toBe('window')
    expect(window.title).toBe('household.xhb - Household - HomeBank')
    expect(
      all(root)
        .filter((e) => e.states.includes('modal'))
        .map((e) => `${e.role}:${e.name}`),
    ).toEqual(['dialog:Manage Accounts', 'alertdialog:Error'])
  })
})

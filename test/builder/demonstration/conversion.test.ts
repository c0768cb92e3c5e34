// "Show me", the pure part: recordings made of snapshots recorded from real screens (the fixture
// CRM, Fossil, Adminer, HomeBank) turned into steps. What a person did on the way that is not the
// task goes; the sample's values become templates; a password comes from the job's secrets.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { BuildRequest, DesktopPort } from '../../../src/builder/contract.ts'
import { generaliseSelector } from '../../../src/builder/demonstrate/demonstrated-selectors.ts'
import { readValue } from '../../../src/builder/demonstrate/demonstrated-values.ts'
import { demonstrationSteps, readDemonstration } from '../../../src/builder/demonstrate/demonstration.ts'
import { designSelector } from '../../../src/builder/selector-design.ts'
import { BuildFailure, BuildSession } from '../../../src/builder/session.ts'
import type { Step } from '../../../src/protocol/automation.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import { only, recorded } from '../../automation/recorded.ts'
import { optionLabelled, scriptedIO } from '../scripted-io.ts'
import { recorded as recordedPage } from '../values/helpers.ts'
import { RecordingKit } from './recording-kit.ts'

const request = (input: Record<string, unknown>, extra: Partial<BuildRequest> = {}): BuildRequest => ({
  prompt: 'Create a customer',
  sample: { id: 's1', input },
  previous: [],
  ...extra,
})
const names = (steps: Step[]) => steps.map((s) => s.name)
const stepValue = (step: Step | undefined) => (step && 'value' in step ? step.value : undefined)

async function native(name: string): Promise<Snapshot> {
  return (await Bun.file(join(import.meta.dir, '..', 'native-snapshots', `${name}.json`)).json()) as Snapshot
}

/** A desktop that must not be touched: reading a demonstration is judgement plus questions. */
const noDesktop = new Proxy({} as DesktopPort, {
  get(_, key) {
    if (key === 'name') return 'none'
    throw new Error(`reading a demonstration touched the desktop (${String(key)})`)
  },
})

/** Hand-made screens of one app: elements with boxes (rows 24 px high), each window a tab. */
function drawnScreens() {
  let ref = 0
  const el = (
    role: UiElement['role'],
    name: string,
    y: number,
    children: UiElement[] = [],
    x = 20,
  ): UiElement => ({
    ref: `e${++ref}`,
    role,
    name,
    states: [],
    children,
    bounds: { x, y, width: 200, height: 24 },
  })
  const screen = (title: string, app: string, url: string, ...children: UiElement[]): Snapshot => ({
    window: { id: 'w', title, app, kind: 'tab', url },
    root: { ref: `r${++ref}`, role: 'window', name: title, states: [], children },
    capturedAt: '2025-01-01T10:00:00.000Z',
  })
  return { el, screen }
}

describe('a demonstration becomes steps', () => {
  test('a person quicker than the recorder: typing into a dialog the recorder had not read yet goes into the dialog’s box', async () => {
    const [contacts, dialog, added] = await Promise.all([
      native('osmo-contacts'),
      native('osmo-add-contact'),
      native('osmo-contact-added'),
    ])
    // Osmo's boxes have no names: the one right of the caption.
    const after = (caption: string) => (e: { role: string; bounds?: { x: number; y: number } }) => {
      const label = dialog.root.children
        .flatMap(function all(x): (typeof dialog.root)[] {
          return [x, ...x.children.flatMap(all)]
        })
        .find((x) => x.role === 'text' && x.name === caption)!
      return !!e.bounds && Math.abs(e.bounds.y - label.bounds!.y) < 5 && e.bounds.x > label.bounds!.x
    }
    const kit = new RecordingKit([contacts, dialog, added])
      .click(0, 'button', 'New contact')
      .type(1, 'textbox', after('First name:'), 'Ada')
      .click(1, 'button', 'OK')
    // The typing was recorded while the recorder still held the screen without the dialog.
    kit.actions[1]!.before = 0
    const demo = readDemonstration(kit.recording(), request({ firstName: 'Ada' }))
    expect(names(demo.path)).toEqual(['Click “New contact”', 'Fill “First name”'])
    expect(stepValue(demo.path[1])).toBe('{{firstName}}')
  })

  test('a form post: the navigation it caused is reported before the new page settled; the ending is still the new page', async () => {
    const [customers, form, created] = await Promise.all([
      recorded('crm-customers'),
      recorded('crm-new-customer'),
      recorded('crm-created'),
    ])
    const kit = new RecordingKit([customers, form, created])
      .click(0, 'button', 'New customer')
      .type(1, 'textbox', 'First name', 'Ada')
      .click(1, 'button', 'Save')
      // The browser reports the post's navigation at once, while the form still shows.
      .navigate(1, 'http://crm.test/crm/customers/C-1042', 50)
    const demo = readDemonstration(kit.recording(), request({ firstName: 'Ada' }))
    expect(demo.submit).toMatchObject({ kind: 'click', name: 'Click “Save”' })
    expect(demo.before).toBe(form)
    expect(demo.after).toBe(created)
  })

  test('a typo corrected midway is one clean fill; a click that only focused a field goes', async () => {
    const [customers, form, created] = await Promise.all([
      recorded('crm-customers'),
      recorded('crm-new-customer'),
      recorded('crm-created'),
    ])
    const kit = new RecordingKit([customers, form, created])
      .click(0, 'button', 'New customer')
      .click(1, 'textbox', 'First name')
      .type(1, 'textbox', 'First name', 'A', 'Ad', 'Ada')
      .type(1, 'textbox', 'Last name', 'Lovelace')
      .type(1, 'textbox', 'Email', 'ada@exmaple.com', 'ada@exmapl', 'ada@exampl', 'ada@example.com')
      .choose(1, 'combobox', 'Country', 'France')
      .click(1, 'button', 'Save')
    const input = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'France' }
    const demo = readDemonstration(kit.recording(), request(input))

    expect(names(demo.path)).toEqual([
      'Click “New customer”',
      'Fill “First name”',
      'Fill “Last name”',
      'Fill “Email”',
      'Choose “Country”',
    ])
    expect(demo.path.slice(1).map(stepValue)).toEqual([
      '{{firstName}}',
      '{{lastName}}',
      '{{email}}',
      '{{country}}',
    ])
    expect(demo.submit).toMatchObject({ kind: 'click', name: 'Click “Save”' })
    // The selectors exploration would design, on the screen each action was made on.
    const firstName = only(form.root, (e) => e.role === 'textbox' && e.name === 'First name')
    expect((demo.path[1] as Extract<Step, { kind: 'fill' }>).target).toEqual(
      designSelector(form.root, firstName, 'the “First name” field'),
    )
    expect(demo.before).toBe(form)
    expect(demo.after).toBe(created)
    expect(demo.fields.map((f) => f.name)).toEqual(['First name', 'Last name', 'Email', 'Country'])
    const said = demo.notes.map((n) => n.message)
    expect(said[0]).toBe(
      'From the demonstration: 12 actions → 6 steps (left out: a click that only put the cursor in “First name”; corrections in “Email” (its last value counts))',
    )
    expect(said).toContain('“Ada” typed into “First name” is the sample’s firstName')
    expect(said).toContain('“Save” sends the form')
  })

  test('detours go: an address opened and left, a screen visited and backed out of, a box ticked and unticked', async () => {
    const [customers, lookup, form, created] = await Promise.all([
      recorded('crm-customers'),
      recorded('crm-lookup-found'),
      recorded('crm-new-customer'),
      recorded('crm-created'),
    ])
    const record = { ...lookup, window: { ...lookup.window, url: 'http://fixtures/crm/customers/C-1040' } }
    const kit = new RecordingKit([customers, record, customers, lookup, customers, form, created])
      .navigate(0, 'http://fixtures/crm/customers/C-1040')
      .navigate(1, 'http://fixtures/crm/')
      .click(2, 'button', 'Find customer')
      .click(3, 'button', 'Back to customers')
      .click(4, 'button', 'New customer')
      .type(5, 'textbox', 'First name', 'Ada')
      .check(5, 'checkbox', 'VIP customer', true)
      .check(5, 'checkbox', 'VIP customer', false)
      .type(5, 'textbox', 'Email', 'ada@example.com')
      .click(5, 'button', 'Save')
    const demo = readDemonstration(kit.recording(), request({ firstName: 'Ada', email: 'ada@example.com' }))
    expect(names(demo.path)).toEqual(['Click “New customer”', 'Fill “First name”', 'Fill “Email”'])
    expect(demo.notes[0]!.message).toBe(
      'From the demonstration: 10 actions → 4 steps (left out: a detour through “http://fixtures/crm/customers/C-1040” and back; ' +
        'a detour through “Find customer” and back; “VIP customer”, changed and changed back)',
    )
  })

  test('a form left with Cancel and started again counts once; a Save the app refused was a correction', async () => {
    const [customers, form, refused, created] = await Promise.all([
      recorded('crm-customers'),
      recorded('crm-new-customer'),
      recorded('crm-email-required'),
      recorded('crm-created'),
    ])
    const kit = new RecordingKit([customers, form, customers, form, refused, created])
      .click(0, 'button', 'New customer')
      .type(1, 'textbox', 'Last name', 'Byron')
      .key(1, 'Tab', 'textbox', 'Last name')
      .click(1, 'button', 'Cancel')
      .click(2, 'button', 'New customer')
      .type(3, 'textbox', 'First name', 'Ada')
      .click(3, 'button', 'Save')
      .type(4, 'textbox', 'Email', 'ada@example.com')
      .click(4, 'button', 'Save')
    const demo = readDemonstration(kit.recording(), request({ firstName: 'Ada', email: 'ada@example.com' }))
    expect(names(demo.path)).toEqual(['Click “New customer”', 'Fill “First name”', 'Fill “Email”'])
    expect(demo.submit.name).toBe('Click “Save”')
    expect(demo.before).toBe(refused)
    expect(demo.notes[0]!.message).toBe(
      'From the demonstration: 9 actions → 4 steps (left out: a detour through “New customer” and back (with 1 value typed there); ' +
        'an earlier “Save” the app did not take)',
    )
  })

  test('a menu opened and closed with Escape, nothing chosen, goes; the menu item chosen later stays', async () => {
    const [main, menu, accounts] = await Promise.all([
      native('homebank-main'),
      native('homebank-manage-menu'),
      native('homebank-manage-accounts'),
    ])
    const kit = new RecordingKit([main, menu, main, menu, accounts])
      .click(0, 'menuitem', 'Manage')
      .key(1, 'Escape')
      .click(2, 'menuitem', 'Manage')
      .click(3, 'menuitem', 'Accounts...')
    const demo = readDemonstration(kit.recording(), request({}, { prompt: 'Open the accounts' }))
    expect(names(demo.path)).toEqual(['Click “Manage”'])
    expect(demo.submit.name).toBe('Click “Accounts...”')
    expect(demo.notes[0]!.message).toContain('a detour through “Manage” and back')
  })

  test('the sample’s values become templates, other values stay as typed', async () => {
    const [form, created] = await Promise.all([recorded('crm-new-customer'), recorded('crm-created')])
    const kit = new RecordingKit([form, created])
      .type(0, 'textbox', 'First name', 'Ada')
      .type(0, 'textbox', 'Last name', '  Lovelace ')
      .choose(0, 'combobox', 'Country', 'France')
      .check(0, 'checkbox', 'VIP customer', true)
      .type(0, 'textbox', 'Notes', 'Imported from the old CRM')
      .click(0, 'button', 'Save')
    const input = { firstName: 'Ada', lastName: 'Lovelace', country: 'france', vip: true }
    const demo = readDemonstration(kit.recording(), request(input))
    expect(demo.path).toMatchObject([
      { kind: 'fill', value: '{{firstName}}', optional: true },
      // Spacing aside, the same value.
      { kind: 'fill', value: '{{lastName}}', optional: true },
      // An option is matched without case at run time: the sample's "france" is France.
      { kind: 'select', value: '{{country}}', optional: true },
      { kind: 'check', checked: '{{vip}}', optional: true },
      { kind: 'fill', name: 'Fill “Notes”', value: 'Imported from the old CRM' },
    ])
    expect('optional' in demo.path[4]!).toBe(false)
    expect(demo.doubts).toEqual([])
    const said = demo.notes.map((n) => n.message)
    expect(said).toContain('“VIP customer” is set by the sample’s vip')
    expect(said).toContain(
      '“Imported from the old CRM” typed into “Notes” is not one of the sample’s values: the job always uses it',
    )
  })

  test('a number box holds the sample’s number however it was typed; a text box’s “024” stays apart', () => {
    const values = [
      { path: 'quantity', value: '24' },
      { path: 'sku', value: 'MUG-001' },
    ]
    // Typed after the box's own 0: the box takes numbers, so it is the number 24.
    expect(readValue('024', values, 'fill', 'Quantity', true)).toEqual({
      kind: 'sample',
      template: '{{quantity}}',
      paths: ['quantity'],
    })
    expect(readValue('24.0', values, 'fill', 'Quantity', true)).toMatchObject({ template: '{{quantity}}' })
    // A text box's "024" may be a code: never silently the sample's 24.
    expect(readValue('024', values, 'fill', 'Code', false)).not.toMatchObject({ kind: 'sample' })
    expect(readValue('25', values, 'fill', 'Quantity', true)).not.toMatchObject({ kind: 'sample' })
  })

  test('a styled drop-down chosen by two clicks is a choice; a save pressed after a search is the submit', () => {
    const { el, screen: page } = drawnScreens()
    const withValue = (value: string, e: UiElement): UiElement => ({ ...e, value })
    const screen = (title: string, url: string, ...children: UiElement[]) =>
      page(title, 'http://helpdesk.test', url, ...children)
    const search = el('textbox', 'Search Tickets...', 4, [], 800)
    const home = screen('At a glance', 'http://helpdesk.test/', search)
    const ticket = screen(
      '#7: Printer jam',
      'http://helpdesk.test/Ticket/Display.html?id=7',
      search,
      el('link', 'Basics', 40),
    )
    const form = (open: boolean) =>
      screen(
        'Modify ticket #7',
        'http://helpdesk.test/Ticket/Modify.html?id=7',
        search,
        el('text', 'Status:', 100),
        // A styled drop-down is named by the value it shows.
        withValue(
          'open',
          el(
            'combobox',
            'open',
            100,
            open
              ? [
                  el(
                    'listbox',
                    'open stalled resolved',
                    130,
                    [el('text', 'open', 130, [], 240), el('text', 'resolved', 160, [], 240)],
                    240,
                  ),
                ]
              : [],
            240,
          ),
        ),
        el('button', 'Save Changes', 300),
      )
    const done = screen(
      '#7: Printer jam',
      'http://helpdesk.test/Ticket/Display.html?id=7',
      search,
      el('text', "Ticket 7: Status changed from 'open' to 'resolved'", 100),
    )
    const kit = new RecordingKit([home, ticket, form(false), form(true), done])
      .type(0, 'textbox', 'Search Tickets...', '7')
      .key(0, 'Enter', 'textbox', 'Search Tickets...')
      .click(1, 'link', 'Basics')
      .click(2, 'combobox', 'open')
      .click(3, 'text', 'resolved')
      .click(3, 'button', 'Save Changes')
    const demo = readDemonstration(
      kit.recording(),
      request(
        { number: '7', status: 'resolved' },
        { prompt: 'Change the status of the ticket with this number' },
      ),
    )
    expect(names(demo.path)).toEqual([
      'Fill “Search Tickets...”',
      'Press Enter in “Search Tickets...”',
      'Click “Basics”',
      'Choose “Status”',
    ])
    expect(demo.path[3]).toMatchObject({ kind: 'select', value: '{{status}}' })
    expect(demo.submit.name).toBe('Click “Save Changes”')
  })

  test('a lookup whose results lack what it returns: the record the person opened after the search is the last step', () => {
    const { el, screen: page } = drawnScreens()
    const withValue = (value: string, e: UiElement): UiElement => ({ ...e, value })
    const screen = (title: string, ...children: UiElement[]) =>
      page(title, 'http://erp.test', 'http://erp.test/#parties', ...children)
    // The box shows what was typed as a text of its own, without a place of its own.
    const typed = (value: string): UiElement[] =>
      value ? [{ ref: `t${value.length}`, role: 'text', name: value, states: [], children: [] }] : []
    const search = (value: string) => withValue(value, el('combobox', 'Search', 4, typed(value), 400))
    const row = (selected: boolean) => ({
      ...el('row', 'Harbour Lights Cafe', 80, [el('cell', 'Harbour Lights Cafe', 80)]),
      states: selected ? ['selected' as const] : [],
    })
    const list = screen('Parties', search(''), el('button', 'Switch', 40))
    const found = (selected: boolean) =>
      screen('Parties', search('Harbour Lights Cafe'), el('button', 'Switch', 40), row(selected))
    const record = screen(
      'Parties',
      el('text', 'City:', 100),
      withValue('Whitby', el('combobox', 'City:', 100, [], 240)),
      el('cell', 'bookings@harbourlights.example', 160),
    )
    const kit = new RecordingKit([list, found(false), found(true), record])
      .type(0, 'combobox', 'Search', 'Harbour Lights Cafe')
      .key(0, 'Enter', 'combobox', 'Search')
      // The recorder names the text clicked inside the cell.
      .clickAs(1, 'cell', 'Harbour Lights Cafe', 'text')
      .click(2, 'button', 'Switch')
    const lookup = (expect: Record<string, unknown>) =>
      readDemonstration(
        kit.recording(),
        request(
          { name: 'Harbour Lights Cafe' },
          {
            prompt: 'Look up the customer with this name, return the city and e-mail',
            sample: { id: 's', input: { name: 'Harbour Lights Cafe' }, expect },
          },
        ),
      )
    const demo = lookup({ city: 'Whitby', email: 'bookings@harbourlights.example' })
    expect(names(demo.path)).toEqual([
      'Fill “Search”',
      'Press Enter in “Search”',
      'Click “Harbour Lights Cafe”',
    ])
    expect(demo.submit.name).toBe('Click “Switch”')
    expect(demo.after).toBe(record)
    // The row's cell, found under the click's point, not the search box's text of the same name:
    // each run picks the row showing its own name.
    expect(demo.path[2]).toMatchObject({
      kind: 'click',
      target: { fingerprints: [{ by: 'role', role: 'row', name: '{{name}}' }] },
    })
    // Without values to look for, what came after the search only looked at the result.
    const looked = lookup({ city: { $type: 'string' } })
    expect(looked.submit.name).toBe('Press Enter in “Search”')
  })

  test('a filter typed as “City: Leeds” is the sample’s city, also when the recorder read the box only once it held it', () => {
    const { el, screen: page } = drawnScreens()
    const screen = (...children: UiElement[]) =>
      page('Addresses', 'http://erp.test', 'http://erp.test/#addresses', ...children)
    // The recorder read the screen after the text went in: the box already holds it.
    const typed = screen({ ...el('combobox', 'Search', 4, [], 400), value: 'City: Leeds' })
    const results = screen(
      { ...el('combobox', 'Search', 4, [], 400), value: 'City: Leeds' },
      el('table', 'Addresses', 40, [el('row', 'Aire Valley Print Leeds', 64)]),
    )
    const kit = new RecordingKit([typed, results])
      .type(0, 'combobox', 'Search', 'City: Leeds')
      .key(0, 'Enter', 'combobox', 'Search')
    const demo = readDemonstration(
      kit.recording(),
      request(
        { city: 'Leeds' },
        { prompt: 'List the names of the customers who have an address in the given city' },
      ),
    )
    expect(names(demo.path)).toEqual(['Fill “Search”'])
    expect(demo.doubts[0]).toMatchObject({ value: 'City: Leeds' })
    expect(demo.doubts[0]!.choices.map((c) => c.template)).toContain('City: {{city}}')
  })

  test('one choice the recorder read only once it was made is kept; only what changed more than once was changed back', () => {
    const { el, screen: page } = drawnScreens()
    const screen = (...children: UiElement[]) =>
      page('New party', 'http://erp.test', 'http://erp.test/#party', ...children)
    const type = (value: string) => ({ ...el('combobox', 'Type', 40), value })
    const form = (value: string) => screen(el('textbox', 'Name', 4), type(value), el('button', 'Save', 80))
    const saved = screen(el('text', 'Party saved', 4))
    const read = (kit: RecordingKit) =>
      names(
        readDemonstration(
          kit.recording(),
          request({ name: 'Northwind' }, { prompt: 'Add a customer with this name' }),
        ).path,
      )
    // The screen before the choice was read after it: it already shows "E-Mail".
    const once = new RecordingKit([form('E-Mail'), saved])
      .type(0, 'textbox', 'Name', 'Northwind')
      .choose(0, 'combobox', 'Type', 'E-Mail')
      .click(0, 'button', 'Save')
    expect(read(once)).toEqual(['Fill “Name”', 'Choose “Type”'])
    // Chosen, then chosen back to what it was: left out.
    const back = new RecordingKit([form('Phone'), saved])
      .type(0, 'textbox', 'Name', 'Northwind')
      .choose(0, 'combobox', 'Type', 'E-Mail')
      .choose(0, 'combobox', 'Type', 'Phone')
      .click(0, 'button', 'Save')
    expect(read(back)).toEqual(['Fill “Name”'])
  })

  test('a native drop-down whose page lists the options itself: the press and the pick are a choice; a pick by a name shown twice fails', () => {
    const { el, screen: page } = drawnScreens()
    const screen = (...children: UiElement[]) =>
      page('Folders', 'http://mail.test', 'http://mail.test/?_task=settings', ...children)
    // The folder list on the left shows "Suppliers" too, as a tree item's link.
    const tree = el('tree', '', 40, [el('treeitem', 'Suppliers', 40, [el('link', 'Suppliers', 40)])])
    const name = el('textbox', 'Folder name', 100, [], 400)
    const options = ['---', 'Projects', 'Suppliers'].map((o, i) => el('option', o, 130 + i, [], 400))
    const parent = { ...el('combobox', 'Parent folder', 130, options, 400), value: '---' }
    const save = el('button', 'Save', 300, [], 400)
    const form = screen(tree, name, parent, save)
    // The page's own list of the options, floating over the form.
    const listed = screen(
      tree,
      name,
      parent,
      save,
      el('list', '', 160, [el('listitem', 'Suppliers', 190, [el('link', 'Suppliers', 190, [], 400)])], 400),
    )
    const done = screen(tree, el('text', 'Folder created successfully.', 20, [], 400))
    const inList = (e: UiElement) => e.bounds?.x === 400
    const kit = new RecordingKit([form, listed, done])
      .type(0, 'textbox', 'Folder name', 'Quotes')
      .click(0, 'combobox', 'Parent folder')
      .click(1, 'link', inList)
      .click(1, 'button', 'Save')
    const input = { name: 'Quotes', parent: 'Suppliers' }
    const demo = readDemonstration(
      kit.recording(),
      request(input, { prompt: 'Create a folder under a parent' }),
    )
    expect(demo.path.at(-1)).toMatchObject({ kind: 'select', value: '{{parent}}' })
    expect(demo.submit.name).toBe('Click “Save”')
    // The press, then the tree's own "Suppliers" (there before the press): no choice of the list.
    const beside = new RecordingKit([form, listed, done])
      .type(0, 'textbox', 'Folder name', 'Quotes')
      .click(0, 'combobox', 'Parent folder')
      .click(1, 'link', (e: UiElement) => e.bounds?.x === 20)
      .click(1, 'button', 'Save')
    // It stays a click on the tree's link, which the list's "Suppliers" makes ambiguous: refused.
    expect(() =>
      readDemonstration(beside.recording(), request(input, { prompt: 'Create a folder under a parent' })),
    ).toThrow('the sample’s parent')
    // The same pick without the press first: a link clicked by the sample's value that only its
    // position tells apart from the tree's.
    const alone = new RecordingKit([form, listed, done])
      .type(0, 'textbox', 'Folder name', 'Quotes')
      .click(1, 'link', inList)
      .click(1, 'button', 'Save')
    const error = (() => {
      try {
        readDemonstration(alone.recording(), request(input, { prompt: 'Create a folder under a parent' }))
      } catch (e) {
        return e as BuildFailure
      }
    })()
    expect(error).toBeInstanceOf(BuildFailure)
    expect(error!.message).toContain('the sample’s parent')
    // In a menu that opened (a "Move to" menu's folder list), the pick is sought in a menu only:
    // the tree's "Suppliers" beside it is never taken for it.
    const menu = screen(
      tree,
      name,
      save,
      el(
        'menu',
        'Move to',
        160,
        [
          el(
            'list',
            '',
            190,
            [el('listitem', 'Suppliers', 190, [el('link', 'Suppliers', 190, [], 400)])],
            400,
          ),
        ],
        400,
      ),
    )
    const moved = new RecordingKit([form, menu, done])
      .type(0, 'textbox', 'Folder name', 'Quotes')
      .click(1, 'link', inList)
      .click(1, 'button', 'Save')
    const picked = readDemonstration(
      moved.recording(),
      request(input, { prompt: 'Create a folder under a parent' }),
    )
    const step = picked.path.at(-1) as Extract<Step, { kind: 'click' }>
    expect(step.target.fingerprints[0]).toMatchObject({ name: '{{parent}}', within: 'menu' })
    // The same pick made before the recorder read the menu: the screen it is reported on holds
    // only the tree's "Suppliers", but the click was in the menu, which a later screen shows.
    const quick = new RecordingKit([form, menu, done])
      .type(0, 'textbox', 'Folder name', 'Quotes')
      .clickAhead(0, 1, 'link', inList)
      .click(1, 'button', 'Save')
    const quickPick = readDemonstration(
      quick.recording(),
      request(input, { prompt: 'Create a folder under a parent' }),
    ).path.at(-1) as Extract<Step, { kind: 'click' }>
    expect(quickPick.target.fingerprints[0]).toMatchObject({ name: '{{parent}}', within: 'menu' })
    // A button whose name grew with the menu it opened ("Move to Suppliers Projects", the menu
    // drawn inside it), reported with that name on the screen read before: it is the button by
    // its own id there, named as it was, never a name holding the sample's folder.
    const moveTo = { ...el('button', 'Move to', 300, [], 20), automationId: 'move' }
    const opened = {
      ...el('button', 'Move to Suppliers Projects', 300, [el('link', 'Suppliers', 330, [], 400)], 20),
      automationId: 'move',
    }
    const grown = new RecordingKit([screen(tree, name, moveTo, save), screen(tree, name, opened, save), done])
      .type(0, 'textbox', 'Folder name', 'Quotes')
      .clickAhead(0, 1, 'button', (e: UiElement) => e.automationId === 'move')
      .click(1, 'button', 'Save')
    const pressed = readDemonstration(
      grown.recording(),
      request(input, { prompt: 'Create a folder under a parent' }),
    ).path.find((s) => s.kind === 'click') as Extract<Step, { kind: 'click' }>
    expect(JSON.stringify(pressed.target)).not.toContain('{{parent}}')
    expect(pressed.target.fingerprints.some((f) => 'name' in f && f.name === 'Move to')).toBe(true)
    // Even found as the grown button, its name is not the sample's folder: "Suppliers" is the
    // name of the link inside it.
    const grownScreen = screen(tree, name, opened, save)
    const general = generaliseSelector(
      designSelector(grownScreen.root, opened, 'the “Move to” button'),
      grownScreen.root,
      opened,
      [{ path: 'parent', value: 'Suppliers' }],
    )
    expect(general.paths).toEqual([])
    // A menu that opens from a toolbar: sought in the toolbar, which stays when the menu is redrawn.
    const bar = screen(tree, name, save, el('toolbar', 'Actions', 160, [menu.root.children.at(-1)!], 400))
    const fromBar = new RecordingKit([form, bar, done])
      .type(0, 'textbox', 'Folder name', 'Quotes')
      .click(1, 'link', inList)
      .click(1, 'button', 'Save')
    const inBar = readDemonstration(
      fromBar.recording(),
      request(input, { prompt: 'Create a folder under a parent' }),
    )
    const barStep = inBar.path.at(-1) as Extract<Step, { kind: 'click' }>
    expect(barStep.target.fingerprints[0]).toMatchObject({ name: '{{parent}}', within: 'toolbar' })
  })

  test('a value only like a sample value is asked about, and the answer decides', async () => {
    const [form, created] = await Promise.all([recorded('crm-new-customer'), recorded('crm-created')])
    const kit = new RecordingKit([form, created])
      .type(0, 'textbox', 'Phone', '+44 20 7946 0958')
      .type(0, 'textbox', 'Notes', 'ACME-42')
      .click(0, 'button', 'Save')
    const req = request({ phone: '20 7946 0958', accountCode: 'acme-42' })
    const pure = readDemonstration(kit.recording(), req)
    expect(pure.doubts.map((d) => [d.value, d.choices.map((c) => c.template)])).toEqual([
      ['+44 20 7946 0958', ['+44 {{phone}}']],
      ['ACME-42', ['{{accountCode}}']],
    ])

    const script = scriptedIO([
      { kind: 'map_field', answer: optionLabelled('The sample’s phone in it: “+44 {{phone}}”') },
      { kind: 'map_field', answer: optionLabelled('Always “ACME-42”') },
    ])
    const demo = await demonstrationSteps(new BuildSession(noDesktop, script.io, req), kit.recording())
    expect(script.questions.map((q) => q.question.text)).toEqual([
      'Is “+44 20 7946 0958” (in “Phone”) the sample’s `phone`, or always the same text?',
      'Is “ACME-42” (in “Notes”) the sample’s `accountCode`, or always the same text?',
    ])
    expect(script.questions[1]!.question.options.map((o) => o.label)).toEqual([
      'The sample’s accountCode (“acme-42” this time)',
      'Always “ACME-42”',
    ])
    expect(demo.path).toMatchObject([
      { name: 'Fill “Phone”', value: '+44 {{phone}}', optional: true },
      { name: 'Fill “Notes”', value: 'ACME-42' },
    ])
  })

  test('a password comes from the job’s stored secret; what was typed never shows', async () => {
    const [login, after] = await Promise.all([
      recordedPage('adminer-login'),
      recordedPage('adminer-editor-select'),
    ])
    const make = () =>
      new RecordingKit([login, after])
        .type(0, 'textbox', (e) => e.automationId === 'username', 'root')
        // A recorder that wrongly sent the value along: it must still never be used or shown.
        .typeSecret(0, 'textbox', (e) => e.inputType === 'password', 'hunter2')
        .click(0, 'button', 'Login')
        .recording()
    const script = scriptedIO()
    const req = request({}, { prompt: 'Sign in to Adminer', secretNames: ['username', 'password'] })
    const demo = await demonstrationSteps(new BuildSession(noDesktop, script.io, req), make())
    const password = demo.path[1]!
    expect(password).toMatchObject({ kind: 'fill', value: '{{$secrets.password}}' })
    expect(JSON.stringify(demo.path)).not.toContain('hunter2')
    expect(JSON.stringify(demo.notes)).not.toContain('hunter2')
    expect(JSON.stringify(script.progress)).not.toContain('hunter2')
    expect(script.lines).toContain(
      '[map] “Password” takes the job’s stored secret “password” (what was typed there is never recorded)',
    )

    // No secret fits: the build stops and says how to store one.
    let failure: unknown
    try {
      readDemonstration(
        make(),
        request({}, { secretNames: ['apiKey'], route: { method: 'POST', path: '/db' } }),
      )
    } catch (error) {
      failure = error
    }
    expect(failure).toBeInstanceOf(BuildFailure)
    expect((failure as BuildFailure).code).toBe('SIGN_IN_REQUIRED')
    expect((failure as BuildFailure).message).toBe(
      'The demonstration typed into the secret field “Password”. What is typed there is never recorded, so the job needs it as a stored secret ' +
        '(it has “apiKey”, none named for this field): deskhook jobs secret set POST /db password, then teach again.',
    )
    expect((failure as BuildFailure).message).not.toContain('hunter2')
  })

  test('an address typed into the address bar becomes a navigate step with the sample’s value in it', async () => {
    const [customers, found] = await Promise.all([recorded('crm-customers'), recorded('crm-lookup-found')])
    const lookup = new RecordingKit([customers, found]).navigate(0, 'http://fixtures/crm/customers/C-1040')
    const opened = readDemonstration(lookup.recording(), request({ customerId: 'C-1040' }))
    // Nothing to fill: opening the record's address is the job's one action.
    expect(opened.path).toEqual([])
    expect(opened.submit).toEqual({
      kind: 'navigate',
      name: 'Open /crm/customers/{{customerId}}',
      url: '/crm/customers/{{customerId}}',
    })
    expect(opened.notes.map((n) => n.message)).toContain(
      'The address typed, http://fixtures/crm/customers/C-1040, holds the sample’s customerId: the job opens “/crm/customers/{{customerId}}”',
    )

    // On the way to a form: the address, then the fields, then the send.
    const [start, edit] = await Promise.all([recordedPage('fossil-tktnew'), recordedPage('fossil-tktedit')])
    const title = (e: { role: string; value?: string }) => e.value === 'Crash on save'
    const kit = new RecordingKit([start, edit, edit])
      .navigate(0, 'http://app/tktedit/5f3a9c0d1e?from=timeline')
      .type(1, 'textbox', title, 'Crash on save when offline')
      .click(1, 'button', 'Preview')
    const demo = readDemonstration(
      kit.recording(),
      request({ ticketId: '5f3a9c0d1e', title: 'Crash on save when offline' }, { prompt: 'Rename a ticket' }),
    )
    expect(demo.path).toMatchObject([
      { kind: 'navigate', url: '/tktedit/{{ticketId}}?from=timeline' },
      { kind: 'fill', value: '{{title}}' },
    ])
    expect(demo.submit.name).toBe('Click “Preview”')
  })

  test('a navigation right after a click is where the click led, not a step', async () => {
    const [form, created] = await Promise.all([recorded('crm-new-customer'), recorded('crm-created')])
    const kit = new RecordingKit([form, created, created])
      .type(0, 'textbox', 'Email', 'ada@example.com')
      .click(0, 'button', 'Save')
      .navigate(1, 'http://fixtures/crm/saved', 400)
    const demo = readDemonstration(kit.recording(), request({ email: 'ada@example.com' }))
    expect(names(demo.path)).toEqual(['Fill “Email”'])
    expect(demo.submit.name).toBe('Click “Save”')
  })
})

test('a heading button whose label is made of texts, one of them the sample’s value, follows the caller’s value', async () => {
  const { el: make } = await import('../../helpers/elements.ts')
  const heading = make('button', 'Disconnected Office NAS', [
    make('text', 'Disconnected'),
    make('text', 'Office NAS'),
  ])
  const root = make('window', 'Syncing', [
    make('heading', 'Remote Devices'),
    heading,
    make('button', 'Connected Anna Laptop', [make('text', 'Connected'), make('text', 'Anna Laptop')]),
  ])
  const general = generaliseSelector(designSelector(root, heading, 'the heading'), root, heading, [
    { path: 'device', value: 'Office NAS' },
  ])
  expect(general.paths).toEqual(['device'])
  expect(general.selector.fingerprints[0]).toMatchObject({ by: 'role', name: 'Disconnected {{device}}' })
})

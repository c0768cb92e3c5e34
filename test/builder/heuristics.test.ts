// The builder's pure judgement, on snapshots recorded from the fixture CRM: word similarity,
// field mapping, outcome classification and signatures, generalised reads, label/value pairs,
// window scoring and the automation's shape. No browser.
import { describe, expect, test } from 'bun:test'
import { evaluateCondition, resolveSelector } from '../../src/automation/index.ts'
import { compose, decompose, type Plan } from '../../src/builder/compose/compose.ts'
import {
  extractPattern,
  generaliseText,
  inputTexts,
  nameFromMessage,
  outcomeSignature,
  successName,
} from '../../src/builder/generalise.ts'
import { inputLeaves } from '../../src/builder/input-leaves.ts'
import { missingApps, scoreWindows } from '../../src/builder/locate/locate-window.ts'
import { readPrompt } from '../../src/builder/locate/prompt.ts'
import { assignFields, fieldScore, screenFitness } from '../../src/builder/map/field-scores.ts'
import { classifyEnding } from '../../src/builder/observe/classify.ts'
import { appeared } from '../../src/builder/observe/ui-diff.ts'
import { keyed, labelValuePairs } from '../../src/builder/outputs/label-values.ts'
import { generatedRead, type OutputContext } from '../../src/builder/outputs/outputs.ts'
import { readControls } from '../../src/builder/screen.ts'
import { designSelector, firmer } from '../../src/builder/selector-design.ts'
import { buttonsNear, submitScore } from '../../src/builder/submit/submit.ts'
import { camelKey, splitWords, textSimilarity } from '../../src/builder/words.ts'
import type { Step } from '../../src/protocol/automation.ts'
import type { WindowInfo } from '../../src/protocol/elements.ts'
import { only, recorded } from '../automation/recorded.ts'
import { el } from '../helpers/elements.ts'

describe('words', () => {
  test('identifiers split into words; keys and labels compare by stem', () => {
    expect(splitWords('customerId')).toEqual(['customer', 'id'])
    expect(splitWords('tkt_subject')).toEqual(['tkt', 'subject'])
    expect(textSimilarity('firstName', 'First name')).toBe(1)
    expect(textSimilarity('customers', 'Customer')).toBe(1)
    expect(textSimilarity('id', 'Customer ID')).toBe(0.8)
    expect(textSimilarity('surname', 'Last name')).toBe(1)
    expect(textSimilarity('ref', 'Notes')).toBe(0)
    expect(camelKey('Customer ID')).toBe('customerId')
    expect(camelKey('VIP')).toBe('vip')
  })

  test('the prompt gives the task, the app it names and what to return', () => {
    const crm = readPrompt('Create a customer in the CRM and return its id')
    expect(crm.namedApps).toEqual(['CRM'])
    expect(crm.returns).toEqual([['id']])
    const lookup = readPrompt('Find a customer by id and return the name and country')
    expect(lookup.namedApps).toEqual([])
    expect(lookup.returns).toEqual([['name'], ['country']])
    const helpdesk = readPrompt('Open a ticket in the helpdesk and return the ticket number')
    expect(helpdesk.namedApps).toEqual([]) // lower case: maybe an app, maybe not
    expect(helpdesk.appStems).toEqual(['helpdesk'])
    expect(helpdesk.returns).toEqual([['ticket', 'number']])
  })
})

describe('finding the window', () => {
  const windows: WindowInfo[] = [
    { id: 'a', title: 'Acme CRM – Customers', app: 'http://h:1', kind: 'tab', url: 'http://h:1/crm/' },
    { id: 'b', title: 'Support desk | Home', app: 'http://h:2', kind: 'tab', url: 'http://h:2/helpdesk/' },
  ]
  test('a word in the app position counts most; the address counts like the title', () => {
    const crm = scoreWindows(readPrompt('Create a customer in the CRM'), windows)
    expect(crm.map((s) => [s.window.id, s.score])).toEqual([
      ['a', 4],
      ['b', 0],
    ])
    const helpdesk = scoreWindows(readPrompt('Open a ticket in the helpdesk'), windows)
    expect(helpdesk[0]).toMatchObject({ window: { id: 'b' }, score: 3 })
  })

  test('a named app no window shows is missing, unless it is one of the sample’s values', () => {
    expect(missingApps(readPrompt('Create an invoice in SAP and return its number'), windows)).toEqual([
      'SAP',
    ])
    expect(missingApps(readPrompt('Create a customer in the CRM'), windows)).toEqual([])
    const germany = readPrompt('Create a customer in Germany')
    expect(missingApps(germany, windows)).toEqual(['Germany'])
    expect(missingApps(germany, windows, ['Germany'])).toEqual([])
  })
})

describe('mapping the sample onto the new-customer form', () => {
  test('each value finds its control by name and type', async () => {
    const { root } = await recorded('crm-new-customer')
    const controls = readControls(root)
    expect(controls.map((c) => `${c.kind}:${c.label}${c.required ? '*' : ''}`)).toEqual([
      'text:First name',
      'text:Last name',
      'text:Email*',
      'text:Phone',
      'select:Country',
      'checkbox:VIP customer',
      'text:Notes',
    ])
    const leaves = inputLeaves({
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'a@x.io',
      country: 'Germany',
      vip: true,
    })
    const { assigned, unsure } = assignFields(leaves, controls)
    expect(assigned.map((a) => `${a.leaf.path}→${a.control.label}`)).toEqual([
      'firstName→First name',
      'lastName→Last name',
      'email→Email',
      'country→Country',
      'vip→VIP customer',
    ])
    expect(unsure).toEqual([])
    expect(screenFitness(leaves, controls)).toBe(1)
  })

  test('types decide too: a boolean never goes into a text field, a value among the options wants the drop-down', async () => {
    const { root } = await recorded('crm-new-customer')
    const controls = readControls(root)
    const byLabel = (label: string) => controls.find((c) => c.label === label)!
    const [vip] = inputLeaves({ notes: true })
    expect(fieldScore(vip!, byLabel('Notes'))).toBe(0)
    const [land] = inputLeaves({ land: 'France' })
    expect(fieldScore(land!, byLabel('Country'))).toBe(0.5) // the option alone: worth a question
  })

  test('an unknown key and a tie are questions, with the free fields as candidates', async () => {
    const { root } = await recorded('crm-new-customer')
    const leaves = inputLeaves({ firstName: 'Ann', email: 'a@x.io', ref: 'X-99', name: 'Lee' })
    const { unsure } = assignFields(leaves, readControls(root))
    expect(unsure.map((u) => u.leaf.key)).toEqual(['ref', 'name'])
    const name = unsure.find((u) => u.leaf.key === 'name')!
    expect(name.candidates.slice(0, 1).map((c) => [c.control.label, c.score])).toEqual([['Last name', 0.8]])
    expect(unsure[0]!.candidates.map((c) => c.control.label)).toEqual([
      'Last name',
      'Phone',
      'Country',
      'Notes',
    ])
  })

  test('nested keys, path parameters and (named) headers become template paths', () => {
    const leaves = inputLeaves(
      {
        customer: { email: 'a@x.io', tags: ['a', 'b'] },
        skip: null,
        _http: { method: 'POST', path: '/c/1', params: { id: '7' }, headers: { 'x-country': 'DE' } },
      },
      { prompt: 'Create a customer; the country comes in the X-Country header' },
    )
    expect(leaves.map((l) => [l.path, l.source])).toEqual([
      ['customer.email', 'body'],
      ['customer.tags', 'body'],
      ['_http.params.id', 'params'],
      ['_http.headers.x-country', 'header'],
    ])
  })
})

describe('judging the ending', () => {
  const inputs = inputTexts({ firstName: 'Ann', email: 'ada@example.com' })
  const fields = async () => {
    const { root } = await recorded('crm-new-customer')
    return { root, fields: readControls(root).map((c) => c.element) }
  }

  test('a modal dialog is a dialog ending, its message the condition', async () => {
    const before = await fields()
    const { root } = await recorded('crm-duplicate-dialog')
    const ending = classifyEnding(before.root, root, before.fields, inputs)!
    expect(ending).toMatchObject({ kind: 'dialog', message: 'A customer with this email already exists' })
    expect(ending.condition).toEqual({
      kind: 'dialog',
      text: 'A customer with this email already exists',
      match: 'contains',
    })
    expect(ending.messageElement?.automationId).toBe('duplicate-message')
  })

  test('a field turning invalid is a validation ending with the message next to it', async () => {
    const before = await fields()
    const { root } = await recorded('crm-email-required')
    const ending = classifyEnding(before.root, root, before.fields, inputs)!
    expect(ending).toMatchObject({ kind: 'validation', message: 'Email is required' })
    expect(ending.signature).toBe('validation: email is required')
  })

  test('a new status is the success, generalised over the generated number', async () => {
    const before = await fields()
    const after = await recorded('crm-created')
    const ending = classifyEnding(before.root, after.root, before.fields, inputs)!
    expect(ending).toMatchObject({ kind: 'screen', message: 'Customer C-1042 created' })
    expect(ending.condition).toEqual({ kind: 'text', text: '^Customer C-\\d+ created$', match: 'regex' })
    expect(evaluateCondition(after.root, ending.condition, {}).holds).toBe(true)
    expect(evaluateCondition(before.root, ending.condition, {}).holds).toBe(false)
    expect(successName(ending.message, inputs)).toBe('Customer created')
  })

  test('signatures ignore numbers and the caller’s own values', () => {
    expect(outcomeSignature('screen', 'Customer C-1042 created', [])).toBe(
      outcomeSignature('screen', 'Customer C-1043 created', []),
    )
    expect(outcomeSignature('screen', 'Customer C-1042 created', [])).toBe('screen: customer c-# created')
    expect(outcomeSignature('validation', 'No customer found with ID X-99', ['X-99'])).toBe(
      'validation: no customer found with id *',
    )
    expect(nameFromMessage('No customer found with ID X-99.', ['X-99'])).toBe('No customer found with ID …')
    expect(generaliseText('Email is required', [])).toEqual({
      pattern: 'Email is required',
      match: 'contains',
    })
  })

  test('a count’s noun is taken in either number: “2 items” is “1 item” on the next call', () => {
    const items = new RegExp(generaliseText('2 items', []).pattern)
    expect(['1 item', '2 items', '17 items'].map((t) => items.test(t))).toEqual([true, true, true])
    expect(items.test('2 itemsets')).toBe(false)
    const entries = new RegExp(generaliseText('Showing 1 to 1 of 1 entry', []).pattern)
    expect(entries.test('Showing 1 to 3 of 3 entries')).toBe(true)
    const boxes = new RegExp(generaliseText('3 mailboxes found', []).pattern)
    expect(boxes.test('1 mailbox found')).toBe(true)
    expect(boxes.test('1 mailbox deleted')).toBe(false)
  })

  test('a value with underscores is known where the app shows it with spaces (a wiki page’s heading)', () => {
    // MediaWiki opens "Release_checklist" and titles the saved page "Release checklist": the wait
    // for that heading must take the next call's page, not wait for this one's.
    expect(generaliseText('Release checklist', ['Release_checklist'])).toEqual({
      pattern: '^.+?$',
      match: 'regex',
    })
    expect(generaliseText('Editing Release checklist', ['Release_checklist'])).toEqual({
      pattern: '^Editing .+?$',
      match: 'regex',
    })
    expect(outcomeSignature('screen', 'Release checklist', ['Release_checklist'])).toBe(
      outcomeSignature('screen', 'Oncall rota', ['Oncall_rota']),
    )
  })

  test('a message quoting the caller’s value quotes the record’s other values too; one quoting none keeps its words', () => {
    // The ticket had another status before: the next call's message says 'new', not 'open'.
    const changed = generaliseText("Ticket 1: Status changed from 'open' to 'resolved'", ['resolved'])
    expect(changed.match).toBe('regex')
    const matches = new RegExp(changed.pattern)
    expect(matches.test("Ticket 12: Status changed from 'new' to 'stalled'")).toBe(true)
    expect(matches.test('Ticket 12: Permission denied')).toBe(false)
    // A field's name in an error is not a value: “'email' is required” is not “'name' is required”.
    expect(outcomeSignature('validation', "Field 'email' is required", ['ada@example.com'])).not.toBe(
      outcomeSignature('validation', "Field 'name' is required", ['ada@example.com']),
    )
  })
})

describe('outputs', () => {
  test('a generated id is read by a text pattern over digits and extracted with loose spacing', async () => {
    const before = await recorded('crm-new-customer')
    const after = await recorded('crm-created')
    const ending = classifyEnding(before.root, after.root, [], [])!
    const ctx: OutputContext = {
      ending,
      after: after.root,
      inputs: [],
      reading: readPrompt('Create a customer and return its id'),
      submitLabel: 'Save',
    }
    const read = generatedRead(ctx, 'customerId')!
    expect(read.target!.fingerprints[0]).toEqual({
      by: 'text',
      text: '^Customer C-\\d+ created$',
      match: 'regex',
      role: 'status',
    })
    expect(read.target!.fingerprints[1]).toEqual({ by: 'automationId', ids: ['created-message'] })
    const resolved = resolveSelector(after.root, read.target!)
    expect(resolved.status === 'found' && resolved.element.automationId).toBe('created-message')
    const extract = new RegExp(read.extract!)
    expect(extract.exec('Customer C-1043 created')?.[1]).toBe('C-1043')
    expect(
      new RegExp(extractPattern('Ticket # HD-20481 has been opened', 'HD-20481', [])).exec(
        'Ticket #HD-7 has been opened',
      )?.[1],
    ).toBe('HD-7')
  })

  test('a details table gives label/value pairs with keys from the labels', async () => {
    const before = await recorded('crm-customers')
    const after = await recorded('crm-lookup-found')
    const pairs = keyed(labelValuePairs(after.root, new Set(appeared(before.root, after.root))))
    expect(pairs.map((p) => [p.key, p.value])).toEqual([
      ['customerId', 'C-1040'],
      ['name', 'Ada Lovelace'],
      ['email', 'ada@example.com'],
      ['phone', '+44 20 7946 0958'],
      ['country', 'United Kingdom'],
      ['vip', 'Yes'],
    ])
  })
})

describe('selectors, submit and shape', () => {
  test('every fingerprint written picks exactly the element; firmer puts the id first', async () => {
    const { root } = await recorded('crm-new-customer')
    const email = only(root, (e) => e.automationId === 'email')
    const selector = designSelector(root, email, 'the “Email” field')
    expect(selector.fingerprints.map((f) => f.by)).toEqual(['role', 'automationId', 'path'])
    for (const fingerprint of selector.fingerprints) {
      const resolved = resolveSelector(root, { fingerprints: [fingerprint] })
      expect(resolved.status === 'found' && resolved.element).toBe(email)
    }
    expect(firmer(selector).fingerprints.map((f) => f.by)).toEqual(['automationId', 'role', 'path'])
  })

  test('ids a counter handed out (the same stem with several numbers) never find a control', () => {
    const box = (id: string, name: string) => el('combobox', name, [], { automationId: id })
    const city = box('ui-id-34', 'City:')
    const root = el('window', 'Party', [
      box('ui-id-27', 'Street:'),
      city,
      el('textbox', 'Code:', [], { automationId: 'party-code' }),
    ])
    const selector = designSelector(root, city, 'the “City:” field')
    expect(selector.fingerprints.map((f) => f.by)).not.toContain('automationId')
    expect(selector.fingerprints[0]).toMatchObject({ by: 'role', role: 'combobox', name: 'City:' })
    // An id of its own, that no counter shares, still does.
    const code = only(root, (e) => e.automationId === 'party-code')
    expect(designSelector(root, code, 'the code').fingerprints.map((f) => f.by)).toContain('automationId')
  })

  test('an unnamed box of a list’s row being edited is found by its column, wherever the list is drawn', () => {
    const lines = (extra: boolean) =>
      el('window', 'Party', [
        ...(extra
          ? [
              el('table', '', [
                el('row', '', [el('columnheader', 'Category')]),
                el('row', '', [el('cell', 'Supplier')]),
              ]),
            ]
          : []),
        el('table', '', [
          el('row', '', [el('columnheader', ''), el('columnheader', 'Type'), el('columnheader', 'Value')]),
          el('row', '', [
            el('cell', ''),
            el('cell', 'E-Mail', [el('combobox', '', [], { value: 'E-Mail' })]),
            el('cell', '', [el('textbox', '')]),
          ]),
        ]),
      ])
    const root = lines(false)
    const box = only(root, (e) => e.role === 'textbox')
    const selector = designSelector(root, box, 'the “Value” field')
    expect(selector.fingerprints[0]).toEqual({
      by: 'inRow',
      rowText: '',
      role: 'textbox',
      name: '',
      column: 'Value',
    })
    // Another list drawn above it (its path is no longer the same): the column still finds it.
    const moved = lines(true)
    const found = resolveSelector(moved, selector)
    expect(found.status === 'found' && found.element).toBe(only(moved, (e) => e.role === 'textbox'))
  })

  test('the submit is the form’s button named like one; Cancel never is', async () => {
    const { root } = await recorded('crm-new-customer')
    const reading = readPrompt('Create a customer')
    const fields = readControls(root).map((c) => c.element)
    expect(buttonsNear(root, fields).map((b) => b.name)).toEqual(['Save', 'Cancel'])
    expect(submitScore('Save', reading)).toBe(1)
    expect(submitScore('Create customer', reading)).toBe(2)
    expect(submitScore('Cancel', reading)).toBeUndefined()
  })

  test('a pair of states joined by a slash (a permission’s “Read/Write”) is no send beside “Create”', () => {
    const reading = readPrompt('Add a user account with this username and password, and return its ID')
    expect(submitScore('Read/Write', reading)).toBe(0)
    expect(submitScore('Free/Busy', reading)).toBe(0)
    expect(submitScore('Create', reading)).toBeGreaterThan(1)
  })

  test('a submit word the task uses for what it makes names that thing, not the send', () => {
    // "Write a blog post …, publish it": the editor's "Post" panel is the post, "Publish" sends it.
    const post = readPrompt('Write a blog post with the given title and text, publish it, and return its id')
    expect(submitScore('Publish', post)! - submitScore('Post', post)!).toBeGreaterThanOrEqual(0.5)
    // Words for looking at things share the find family with "Search" but send nothing.
    expect(submitScore('List View', post)).toBe(0)
    expect(submitScore('Search', readPrompt('Search the posts for a word'))).toBeGreaterThanOrEqual(1)
    // "New" starts a blank record beside the filled form; "Save" sends it.
    const customer = readPrompt('Add a new customer with this name and email address')
    expect(submitScore('Save', customer)! - submitScore('New', customer)!).toBeGreaterThanOrEqual(0.5)
    // A button that shows a part of the screen is no send, whatever task word it holds.
    expect(submitScore('Open publish panel', post)).toBeUndefined()
    // "a new issue": "new" is how the task acts (create), not a thing it makes.
    const issue = readPrompt('File a new issue in the given project with this subject and description')
    expect(submitScore('Create', issue)! - submitScore('Unordered list', issue)!).toBeGreaterThanOrEqual(0.5)
    // Where the word is the task's verb, it is the send ("Post a message …" → "Post").
    const message = readPrompt('Post a message to the team channel')
    expect(submitScore('Post', message)).toBeGreaterThan(submitScore('Save draft', message)!)
  })

  test('compose and decompose are inverse: an extension finds the parts it needs', () => {
    const click = (name: string): Step => ({
      kind: 'click',
      name,
      target: { fingerprints: [{ by: 'role', role: 'button', name }] },
    })
    const plan: Plan = {
      app: { url: 'http://h/crm/' },
      prefix: [{ kind: 'launch', name: 'Open' }, click('New customer')],
      submit: click('Save'),
      wait: { name: 'Wait for the outcome' },
      success: [{ kind: 'text', text: 'created', match: 'contains' }],
      branches: [{ kind: 'branch', name: 'If “dup”', scenario: 'dup' }],
      tail: [],
      scenarios: [{ name: 'dup', outcome: 'alternate', when: { kind: 'dialog' }, steps: [] }],
      mainScenario: 'Customer created',
    }
    const automation = compose(plan)
    expect(automation.steps.map((s) => s.kind)).toEqual(['launch', 'click', 'click', 'wait', 'branch'])
    expect(decompose(automation)).toEqual(plan)
  })
})

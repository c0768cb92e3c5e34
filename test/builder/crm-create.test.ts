// A first build of the fixture CRM's "create a customer" flow, in real Chromium: no question
// for a sample that names its fields, a question for a value or a required field it does not.
import { describe, expect, test } from 'bun:test'
import type { SampleSpec } from '../../src/builder/contract.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { CREATE_PROMPT, crmBrowser, EXPECT_ID, katherine } from './crm-harness.ts'
import { optionLabelled, scriptedIO } from './scripted-io.ts'

const crm = crmBrowser()

const PROMPT = CREATE_PROMPT
const build = crm.build

describe('a first build of "create a customer"', () => {
  test('succeeds without a question; the automation returns the id of whatever it creates', async () => {
    const sample: SampleSpec = { id: 's1', input: katherine, expect: EXPECT_ID }
    const { result, script } = await build({ prompt: PROMPT, sample, previous: [] })
    expect(script.questions).toEqual([])
    expect(result).toMatchObject({ scenario: 'Customer created', outcome: 'success', reverified: [] })
    const { automation } = result
    expect(automation.steps.map((s) => s.kind)).toEqual([
      'launch',
      'click',
      'fill',
      'fill',
      'fill',
      'select',
      'check',
      'click',
      'wait',
      'read',
    ])
    expect(automation.steps.slice(2, 7).map((s) => ('optional' in s ? s.optional : false))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ])
    const read = automation.steps.at(-1)!
    expect(read).toMatchObject({
      kind: 'read',
      into: 'customerId',
      extract: 'Customer\\s*(C-\\d+)\\s*created',
    })

    // New data through the real runner: a customer with another name, its own id read back.
    const port = localDesktop(crm.driver())
    const grace = {
      firstName: 'Dorothy',
      lastName: 'Vaughan',
      email: 'dorothy@example.com',
      country: 'France',
    }
    const run = await port.run(automation, grace)
    expect(run.status).toBe('succeeded')
    expect(run.result.customerId).toMatch(/^C-\d{4}$/)
    // The id is the one the CRM shows for this customer, not a value the builder saw.
    const [window] = (await crm.driver().listWindows()).filter((w) => w.url?.includes('/crm/'))
    const shown = JSON.stringify((await crm.driver().snapshot(window!.id)).root)
    expect(shown).toContain(`Customer ${run.result.customerId} created`)

    // The CRM keeps its data: the build saved the sample once, the run saved Dorothy once.
    const created = crm.fixtures().crm.customers().slice(3)
    expect(created.map((c) => [c.id, c.email])).toEqual([
      ['C-1042', 'katherine@example.com'],
      [String(run.result.customerId), 'dorothy@example.com'],
    ])
    expect(created[0]).toMatchObject({
      firstName: 'Katherine',
      lastName: 'Johnson',
      country: 'DE',
      vip: true,
    })
  }, 60_000)

  test('asks where a value goes when its key matches no field, and uses the answer', async () => {
    const script = scriptedIO([{ kind: 'map_field', answer: optionLabelled('Notes') }])
    // A new customer: the CRM keeps the first test's Katherine, so her email would be a duplicate.
    const input = { ...katherine, email: 'katherine.j@example.com', ref: 'X-99' }
    const sample: SampleSpec = { id: 's1', input, expect: EXPECT_ID }
    const { result } = await build({ prompt: PROMPT, sample, previous: [] }, script)
    const [asked] = script.questions
    expect(asked?.question.text).toBe('Where should the value of “ref” (“X-99”) go?')
    expect(asked?.question.options.map((o) => o.label)).toEqual(['Phone', 'Notes', 'Nowhere: leave it out'])
    const notes = result.automation.steps.find((s) => s.kind === 'fill' && s.value === '{{ref}}')
    expect(notes?.name).toBe('Fill “Notes”')
    expect(result.outcome).toBe('success')
    expect(
      crm
        .fixtures()
        .crm.customers()
        .filter((c) => c.email === input.email),
    ).toMatchObject([{ notes: 'X-99' }])
  }, 60_000)

  test('asks what goes into a required field the sample does not feed', async () => {
    const script = scriptedIO([{ kind: 'fill_required', answer: () => 'front-desk@example.com' }])
    const sample: SampleSpec = { id: 's1', input: { firstName: 'Walk', lastName: 'In' }, expect: EXPECT_ID }
    const { result } = await build({ prompt: PROMPT, sample, previous: [] }, script)
    const [asked] = script.questions
    expect(asked?.question).toMatchObject({
      kind: 'fill_required',
      text: '“Email” must be filled in, but the sample has no value for it. What should always go there?',
      options: [],
    })
    expect(result.automation.steps.find((s) => s.name === 'Fill “Email”')).toMatchObject({
      kind: 'fill',
      value: 'front-desk@example.com',
    })
  }, 60_000)
})

// Extending the CRM's "create a customer" job sample by sample, in real Chromium: new endings
// become scenarios, known ones change nothing, and every earlier sample is re-verified.
import { describe, expect, test } from 'bun:test'
import type { SampleSpec } from '../../src/builder/contract.ts'
import { crmCreateCustomer } from '../fixtures/automations/crm.ts'
import { CREATE_PROMPT, crmBrowser, EXPECT_ID, katherine } from './crm-harness.ts'
import { scriptedIO } from './scripted-io.ts'

const crm = crmBrowser()

const PROMPT = CREATE_PROMPT
const build = crm.build

describe('extending the job sample by sample', () => {
  test('a duplicate email and a missing email become scenarios; earlier samples are re-verified', async () => {
    const first: SampleSpec = { id: 's1', input: katherine, expect: EXPECT_ID }
    const one = (await build({ prompt: PROMPT, sample: first, previous: [] })).result

    const duplicate: SampleSpec = { id: 's2', input: { ...katherine, email: 'ada@example.com' } }
    const script2 = scriptedIO()
    const two = (
      await build(
        {
          prompt: PROMPT,
          sample: duplicate,
          previous: [{ ...first, scenario: one.scenario }],
          automation: one.automation,
        },
        script2,
      )
    ).result
    if (process.env.BUILDER_TRANSCRIPT_DUPLICATE) console.log(script2.lines.join('\n'))
    expect(script2.questions).toEqual([])
    expect(two).toMatchObject({
      scenario: 'A customer with this email already exists',
      outcome: 'alternate',
      reverified: [{ sampleId: 's1', scenario: 'Customer created', passed: true }],
    })
    const duplicateScenario = two.automation.scenarios.find((s) => s.name === two.scenario)
    expect(duplicateScenario?.when).toEqual({
      kind: 'dialog',
      text: 'A customer with this email already exists',
      match: 'contains',
    })
    expect(duplicateScenario?.steps.map((s) => s.kind)).toEqual(['read', 'click'])
    expect(two.automation.steps.filter((s) => s.kind === 'branch')).toHaveLength(1)

    const { email: _, ...noEmail } = katherine
    const missing: SampleSpec = { id: 's3', input: noEmail }
    const three = (
      await build({
        prompt: PROMPT,
        sample: missing,
        previous: [
          { ...first, scenario: one.scenario },
          { ...duplicate, scenario: two.scenario },
        ],
        automation: two.automation,
      })
    ).result
    expect(three).toMatchObject({
      scenario: 'Email is required',
      outcome: 'alternate',
      reverified: [
        { sampleId: 's1', scenario: 'Customer created', passed: true },
        { sampleId: 's2', scenario: 'A customer with this email already exists', passed: true },
      ],
    })
    const wait = three.automation.steps.find((s) => s.kind === 'wait')
    expect(wait?.kind === 'wait' && wait.until.kind === 'anyOf' && wait.until.conditions.length).toBe(3)

    // The same duplicate again is a known scenario: nothing changes, nothing is asked.
    const again = (
      await build({
        prompt: PROMPT,
        sample: { id: 's4', input: { ...katherine, firstName: 'Ada', email: 'ada@example.com' } },
        previous: [],
        automation: three.automation,
      })
    ).result
    expect(again.scenario).toBe('A customer with this email already exists')
    expect(again.automation).toEqual(three.automation)

    // What the CRM holds afterwards: the first build's Katherine and nothing else (the duplicate and
    // the missing email saved nothing).
    expect(
      crm
        .fixtures()
        .crm.customers()
        .slice(3)
        .map((c) => c.email),
    ).toEqual(['katherine@example.com'])
  }, 120_000)

  test('extends a hand-written automation too: a missing email makes its fill optional and a new scenario', async () => {
    const handWritten = crmCreateCustomer(crm.url())
    const script = scriptedIO()
    const { email: _, ...noEmail } = katherine
    const { result } = await build(
      {
        prompt: PROMPT,
        sample: { id: 's2', input: noEmail },
        previous: [{ id: 's1', input: katherine, scenario: 'main' }],
        automation: handWritten,
      },
      script,
    )
    expect(result).toMatchObject({ scenario: 'Email is required', outcome: 'alternate' })
    expect(result.reverified).toEqual([{ sampleId: 's1', scenario: 'main', passed: true }])
    expect(result.automation.steps.find((s) => s.name === 'Fill "Email"')).toMatchObject({ optional: true })
    expect(result.automation.scenarios.map((s) => s.name)).toEqual([
      'duplicate customer',
      'Email is required',
    ])
    expect(script.lines).toContain(
      '[compose] “Fill "Email"” becomes optional: this sample has no value for it',
    )
  }, 60_000)
})

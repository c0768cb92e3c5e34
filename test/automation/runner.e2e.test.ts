// The runner end to end: real Chromium through the browser driver, the fixture CRM, and an
// automation written by hand the way the builder would write it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { runAutomation } from '../../src/automation/index.ts'
import type { RunHooks, StepResult, StepStarted } from '../../src/automation/run-types.ts'
import type { Automation, Fingerprint, Selector, Step } from '../../src/protocol/automation.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'

let fixtures: FixtureServer
let driver: BrowserDriver

beforeAll(async () => {
  fixtures = await startFixtureServer()
  driver = new BrowserDriver()
  await driver.start()
})

afterAll(async () => {
  await driver?.stop()
  await fixtures?.stop()
})

const sel = (...fingerprints: Fingerprint[]): Selector => ({ fingerprints })
const byId = (id: string, role: Extract<Fingerprint, { by: 'role' }>['role'], name: string) =>
  sel({ by: 'automationId', ids: [id] }, { by: 'role', role, name })

const createCustomerSteps: Step[] = [
  { kind: 'launch', name: 'Open the CRM' },
  { kind: 'click', name: 'Start a new customer', target: byId('new-customer', 'button', 'New customer') },
  {
    kind: 'fill',
    name: 'Enter the first name',
    target: sel({ by: 'label', label: 'First name' }),
    value: '{{customer.firstName}}',
  },
  {
    kind: 'fill',
    name: 'Enter the last name',
    target: byId('last-name', 'textbox', 'Last name'),
    value: '{{customer.lastName}}',
  },
  {
    kind: 'fill',
    name: 'Enter the email',
    target: byId('email', 'textbox', 'Email'),
    value: '{{customer.email}}',
  },
  {
    kind: 'fill',
    name: 'Enter the phone',
    optional: true,
    target: byId('phone', 'textbox', 'Phone'),
    value: '{{customer.phone}}',
  },
  {
    kind: 'select',
    name: 'Choose the country',
    target: byId('country', 'combobox', 'Country'),
    value: '{{customer.country}}',
  },
  {
    kind: 'check',
    name: 'Mark as VIP',
    target: byId('vip', 'checkbox', 'VIP customer'),
    checked: '{{customer.vip}}',
  },
  { kind: 'click', name: 'Save the customer', target: byId('save-customer', 'button', 'Save') },
  {
    kind: 'wait',
    name: 'Wait for the outcome',
    until: {
      kind: 'anyOf',
      conditions: [
        { kind: 'appears', target: byId('created-title', 'heading', 'Customer saved') },
        { kind: 'dialog' },
      ],
    },
  },
  { kind: 'branch', name: 'Customer already exists?', scenario: 'customer already exists' },
  {
    kind: 'read',
    name: 'Read the new customer id',
    target: sel(
      { by: 'automationId', ids: ['created-message'] },
      { by: 'text', text: '^Customer C-\\d+ created$', match: 'regex', role: 'status' },
    ),
    into: 'customerId',
    extract: '\\b(C-\\d+)\\b',
  },
]

function createCustomer(steps: Step[] = createCustomerSteps): Automation {
  return {
    version: 1,
    app: { url: `${fixtures.url}/crm/` },
    mainScenario: 'customer created',
    steps,
    scenarios: [
      {
        name: 'customer already exists',
        outcome: 'alternate',
        when: { kind: 'dialog', text: 'already exists' },
        steps: [
          {
            kind: 'read',
            name: 'Read the message',
            target: sel({ by: 'automationId', ids: ['duplicate-message'] }),
            into: 'message',
          },
          { kind: 'click', name: 'Close the message', target: byId('duplicate-ok', 'button', 'OK') },
        ],
        outputs: { reason: 'duplicate', email: '{{customer.email}}' },
      },
    ],
    outputs: { email: '{{customer.email}}', vip: '{{customer.vip}}' },
  }
}

function recorder(): RunHooks & { events: string[]; finished: StepResult[] } {
  const events: string[] = []
  const finished: StepResult[] = []
  return {
    events,
    finished,
    onStepStarted: (step: StepStarted) => {
      events.push(`start ${step.executionOrder}/${step.totalSteps} ${step.flowName}`)
    },
    onStepFinished: (step: StepResult) => {
      events.push(`${step.status} ${step.executionOrder}/${step.totalSteps} ${step.flowName}`)
      finished.push(step)
    },
  }
}

const isJpeg = (bytes: Uint8Array | undefined) =>
  bytes !== undefined && bytes[0] === 0xff && bytes[1] === 0xd8

const customer = {
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann.lee@example.com',
  country: 'France',
  vip: true,
}

describe('runAutomation against the fixture CRM', () => {
  test('creates a customer and reads the new id', async () => {
    const hooks = recorder()
    const run = await runAutomation(driver, createCustomer(), { customer }, hooks)
    expect(run.error).toBeUndefined()
    expect(run).toMatchObject({ status: 'succeeded', scenario: 'customer created', outcome: 'success' })
    expect(run.result).toEqual({ customerId: 'C-1042', email: 'ann.lee@example.com', vip: true })
    const total = createCustomerSteps.length
    expect(hooks.events.slice(0, 2)).toEqual([
      `start 1/${total} Open the CRM`,
      `SUCCESS 1/${total} Open the CRM`,
    ])
    expect(hooks.finished.map((s) => s.status)).toEqual(
      createCustomerSteps.map((s) => (s.name === 'Enter the phone' ? 'SKIPPED' : 'SUCCESS')),
    )
    expect(hooks.finished.at(-1)?.result).toEqual({ customerId: 'C-1042' })
    // The CRM really stored it.
    expect(fixtures.crm.customers().find((c) => c.id === 'C-1042')).toMatchObject({
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann.lee@example.com',
      country: 'FR',
      vip: true,
    })
    expect(hooks.finished.every((s) => isJpeg(s.screenshot))).toBe(true)
    expect(hooks.finished.find((s) => s.flowName === 'Customer already exists?')?.result).toMatchObject({
      taken: false,
    })
  })

  test('the duplicate-email modal takes the branch to its scenario (outcome alternate)', async () => {
    const hooks = recorder()
    const input = { customer: { ...customer, email: 'ada@example.com' } }
    const run = await runAutomation(driver, createCustomer(), input, hooks)
    expect(run.error).toBeUndefined()
    expect(run).toMatchObject({
      status: 'partial',
      scenario: 'customer already exists',
      outcome: 'alternate',
    })
    expect(run.result).toEqual({
      message: 'A customer with this email already exists',
      reason: 'duplicate',
      email: 'ada@example.com',
    })
    // The path changed at the branch: 11 main steps, then the scenario's 2.
    expect(hooks.events.slice(-4)).toEqual([
      'start 12/13 Read the message',
      'SUCCESS 12/13 Read the message',
      'start 13/13 Close the message',
      'SUCCESS 13/13 Close the message',
    ])
    expect(hooks.finished.map((s) => s.flowName)).not.toContain('Read the new customer id')
  })

  test('an ambiguous selector fails its step and lists the candidates', async () => {
    const hooks = recorder()
    const steps: Step[] = [
      { kind: 'launch', name: 'Open the CRM' },
      {
        kind: 'click',
        name: 'Open the customer',
        target: sel({ by: 'role', role: 'cell', name: 'example', match: 'contains' }),
      },
      { kind: 'click', name: 'Never reached', target: byId('new-customer', 'button', 'New customer') },
    ]
    const run = await runAutomation(driver, createCustomer(steps), { customer }, hooks)
    expect(run.status).toBe('failed')
    expect(run.error).toMatchObject({ code: 'AMBIGUOUS_SELECTOR', step: 'Open the customer' })
    expect(run.error?.selector?.fingerprints[0]).toMatchObject({ by: 'role', name: 'example' })
    // Every email in the list: the three seeded customers and whoever the tests before created
    // (the CRM keeps its data on its server; the first test adds ann.lee@example.com).
    const emails = fixtures.crm.customers().map((c) => c.email)
    expect(emails.slice(0, 3)).toEqual([
      'grace.hopper@example.com',
      'ada@example.com',
      'jan.devries@example.nl',
    ])
    expect(run.error?.candidates?.map((c) => c.name)).toEqual(emails)
    expect(run.error?.message).toContain(`matches ${emails.length} elements`)
    expect(hooks.finished.map((s) => s.status)).toEqual(['SUCCESS', 'FAILED', 'SKIPPED'])
  })

  test('a step whose element never appears fails at that step, with its screenshot', async () => {
    const hooks = recorder()
    const steps: Step[] = [
      { kind: 'launch', name: 'Open the CRM' },
      {
        kind: 'click',
        name: 'Export the list',
        timeoutMs: 1_500,
        target: byId('export', 'button', 'Export'),
      },
      { kind: 'click', name: 'Never reached', target: byId('new-customer', 'button', 'New customer') },
    ]
    const run = await runAutomation(driver, createCustomer(steps), { customer }, hooks)
    expect(run.status).toBe('failed')
    expect(run.error).toMatchObject({ code: 'ELEMENT_NOT_FOUND', step: 'Export the list' })
    expect(run.error?.message).toContain('#export')
    expect(run.error?.selector).toEqual(byId('export', 'button', 'Export'))
    // What the window offered instead: its buttons.
    expect(run.error?.candidates?.map((c) => c.name)).toEqual(['New customer', 'Find customer'])
    const failed = hooks.finished[1]!
    expect(failed).toMatchObject({
      flowName: 'Export the list',
      status: 'FAILED',
      executionOrder: 2,
      totalSteps: 3,
    })
    expect(isJpeg(failed.screenshot)).toBe(true)
    expect(Date.parse(failed.finishedAt) - Date.parse(failed.startedAt)).toBeGreaterThanOrEqual(1_400)
    expect(hooks.finished[2]).toMatchObject({ flowName: 'Never reached', status: 'SKIPPED' })
  })

  test('an option the drop-down lacks fails at once, listing the options', async () => {
    const started = performance.now()
    const run = await runAutomation(driver, createCustomer(), {
      customer: { ...customer, country: 'Atlantis' },
    })
    expect(run.error).toMatchObject({ code: 'OPTION_NOT_FOUND', step: 'Choose the country' })
    expect(run.error?.message).toContain('"Germany", "France"')
    expect(run.error?.selector).toEqual(byId('country', 'combobox', 'Country'))
    // Not retried until the step's 10 s deadline: waiting cannot add an option.
    expect(performance.now() - started).toBeLessThan(8_000)
  })

  test('a missing input fails the step that needs it, naming the path', async () => {
    const run = await runAutomation(driver, createCustomer(), { customer: { ...customer, email: undefined } })
    expect(run.status).toBe('failed')
    expect(run.error).toMatchObject({ code: 'INPUT_MISSING', step: 'Enter the email' })
    expect(run.error?.message).toContain('customer.email')
  })
})

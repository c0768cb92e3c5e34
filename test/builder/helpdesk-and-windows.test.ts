// The builder with several apps on the desktop: it picks the helpdesk for a helpdesk prompt and
// builds its ticket form (links, radio buttons, a drop-down), asks when two windows fit equally,
// and refuses a prompt about an app that is not open.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { buildAutomation } from '../../src/builder/index.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { scriptedIO } from './scripted-io.ts'

// Separate servers give separate origins, so the browser keeps one tab per app.
let crm: FixtureServer
let helpdesk: FixtureServer
let otherCrm: FixtureServer
let driver: BrowserDriver

beforeAll(async () => {
  ;[crm, helpdesk, otherCrm] = await Promise.all([
    startFixtureServer(),
    startFixtureServer(),
    startFixtureServer(),
  ])
  driver = new BrowserDriver()
  await driver.start()
  await driver.launch({ url: `${crm.url}/crm/` })
  await driver.launch({ url: `${helpdesk.url}/helpdesk/` })
})

afterAll(async () => {
  await driver?.stop()
  await Promise.all([crm?.stop(), helpdesk?.stop(), otherCrm?.stop()])
})

const ticket = {
  subject: 'VPN drops every few minutes',
  category: 'Network',
  priority: 'High',
  description: 'Since this morning the VPN disconnects about every five minutes.',
}

describe('the helpdesk', () => {
  test('opens a ticket and returns its number, without a question', async () => {
    const script = scriptedIO()
    const port = localDesktop(driver)
    const result = await buildAutomation(port, script.io, {
      prompt: 'Open a ticket in the helpdesk and return the ticket number',
      sample: { id: 's1', input: ticket, expect: { ticketNumber: { $type: 'string' } } },
      previous: [],
    })
    if (process.env.BUILDER_TRANSCRIPT) console.log(script.lines.join('\n'))
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    expect(script.questions).toEqual([])
    expect(result.automation.app.url).toBe(`${helpdesk.url}/helpdesk/`)
    const steps = result.automation.steps
    expect(steps.find((s) => s.kind === 'click')?.name).toBe('Click “Open ticket”')
    const category = steps.find((s) => s.name === 'Pick “Category”')
    expect(category).toMatchObject({
      kind: 'check',
      optional: true,
      checked: true,
      target: { fingerprints: [{ by: 'role', role: 'radio', name: '{{category}}', match: 'contains' }] },
    })
    expect(steps.find((s) => s.name === 'Choose “Priority”')).toMatchObject({
      kind: 'select',
      value: '{{priority}}',
    })
    expect(steps.at(-1)).toMatchObject({
      kind: 'read',
      into: 'ticketNumber',
      extract: 'Ticket\\s*#\\s*(HD-\\d+)\\s*has\\s*been\\s*opened',
    })

    // Another ticket, with a category in another case: the radio is matched without regard to case.
    const run = await port.run(result.automation, { ...ticket, subject: 'Printer jam', category: 'hardware' })
    expect(run.status).toBe('succeeded')
    expect(run.result.ticketNumber).toMatch(/^HD-\d+$/)

    // What the helpdesk really holds: the build's one ticket for the sample, then the run's.
    expect(helpdesk.helpdesk.tickets()).toEqual([
      {
        number: 'HD-20481',
        subject: ticket.subject,
        category: 'network',
        priority: 'high',
        description: ticket.description,
        status: 'Open',
      },
      {
        number: run.result.ticketNumber as string,
        subject: 'Printer jam',
        category: 'hardware',
        priority: 'high',
        description: ticket.description,
        status: 'Open',
      },
    ])
  }, 60_000)
})

describe('finding the app', () => {
  test('fails with APP_NOT_FOUND when the prompt names an app that is not open', async () => {
    const script = scriptedIO()
    const result = await buildAutomation(localDesktop(driver), script.io, {
      prompt: 'Create an invoice in SAP and return its number',
      sample: { id: 's1', input: { customer: 'Ada Lovelace', amount: 120 } },
      previous: [],
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.code).toBe('APP_NOT_FOUND')
    expect(result.message).toContain('“SAP”')
    expect(result.message).toContain('Acme CRM – Customers')
    expect(result.message).toContain('Support desk |')
  })

  test('fails with APP_NOT_FOUND when no window matches the prompt at all', async () => {
    const result = await buildAutomation(localDesktop(driver), scriptedIO().io, {
      prompt: 'Book a meeting room for tomorrow',
      sample: { id: 's1', input: { room: 'Orion', date: '2026-05-04' } },
      previous: [],
    })
    expect(result).toMatchObject({ ok: false, code: 'APP_NOT_FOUND' })
  })

  test('asks which window when two fit equally, and builds on the chosen one', async () => {
    await driver.launch({ url: `${otherCrm.url}/crm/` })
    const script = scriptedIO([
      {
        kind: 'choose_window',
        answer: (q) => q.options.find((o) => o.label.includes(otherCrm.url))!.value,
      },
    ])
    const result = await buildAutomation(localDesktop(driver), script.io, {
      prompt: 'Create a customer in the CRM and return its id',
      sample: {
        id: 's1',
        input: { firstName: 'Mary', lastName: 'Jackson', email: 'mary@example.com' },
        expect: { customerId: { $type: 'string' } },
      },
      previous: [],
    })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    expect(script.questions.map((q) => q.question.kind)).toEqual(['choose_window'])
    expect(script.questions[0]!.question.options).toHaveLength(2)
    expect(result.automation.app.url).toBe(`${otherCrm.url}/crm/`)
    // The sample's customer was created in the chosen CRM only, once.
    expect(otherCrm.crm.customers().filter((c) => c.email === 'mary@example.com')).toHaveLength(1)
    expect(crm.crm.customers().map((c) => c.email)).not.toContain('mary@example.com')
  }, 60_000)
})

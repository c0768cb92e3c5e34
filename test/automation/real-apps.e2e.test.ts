// The runner on app-like pages with real Chromium: navigate to a URL, read the address and
// tables/lists as rows, pick options and radios by meaning, split a date for composite controls.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { runAutomation } from '../../src/automation/index.ts'
import type { Automation, Selector, Step } from '../../src/protocol/automation.ts'

setDefaultTimeout(60_000)
const PAGES = join(import.meta.dir, '../agent/pages')
let app: ReturnType<typeof Bun.serve>
let base: string
let driver: BrowserDriver

beforeAll(async () => {
  app = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname
      const page =
        path === '/tickets' ? 'tickets.html' : /^\/tickets\/\d+$/.test(path) ? 'ticket.html' : undefined
      if (path === '/leave')
        return new Response(
          '<!doctype html><title>Leave</title><a id="out" href="http://partner.example/offer">Partner offer</a>',
          { headers: { 'content-type': 'text/html' } },
        )
      if (!page) return new Response('not found', { status: 404 })
      return new Response(Bun.file(join(PAGES, page)), { headers: { 'content-type': 'text/html' } })
    },
  })
  base = `http://127.0.0.1:${app.port}`
  driver = new BrowserDriver()
  await driver.start()
})

afterAll(async () => {
  await driver?.stop()
  await app?.stop(true)
})

const id = (value: string): Selector => ({ fingerprints: [{ by: 'automationId', ids: [value] }] })
const role = (r: 'table' | 'list' | 'radio', name: string): Selector => ({
  fingerprints: [{ by: 'role', role: r, name }],
})

function automation(steps: Step[]): Automation {
  return {
    version: 1,
    app: { url: `${base}/tickets` },
    steps: [{ kind: 'launch', name: 'Open' }, ...steps],
    scenarios: [],
  }
}

describe('reading what real apps show', () => {
  test('tables become rows keyed by headers or by columns, lists become {text, href}', async () => {
    const run = await runAutomation(
      driver,
      automation([
        { kind: 'read', name: 'All tickets', source: 'rows', target: role('table', 'Tickets'), into: 'raw' },
        {
          kind: 'read',
          name: 'Tickets by column',
          source: 'rows',
          target: role('table', 'Tickets'),
          columns: { id: 'ticket', subject: 'sujet', state: 'etat' },
          into: 'tickets',
        },
        {
          kind: 'read',
          name: 'Archive',
          source: 'rows',
          target: role('table', 'Archived'),
          into: 'archived',
        },
        {
          kind: 'read',
          name: 'Recent',
          source: 'rows',
          target: role('list', 'Recent customers'),
          into: 'recent',
        },
      ]),
      {},
      {},
      { screenshots: false },
    )
    expect(run.error).toBeUndefined()
    expect(run.result.raw).toEqual([
      { 'Ticket #': 'T-41', Sujet: 'Printer jam', État: 'Open' },
      { 'Ticket #': 'T-42', Sujet: 'VPN down', État: 'Closed' },
    ])
    expect(run.result.tickets).toEqual([
      { id: 'T-41', subject: 'Printer jam', state: 'Open' },
      { id: 'T-42', subject: 'VPN down', state: 'Closed' },
    ])
    expect(run.result.archived).toEqual([])
    expect(run.result.recent).toEqual([
      { text: 'Ada Lovelace', href: `${base}/customers/7` },
      { text: 'Grace Hopper' },
    ])
  })

  test('a column the table lacks fails the step, naming the headers', async () => {
    const run = await runAutomation(
      driver,
      automation([
        {
          kind: 'read',
          name: 'Owners',
          source: 'rows',
          target: role('table', 'Tickets'),
          columns: { owner: 'Owner' },
          into: 'x',
          timeoutMs: 500,
        },
      ]),
      {},
      {},
      { screenshots: false },
    )
    expect(run.error).toMatchObject({ code: 'ACTION_FAILED', step: 'Owners' })
    expect(run.error?.message).toContain('"Ticket #", "Sujet", "État"')
  })
})

describe('staying inside the app', () => {
  test('a click on a link to another site fails the step with NAVIGATION_BLOCKED and the window stays', async () => {
    const run = await runAutomation(
      driver,
      automation([
        { kind: 'navigate', name: 'Open the page', url: '/leave' },
        { kind: 'click', name: 'Follow the partner link', target: id('out') },
      ]),
      {},
      {},
      { screenshots: false },
    )
    expect(run.error).toMatchObject({ code: 'NAVIGATION_BLOCKED', step: 'Follow the partner link' })
    expect(run.error?.message).toContain('http://partner.example/offer')
    const windows = await driver.listWindows()
    expect(windows.map((w) => w.url)).toContain(`${base}/leave`)
  })
})

describe('a ticket edited by meaning', () => {
  const steps: Step[] = [
    { kind: 'navigate', name: 'Open the ticket', url: '/tickets/{{ticket}}' },
    {
      kind: 'read',
      name: 'Ticket id from the address',
      source: 'url',
      extract: 'tickets/(\\d+)',
      into: 'ticketId',
    },
    { kind: 'read', name: 'Address', source: 'url', into: 'address' },
    {
      kind: 'select',
      name: 'Kind',
      target: id('kind'),
      value: '{{kind}}',
      valueMap: { Defect: 'Code_Defect' },
    },
    {
      kind: 'check',
      name: 'Urgent',
      target: role('radio', '{{urgent}}'),
      checked: true,
      valueMap: { yes: 'Oui', no: 'Non' },
    },
    { kind: 'fill', name: 'Due', target: id('due'), value: '{{due}}' },
    { kind: 'fill', name: 'Born', target: id('born'), value: '{{dob | date:DD/MM/YYYY}}' },
    { kind: 'fill', name: 'Day', target: id('day'), value: '{{dob | day}}' },
    { kind: 'select', name: 'Month', target: id('month'), value: '{{dob | monthName}}' },
    { kind: 'click', name: 'Save', target: id('save') },
    { kind: 'read', name: 'Outcome', target: id('out'), extract: '^saved.*', into: 'summary' },
  ]

  test('navigate resolves a relative URL; url reads, valueMap for options and radios, date filters', async () => {
    const run = await runAutomation(
      driver,
      automation(steps),
      { ticket: 42, kind: 'DÉFECT', urgent: 'YES', due: '2024-04-01', dob: '1990-03-05' },
      {},
      { screenshots: false },
    )
    expect(run.error).toBeUndefined()
    expect(run.result).toMatchObject({
      ticketId: '42',
      address: `${base}/tickets/42`,
      summary: 'saved | Code_Defect | oui | 2024-04-01 | 05/03/1990 | 5 | March',
    })
    expect(run.steps[1]?.result).toEqual({ url: `${base}/tickets/42` })
  })

  test('a caller word that maps to no option fails with OPTION_NOT_FOUND listing the options', async () => {
    const run = await runAutomation(
      driver,
      automation(steps),
      { ticket: 41, kind: 'feature', urgent: 'no', due: '2024-04-01', dob: '1990-03-05' },
      {},
      { screenshots: false },
    )
    expect(run.error).toMatchObject({ code: 'OPTION_NOT_FOUND', step: 'Kind' })
    expect(run.error?.message).toContain('"Code defect", "Question"')
  })

  test('select on a radio group picks the radio by meaning, like an option', async () => {
    const group: Selector = { fingerprints: [{ by: 'role', role: 'group', name: 'Urgent?' }] }
    const run = await runAutomation(
      driver,
      automation([
        { kind: 'navigate', name: 'Open the ticket', url: `${base}/tickets/41` },
        { kind: 'select', name: 'Urgent', target: group, value: '{{urgent}}', valueMap: { yes: 'Oui' } },
        { kind: 'click', name: 'Save', target: id('save') },
        { kind: 'read', name: 'Outcome', target: id('out'), extract: '^saved.*', into: 'summary' },
        { kind: 'select', name: 'Urgent again', target: group, value: 'maybe' },
      ]),
      { urgent: 'Yes' },
      {},
      { screenshots: false },
    )
    expect(run.result.summary).toBe('saved | | oui | | | | January')
    expect(run.error).toMatchObject({ code: 'OPTION_NOT_FOUND', step: 'Urgent again' })
    expect(run.error?.message).toContain('"Oui", "Non"')
  })

  test('a date that is not ISO fails as TEMPLATE_INVALID naming the input', async () => {
    const run = await runAutomation(
      driver,
      automation(steps),
      { ticket: 41, kind: 'question', urgent: 'non', due: '2024-04-01', dob: '5 March 1990' },
      {},
      { screenshots: false },
    )
    expect(run.error).toMatchObject({ code: 'TEMPLATE_INVALID', step: 'Born' })
    expect(run.error?.message).toContain('"dob"')
  })
})

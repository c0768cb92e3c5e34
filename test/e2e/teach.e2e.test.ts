import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import type { WindowInfo } from '../../src/protocol/elements.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * Teaching from HTTP calls alone (plus answers): real server, a real agent process with the CRM
 * and the helpdesk open in Chromium (two origins, so two windows), the builder exploring them.
 */
let s: TestServer
let crm: FixtureServer
let helpdesk: FixtureServer
let agent: AgentProcess
let desktopId: string

beforeAll(async () => {
  crm = await startFixtureServer()
  helpdesk = await startFixtureServer()
  s = await startTestServer({ watchIntervalMs: 20 })
  agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'office-pc',
    startUrl: `${crm.url}/crm/`,
  })
  desktopId = String((await agent.waitForLog((l) => l.msg === 'online')).desktopId)
  await s.hub.rpc<WindowInfo>(desktopId, 'launch', [{ url: `${helpdesk.url}/helpdesk/` }])
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
  await crm?.stop()
  await helpdesk?.stop()
})

interface BuildView {
  id: string
  status: string
  question: {
    id: string
    kind: string
    text: string
    options: { value: string; label: string }[]
    multiple: boolean
  } | null
  progress: { stage: string; message: string }[]
  scenario: string | null
  error: { code: string; message: string } | null
}

/** What a person teaching would see; printed with DESKHOOK_TRANSCRIPT=1 (the closing note's transcript). */
const transcript: string[] = []
const note = (line: string) => transcript.push(line)
afterAll(() => {
  if (process.env.DESKHOOK_TRANSCRIPT) console.log(transcript.join('\n'))
})

async function teach(path: string, envelope: Record<string, unknown>, sample: Record<string, unknown>) {
  note(`\n> POST ${path}  ${JSON.stringify(teachBody(envelope, sample))}`)
  const res = await s.call(path, { method: 'POST', json: teachBody(envelope, sample) })
  expect(res.status).toBe(202)
  note(`< ${res.status} ${JSON.stringify(await res.clone().json())}`)
  return (await res.json()) as { jobId: string; buildId: string; buildPath: string; stabilityScore: number }
}

/** Waits until the build asks something or ends. */
async function settle(buildId: string, timeoutMs = 120_000): Promise<BuildView> {
  const b = await eventually(async () => {
    const b = (await (await s.call(`/_builds/${buildId}`)).json()) as BuildView
    return ['succeeded', 'failed', 'waiting_for_answer'].includes(b.status) && b
  }, timeoutMs)
  const seen = seenProgress.get(buildId) ?? 0
  for (const p of b.progress.slice(seen)) note(`  [${p.stage}] ${p.message}`)
  seenProgress.set(buildId, b.progress.length)
  note(`< GET /_builds/${buildId} → status ${b.status}${b.scenario ? `, scenario "${b.scenario}"` : ''}`)
  if (b.question)
    note(
      `  question (${b.question.kind}): ${b.question.text}\n    options: ${b.question.options.map((o) => o.label).join(' | ')}`,
    )
  if (b.error) note(`  error ${b.error.code}: ${b.error.message}`)
  return b
}
const seenProgress = new Map<string, number>()

async function answer(build: BuildView, value: string | string[]): Promise<BuildView> {
  note(
    `> POST /_builds/${build.id}/answers  ${JSON.stringify({ questionId: build.question!.id, answer: value })}`,
  )
  const res = await s.call(`/_builds/${build.id}/answers`, {
    method: 'POST',
    json: { questionId: build.question!.id, answer: value },
  })
  expect(res.status).toBe(200)
  return settle(build.id)
}

const job = async (path: string) =>
  (
    (await (await s.call('/_jobs')).json()).jobs as {
      path: string
      stabilityScore: number
      scenarios: { name: string }[]
    }[]
  ).find((j) => j.path === path)!

const explain = (b: BuildView) =>
  `${b.status}: ${b.error?.message ?? ''}\n${b.progress.map((p) => `  [${p.stage}] ${p.message}`).join('\n')}`

describe('teaching the CRM', () => {
  test('create a customer: builds without a question, promotes, and a live call returns a new id', async () => {
    const t = await teach(
      '/customers',
      {
        prompt: 'Create a customer in the CRM and return its id',
        expect: { customerId: { $type: 'string' } },
      },
      { firstName: 'Ada', lastName: 'Byron', email: 'ada.byron@example.com', country: 'Germany', vip: true },
    )
    const build = await settle(t.buildId)
    expect(build.status, explain(build)).toBe('succeeded')
    expect((await job('/customers')).stabilityScore).toBe(50)
    expect((await cli(['jobs', 'promote', 'POST', '/customers', '--data', s.dataDir])).code).toBe(0)
    const live = await eventually(async () => {
      const res = await s.call('/customers', {
        method: 'POST',
        json: {
          firstName: 'Alan',
          lastName: 'Turing',
          email: 'alan@example.com',
          country: 'United Kingdom',
          vip: false,
        },
      })
      return res.status !== 409 && res
    })
    expect(live.status).toBe(200)
    const { customerId } = (await live.json()) as { customerId: string }
    expect(customerId).toMatch(/^C-\d+$/)
    // What the CRM really holds: the build saved the sample once, the live call saved Alan.
    expect(
      crm.crm
        .customers()
        .slice(3)
        .map((c) => [c.id, c.email]),
    ).toEqual([
      ['C-1042', 'ada.byron@example.com'],
      [customerId, 'alan@example.com'],
    ])
  }, 240_000)

  test('an existing email becomes a scenario named after the message; a missing one a third; the score rises', async () => {
    const dup = await teach(
      '/customers',
      { expect: {} },
      { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    )
    const dupBuild = await settle(dup.buildId)
    expect(dupBuild.status, explain(dupBuild)).toBe('succeeded')
    expect(dupBuild.scenario).toMatch(/already exists/i)
    expect((await job('/customers')).stabilityScore).toBe(75)

    const missing = await teach('/customers', {}, { firstName: 'Mary', lastName: 'Jackson' })
    const missingBuild = await settle(missing.buildId)
    expect(missingBuild.status, explain(missingBuild)).toBe('succeeded')
    expect(missingBuild.scenario).toMatch(/email is required/i)
    const j = await job('/customers')
    expect(j.stabilityScore).toBe(87.5)
    expect(j.scenarios.length).toBe(3)

    expect((await cli(['jobs', 'promote', 'POST', '/customers', '--data', s.dataDir])).code).toBe(0)
    const live = await eventually(async () => {
      const res = await s.call('/customers', {
        method: 'POST',
        json: { firstName: 'Dup', email: 'ADA@example.com' },
      })
      return res.status === 207 && res
    }, 60_000)
    const body = await live.json()
    expect(body.scenario).toMatch(/already exists/i)
  }, 480_000)

  test('an ambiguous key gets a map_field question; the answer finishes the build', async () => {
    const t = await teach(
      '/customers-with-ref',
      {
        prompt: 'Create a customer in the CRM and return its id',
        expect: { customerId: { $type: 'string' } },
      },
      { firstName: 'Grace', lastName: 'Hopper', email: 'grace.h@example.com', ref: 'Referred by the Navy' },
    )
    const asked = await settle(t.buildId)
    expect(asked.status, explain(asked)).toBe('waiting_for_answer')
    expect(asked.question!.kind).toBe('map_field')
    expect(asked.question!.text).toContain('ref')
    const notes = asked.question!.options.find((o) => /notes/i.test(o.label))!
    const done = await answer(asked, notes.value)
    expect(done.status, explain(done)).toBe('succeeded')
  }, 240_000)

  test('a lookup with no expect asks which outputs to return, and live calls return them', async () => {
    const t = await teach(
      '/customer-lookup',
      { prompt: 'Find a customer by id and return the name and country', method: 'GET' },
      { customerId: 'C-1040' },
    )
    const asked = await settle(t.buildId)
    expect(asked.status, explain(asked)).toBe('waiting_for_answer')
    expect(asked.question!.kind).toBe('choose_outputs')
    expect(asked.question!.multiple).toBe(true)
    const pick = asked.question!.options.filter((o) => /^(name|country)\b/i.test(o.label)).map((o) => o.value)
    expect(pick.length).toBe(2)
    const done = await answer(asked, pick)
    expect(done.status, explain(done)).toBe('succeeded')
    await cli(['jobs', 'promote', 'GET', '/customer-lookup', '--data', s.dataDir])
    const live = await eventually(async () => {
      const res = await s.call('/customer-lookup?customerId=C-1039')
      return res.status !== 409 && res
    })
    expect(live.status).toBe(200)
    expect(await live.json()).toEqual({ name: 'Grace Hopper', country: 'United States' })
  }, 240_000)
})

describe('teaching the helpdesk, and failing clearly', () => {
  test('open a ticket and return the ticket number', async () => {
    const t = await teach(
      '/tickets',
      {
        prompt: 'Open a ticket in the helpdesk and return the ticket number',
        expect: { ticketNumber: { $type: 'string' } },
      },
      {
        subject: 'VPN drops every hour',
        category: 'Network',
        priority: 'High',
        description: 'Since Monday.',
      },
    )
    const build = await settle(t.buildId)
    expect(build.status, explain(build)).toBe('succeeded')
    await cli(['jobs', 'promote', 'POST', '/tickets', '--data', s.dataDir])
    const live = await eventually(async () => {
      const res = await s.call('/tickets', {
        method: 'POST',
        json: {
          subject: 'Printer on 3rd floor jams',
          category: 'Hardware',
          priority: 'Low',
          description: 'Tray 2.',
        },
      })
      return res.status !== 409 && res
    })
    expect(live.status).toBe(200)
    const { ticketNumber } = (await live.json()) as { ticketNumber: string }
    expect(ticketNumber).toMatch(/^HD-\d+$/)
    // What the helpdesk really holds: the build's ticket for the sample, then the live call's.
    expect(helpdesk.helpdesk.tickets().map((t) => [t.number, t.subject, t.category, t.priority])).toEqual([
      ['HD-20481', 'VPN drops every hour', 'network', 'high'],
      [ticketNumber, 'Printer on 3rd floor jams', 'hardware', 'low'],
    ])
  }, 240_000)

  test('a prompt naming an app that is not on the desktop fails with a reason that says so', async () => {
    const t = await teach(
      '/invoices',
      { prompt: 'Create an invoice in SAP and return its number' },
      { amount: 120 },
    )
    const build = await settle(t.buildId)
    expect(build.status).toBe('failed')
    expect(build.error!.code).toBe('APP_NOT_FOUND')
    expect(build.error!.message).toContain('SAP')
  }, 120_000)
})

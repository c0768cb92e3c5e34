import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * Deleting a job while its build is under way (real builder, real agent, Chromium): the build
 * stops, its desktop is free for the next build at once, and the agent stays online.
 */
let s: TestServer
let crm: FixtureServer
let agent: AgentProcess

beforeAll(async () => {
  crm = await startFixtureServer()
  s = await startTestServer({ watchIntervalMs: 20 })
  agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'office-pc',
    startUrl: `${crm.url}/crm/`,
  })
  await agent.waitForLog((l) => l.msg === 'online', 30_000)
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
  await crm?.stop()
})

interface BuildView {
  status: string
  question: { kind: string } | null
  progress: { stage: string; message: string }[]
}

const build = async (id: string) => s.call(`/_builds/${id}`)

/** A sample with a key the builder cannot place alone: the build asks, holding its desktop. */
async function teachAsking(path: string) {
  const res = await s.call(path, {
    method: 'POST',
    json: teachBody(
      {
        prompt: 'Create a customer in the CRM and return its id',
        expect: { customerId: { $type: 'string' } },
      },
      {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: `${crypto.randomUUID()}@example.com`,
        ref: 'Referred by the Navy',
      },
    ),
  })
  expect(res.status).toBe(202)
  const t = (await res.json()) as { jobId: string; buildId: string }
  const asked = await eventually(async () => {
    const b = (await (await build(t.buildId)).json()) as BuildView
    if (b.status === 'failed' || b.status === 'succeeded') throw new Error(JSON.stringify(b.progress))
    return b.status === 'waiting_for_answer' && b
  }, 120_000)
  expect(asked.question?.kind).toBe('map_field')
  return t
}

describe('deleting a job whose build is under way', () => {
  test('the build stops and its desktop takes the next build; from the CLI and over HTTP', async () => {
    const first = await teachAsking('/hk-build/customers')
    const r = await cli(['jobs', 'delete', 'POST', '/hk-build/customers', '--yes', '--data', s.dataDir])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Deleted POST /hk-build/customers (1 sample(s), 0 version(s), 1 build(s))')
    expect((await build(first.buildId)).status).toBe(404)

    // The only desktop was held by that build; the next one gets it.
    const second = await teachAsking('/hk-build/leads')
    const b = (await (await build(second.buildId)).json()) as BuildView
    expect(b.progress.some((p) => p.stage === 'start' && p.message === 'Building on desktop office-pc')).toBe(
      true,
    )
    expect((await s.call(`/_jobs/${second.jobId}`, { method: 'DELETE' })).status).toBe(200)
    expect((await build(second.buildId)).status).toBe(404)

    const third = await teachAsking('/hk-build/partners')
    expect((await s.call(`/_jobs/${third.jobId}`, { method: 'DELETE' })).status).toBe(200)
    const { desktops } = await (await s.call('/_desktops')).json()
    expect(desktops.map((d: { name: string; status: string }) => [d.name, d.status])).toEqual([
      ['office-pc', 'online'],
    ])
    expect(agent.proc.exitCode).toBeNull()
    // Each build was stopped at its question, before saving: the CRM has only its seeded customers.
    expect(crm.crm.customers().map((c) => c.id)).toEqual(['C-1039', 'C-1040', 'C-1041'])
  }, 360_000)
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import type { JobFile } from '../../src/modules/jobs/job-file.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { crmCreateCustomer } from '../fixtures/automations/crm.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/**
 * Live runs end to end: jobs imported with the CLI (no builder), a real agent process driving the
 * fixture CRM in real Chromium, and the caller's view over HTTP.
 */
let s: TestServer
let fixtures: FixtureServer
let agent: AgentProcess
const files = tempDir('deskhook-jobs-')

function jobFile(path: string, automation: Automation, prompt: string): string {
  const file: JobFile = {
    format: 'deskhook.job',
    version: 1,
    method: 'POST',
    path,
    prompt,
    automation,
    samples: [],
  }
  const name = join(files.path, `${path.replace(/\W/g, '_')}.json`)
  writeFileSync(name, JSON.stringify(file))
  return name
}

beforeAll(async () => {
  fixtures = await startFixtureServer()
  s = await startTestServer({ watchIntervalMs: 20, agentGraceMs: 1000 })
  const create = crmCreateCustomer(fixtures.url)
  const broken = crmCreateCustomer(fixtures.url)
  // The Save button was renamed in this "new release" of the app: the selector finds nothing.
  broken.steps = broken.steps.map((st) =>
    st.kind === 'click' && st.name === 'Click "Save"'
      ? { ...st, timeoutMs: 1500, target: { fingerprints: [{ by: 'role', role: 'button', name: 'Store' }] } }
      : st,
  )
  for (const [path, automation] of [
    ['/customers', create],
    ['/customers-broken', broken],
  ] as const) {
    const r = await cli([
      'jobs',
      'import',
      jobFile(path, automation, 'Create a customer in the CRM and return its id'),
      '--live',
      '--data',
      s.dataDir,
    ])
    expect(r.code).toBe(0)
  }
  agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'crm-pc',
    startUrl: `${fixtures.url}/crm/`,
  })
  await agent.waitForLog((l) => l.msg === 'online')
  // The imports reach the running server through the database watcher.
  await eventually(
    async () =>
      (await s.call('/customers?async=1', { method: 'POST', json: { email: 'warmup@example.com' } }))
        .status === 202,
  )
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
  await fixtures?.stop()
  files.remove()
})

const poll = async (id: string) => (await s.call(`/_executions/${id}`)).json()

describe('an imported job, run by a real agent', () => {
  test('a sync call creates the customer and answers 200 with the new id', async () => {
    const res = await s.call('/customers', {
      method: 'POST',
      json: {
        firstName: 'Katherine',
        lastName: 'Johnson',
        email: 'kj@example.com',
        country: 'US',
        vip: true,
      },
    })
    expect(res.status).toBe(200)
    const { customerId } = (await res.json()) as { customerId: string }
    expect(customerId).toMatch(/^C-10\d\d$/)
    // The id answered is the one the CRM stored for this customer, saved once.
    expect(fixtures.crm.customers().filter((c) => c.email === 'kj@example.com')).toMatchObject([
      { id: customerId, firstName: 'Katherine', lastName: 'Johnson', country: 'US', vip: true },
    ])
  }, 60_000)

  test('a duplicate email answers 207 with the taught scenario', async () => {
    const res = await s.call('/customers', { method: 'POST', json: { email: 'ada@example.com' } })
    expect(res.status).toBe(207)
    const body = await res.json()
    expect(body.scenario).toBe('duplicate customer')
    expect(body.result.message).toContain('already exists')
    expect(body.steps.some((x: { flowName: string }) => x.flowName === 'Click "OK"')).toBe(true)
  }, 60_000)

  test('a broken selector answers 502 naming the step', async () => {
    const res = await s.call('/customers-broken', { method: 'POST', json: { email: 'new@example.com' } })
    expect(res.status).toBe(502)
    const body = await res.json()
    expect(body.error).toMatchObject({ code: 'ELEMENT_NOT_FOUND', step: 'Click "Save"' })
    const polled = await poll(body.error.jobExecutionId)
    const failed = polled.steps.find((x: { flowName: string }) => x.flowName === 'Click "Save"')
    expect(failed.status).toBe('FAILED')
    // The picture is written off the event loop after the step's row: waited for, not assumed.
    const shot = await eventually(async () => {
      const res = await s.call(failed.screenshotPath)
      return res.headers.get('content-type') === 'image/jpeg' && res
    })
    expect(shot.status).toBe(200)
  }, 60_000)

  test('async + polling goes queued → running → succeeded with done: true', async () => {
    // Keep the only desktop busy so the call visibly waits in the queue first.
    const busy = s.call('/customers', { method: 'POST', json: { email: 'first@example.com' } })
    await eventually(async () =>
      (await (await s.call('/_desktops')).json()).desktops.some(
        (d: { status: string }) => d.status === 'busy',
      ),
    )
    const ack = await (
      await s.call('/customers?async=1', { method: 'POST', json: { email: 'second@example.com' } })
    ).json()
    const seen: string[] = []
    const done = await eventually(async () => {
      const e = await poll(ack.jobExecutionId)
      if (seen.at(-1) !== e.status) seen.push(e.status)
      return e.done && e
    }, 60_000)
    await busy
    expect(seen).toEqual(['queued', 'running', 'succeeded'])
    expect(done.result).toEqual({ customerId: expect.stringMatching(/^C-10\d\d$/) })
    expect(done.steps.length).toBeGreaterThan(5)
  }, 90_000)

  test('the agent killed mid-run ends the run AGENT_LOST, and it is not run again', async () => {
    const ack = await (
      await s.call('/customers?async=1', { method: 'POST', json: { email: 'lost@example.com' } })
    ).json()
    await eventually(async () => (await poll(ack.jobExecutionId)).steps.length > 0, 30_000)
    agent.proc.kill('SIGKILL')
    const ended = await eventually(async () => {
      const e = await poll(ack.jobExecutionId)
      return e.done && e
    }, 30_000)
    expect(ended.status).toBe('failed')
    expect(ended.error.code).toBe('AGENT_LOST')
    expect(ended.result.error.code).toBe('AGENT_LOST')
  }, 60_000)
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { eventually } from '../helpers/cli.ts'
import { type FixtureServer, startFixtureServer } from '../helpers/fixture-server.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * "I answered that already": a build fails after its question was answered (the desktop went
 * away), the person fixes it and sends the sample again, and the new build takes the earlier
 * answer instead of asking. Real builder, real agent, Chromium, the fixture CRM.
 */
let s: TestServer
let crm: FixtureServer
let agent: AgentProcess | undefined
const state = tempDir('deskhook-agent-')

const agentOn = () =>
  startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'office-pc',
    startUrl: `${crm.url}/crm/`,
    stateDir: state.path,
  })

beforeAll(async () => {
  crm = await startFixtureServer()
  s = await startTestServer({ watchIntervalMs: 20 })
  agent = agentOn()
  await agent.waitForLog((l) => l.msg === 'online', 30_000)
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
  await crm?.stop()
  state.remove()
})

interface BuildView {
  status: string
  question: { id: string; kind: string; text: string; options: { value: string; label: string }[] } | null
  progress: { stage: string; message: string }[]
  error: { code: string; message: string } | null
}

const teach = async (email: string) => {
  const res = await s.call('/rebuild/customers', {
    method: 'POST',
    json: teachBody(
      {
        prompt: 'Create a customer in the CRM and return its id',
        expect: { customerId: { $type: 'string' } },
      },
      { firstName: 'Grace', lastName: 'Hopper', email, ref: 'Referred by the Navy' },
    ),
  })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; buildId: string }
}

const settle = (buildId: string) =>
  eventually(async () => {
    const b = (await (await s.call(`/_builds/${buildId}`)).json()) as BuildView
    return ['succeeded', 'failed', 'waiting_for_answer'].includes(b.status) && b
  }, 120_000)

describe('answers carry over after a failed build', () => {
  test('the re-sent sample is built without asking the same question again', async () => {
    const first = await teach('grace.first@example.com')
    const asked = await settle(first.buildId)
    expect(asked.status).toBe('waiting_for_answer')
    expect(asked.question!.kind).toBe('map_field')
    const notes = asked.question!.options.find((o) => /notes/i.test(o.label))!

    // The desktop goes away while the person thinks; the answer arrives, the build cannot go on.
    await agent!.kill('SIGTERM')
    agent = undefined
    const answered = await s.call(`/_builds/${first.buildId}/answers`, {
      method: 'POST',
      json: { questionId: asked.question!.id, answer: notes.value },
    })
    expect(answered.status).toBe(200)
    const failed = await settle(first.buildId)
    expect(failed.status).toBe('failed')
    expect(failed.error!.code).toBe('DESKTOP_ERROR')

    // Fixed: the desktop is back, and the sample is sent again.
    agent = agentOn()
    await agent.waitForLog((l) => l.msg === 'online', 30_000)
    const again = await teach('grace.again@example.com')
    expect(again.jobId).toBe(first.jobId)
    const done = await settle(again.buildId)
    expect(done.status, JSON.stringify(done.progress.slice(-5))).toBe('succeeded')
    expect(done.progress.filter((p) => p.stage === 'question')).toEqual([])
    expect(
      done.progress.some((p) => p.message.startsWith(`Not asking again: "${asked.question!.text}"`)),
    ).toBe(true)

    // The remembered answer did its job: the new version fills "ref" into Notes.
    const row = s.ctx.db.$client
      .query<{ automation: string }, []>('SELECT automation FROM job_versions')
      .get()!
    const steps = (JSON.parse(row.automation) as { steps: { kind: string; value?: string }[] }).steps
    const refStep = steps.find((st) => st.kind === 'fill' && st.value?.includes('{{ref'))
    expect(JSON.stringify(refStep)).toMatch(/notes/i)

    // The CRM keeps its data: the build's one submit made one customer, with "ref" in its notes;
    // the failed build never got as far as saving.
    const made = crm.crm.customers().slice(3) // after the three seeded customers
    expect(made).toMatchObject([{ email: 'grace.again@example.com', notes: 'Referred by the Navy' }])
  }, 300_000)
})

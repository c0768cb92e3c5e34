import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { eventually } from '../helpers/cli.ts'
import { startFixtureServer } from '../helpers/fixture-server.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/** Where a build runs: it waits while no desktop is online, and asks when several are. */
let s: TestServer
let fixtures: { url: string; stop(): Promise<void> }
const agents: AgentProcess[] = []

beforeAll(async () => {
  fixtures = await startFixtureServer()
  s = await startTestServer()
})
afterAll(async () => {
  for (const a of agents) await a.cleanup()
  await s?.close()
  await fixtures?.stop()
})

const build = async (id: string) => (await s.call(`/_builds/${id}`)).json()
const teach = async (path: string) =>
  (await (
    await s.call(path, {
      method: 'POST',
      json: teachBody({ prompt: 'Create an invoice in SAP and return its number' }, { amount: 1 }),
    })
  ).json()) as {
    buildId: string
  }

test('with no desktop online the build waits, saying why, and starts when one connects', async () => {
  const t = await teach('/invoices')
  const waiting = await eventually(async () => {
    const b = await build(t.buildId)
    return b.progress.some((p: { message: string }) => p.message.includes('none is online')) && b
  })
  expect(waiting.status).toBe('queued')
  const agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'pc-1',
    startUrl: `${fixtures.url}/crm/`,
  })
  agents.push(agent)
  const done = await eventually(async () => {
    const b = await build(t.buildId)
    return b.status === 'failed' && b
  }, 60_000)
  // It ran (and failed for the reason the prompt gives: no SAP on this desktop).
  expect(done.error.code).toBe('APP_NOT_FOUND')
}, 90_000)

test('with several desktops online and none named, the build asks which one', async () => {
  const second = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'pc-2',
    startUrl: `${fixtures.url}/crm/`,
  })
  agents.push(second)
  await second.waitForLog((l) => l.msg === 'online')
  const t = await teach('/invoices-2')
  const asked = await eventually(async () => {
    const b = await build(t.buildId)
    return b.status === 'waiting_for_answer' && b
  })
  expect(asked.question.kind).toBe('choose_window')
  // Every desktop online, and a way to decline them all (which cancels the build).
  expect(asked.question.options.map((o: { label: string }) => o.label).sort()).toEqual([
    'None of these',
    'pc-1',
    'pc-2',
  ])
  const pc2 = asked.question.options.find((o: { label: string }) => o.label === 'pc-2').value
  const res = await s.call(`/_builds/${t.buildId}/answers`, {
    method: 'POST',
    json: { questionId: asked.question.id, answer: pc2 },
  })
  expect(res.status).toBe(200)
  const done = await eventually(async () => {
    const b = await build(t.buildId)
    return b.status === 'failed' && b
  }, 60_000)
  expect(done.progress.some((p: { message: string }) => p.message.includes('Building on desktop pc-2'))).toBe(
    true,
  )
}, 90_000)

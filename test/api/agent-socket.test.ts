import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEnrollmentToken, getDesktop } from '../../src/modules/desktops/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { CLOSE } from '../../src/protocol/messages.ts'
import { AgentLostError } from '../../src/runtime/agent-hub/index.ts'
import { eventually } from '../helpers/cli.ts'
import { FakeAgent } from '../helpers/fake-agent.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 100, agentGraceMs: 300 })
})
afterAll(() => s.close())

const noop: Automation = { version: 1, app: {}, steps: [], scenarios: [] }
const outcome = {
  status: 'succeeded' as const,
  scenario: 'main',
  outcome: 'success' as const,
  result: { ok: true },
  startedAt: new Date().toISOString(),
  finishedAt: new Date().toISOString(),
}

async function enrolled(): Promise<{ agent: FakeAgent; desktopId: string; secret: string }> {
  const agent = new FakeAgent(s.url)
  await agent.opened
  agent.hello({ kind: 'enroll', token: createEnrollmentToken(s.ctx).token })
  const welcome = await agent.next('welcome')
  return { agent, desktopId: welcome.desktopId, secret: welcome.credential!.secret }
}

describe('the agent socket', () => {
  test('needs no API key but closes on a protocol version mismatch, saying why', async () => {
    const agent = new FakeAgent(s.url)
    await agent.opened
    agent.hello({ kind: 'enroll', token: 'x' }, { protocol: 99 })
    const closed = await agent.whenClosed()
    expect(closed.code).toBe(CLOSE.PROTOCOL)
    expect(closed.reason).toContain('protocol 99')
  })

  test('a malformed message closes the socket', async () => {
    const agent = new FakeAgent(s.url)
    await agent.opened
    agent.send({ type: 'hello', protocol: 1 })
    expect((await agent.whenClosed()).code).toBe(CLOSE.PROTOCOL)
  })

  test('anything before hello is refused', async () => {
    const agent = new FakeAgent(s.url)
    await agent.opened
    agent.send({ type: 'heartbeat' })
    expect((await agent.whenClosed()).code).toBe(CLOSE.AUTH_FAILED)
  })

  test('a wrong credential is refused', async () => {
    const { agent, desktopId, secret } = await enrolled()
    agent.close()
    const wrong = new FakeAgent(s.url)
    await wrong.opened
    wrong.hello({ kind: 'credential', desktopId, secret: `${secret}x` })
    expect((await wrong.whenClosed()).code).toBe(CLOSE.AUTH_FAILED)
  })

  test('heartbeats are answered; a silent agent is dropped and shown offline', async () => {
    const { agent, desktopId } = await enrolled()
    agent.send({ type: 'heartbeat' })
    await agent.next('heartbeat.ack')
    // The shown status is written with the next commit (deferred), not at once.
    await eventually(async () => getDesktop(s.ctx, desktopId)?.status === 'online')
    const closed = await agent.whenClosed()
    expect(closed.code).toBe(CLOSE.HEARTBEAT_MISSED)
    await eventually(async () => getDesktop(s.ctx, desktopId)?.status === 'offline')
  })

  test('a second connection of the same desktop replaces the first', async () => {
    const { agent, desktopId, secret } = await enrolled()
    const again = new FakeAgent(s.url)
    await again.opened
    again.hello({ kind: 'credential', desktopId, secret })
    await again.next('welcome')
    expect((await agent.whenClosed()).code).toBe(CLOSE.REPLACED)
    expect(s.hub.isOnline(desktopId)).toBe(true)
    again.close()
  })
})

describe('runs over the socket', () => {
  test('a report with a stale lease is ignored; the right lease settles the run', async () => {
    const { agent, desktopId } = await enrolled()
    const runId = crypto.randomUUID()
    let settled = false
    const result = s.hub.run(desktopId, { runId, automation: noop, input: {}, timeoutMs: 1000 }).then((o) => {
      settled = true
      return o
    })
    const run = await agent.next('run')
    // It beats as an agent does, so a slow machine does not drop it for silence mid-test; every beat
    // is answered in order, so once all are answered the server has read what came before the last.
    let beats = 0
    const beat = () => {
      beats++
      agent.send({ type: 'heartbeat', busyRunId: runId })
    }
    const acks = () => agent.received.filter((m) => m.type === 'heartbeat.ack').length
    const beating = setInterval(beat, 50)
    try {
      await eventually(async () => getDesktop(s.ctx, desktopId)?.status === 'busy')
      agent.send({ type: 'run.result', runId, lease: 'stale', outcome })
      beat()
      await eventually(async () => acks() >= beats)
    } finally {
      clearInterval(beating)
    }
    expect(settled).toBe(false)
    agent.send({ type: 'run.result', runId, lease: run.lease, outcome })
    expect(await result).toEqual(outcome)
    // Whoever records the result acknowledges it once it is durable; only then may the agent forget it.
    expect(agent.received.some((m) => m.type === 'run.ack')).toBe(false)
    s.hub.acknowledge(desktopId, runId)
    await agent.next('run.ack')
    agent.close()
  })

  test('an agent that vanishes mid-run and never returns loses the run after the grace period', async () => {
    const { agent, desktopId } = await enrolled()
    const result = s.hub.run(desktopId, {
      runId: crypto.randomUUID(),
      automation: noop,
      input: {},
      timeoutMs: 1000,
    })
    await agent.next('run')
    agent.close()
    await expect(result).rejects.toBeInstanceOf(AgentLostError)
  })

  test('an agent that comes back within the grace period and reports keeps its run', async () => {
    const { agent, desktopId, secret } = await enrolled()
    const runId = crypto.randomUUID()
    const result = s.hub.run(desktopId, { runId, automation: noop, input: {}, timeoutMs: 1000 })
    const run = await agent.next('run')
    agent.close()
    await agent.whenClosed()
    const back = new FakeAgent(s.url)
    await back.opened
    back.hello({ kind: 'credential', desktopId, secret }, { busyRunId: runId })
    await back.next('welcome')
    back.send({ type: 'run.result', runId, lease: run.lease, outcome, replayed: true })
    expect(await result).toEqual(outcome)
    back.close()
  })
})

import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { getWebhookSecret } from '../../src/modules/webhooks/signing.ts'
import { eventually } from '../helpers/cli.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { hang, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

let s: TestServer
let desk: FakeRunner
const receivers: Receiver[] = []

beforeAll(async () => {
  s = await startTestServer(
    { callbackAllow: '127.0.0.1/32' },
    { webhooks: { retryDelayMs: 100, timeoutMs: 2000 } },
  )
  await liveJob(s, 'POST', '/echo')
  await liveJob(s, 'POST', '/broken')
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
})
afterAll(async () => {
  desk.close()
  await Promise.all(receivers.map((r) => r.stop()))
  await s.close()
})
afterEach(() => {
  desk.behaviour = {}
})

const receiver = (respond?: Parameters<typeof startReceiver>[0]) => {
  const r = startReceiver(respond)
  receivers.push(r)
  return r
}
const withCallback = (path: string, r: Receiver, extra = '') =>
  `${path}?callback_url=${encodeURIComponent(`${r.url}/hooks/deskhook`)}${extra}`

describe('status events', () => {
  test('arrive in order, signed the Standard Webhooks way, with the seed shape', async () => {
    const r = receiver()
    const res = await s.call(withCallback('/echo', r), { method: 'POST', json: { a: 1 } })
    expect(res.status).toBe(200)
    const requests = await r.received(8)
    const wh = new Webhook(getWebhookSecret(s.ctx))
    const events = requests.map((q) => wh.verify(q.body, q.headers) as Record<string, unknown>)
    expect(events.map((e) => e.eventType)).toEqual([
      'execution_started',
      'step_started',
      'step_completed',
      'step_started',
      'step_completed',
      'step_started',
      'step_completed',
      'execution_completed',
    ])
    for (const e of events) {
      expect(typeof e.executionId).toBe('number')
      expect(e.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
    }
    expect(events[2]!.step).toEqual({
      flowName: 'Step 1',
      executionOrder: 1,
      totalSteps: 3,
      status: 'SUCCESS',
      result: { done: 'Step 1' },
    })
    const completed = events[7]!
    expect(completed.status).toBe('succeeded')
    expect(completed.result).toEqual(await res.json())
    expect(String(completed.replayUrl)).toMatch(/\/_\/runs\/\d+$/)
    expect(requests[0]!.path).toBe('/hooks/deskhook')
  })

  test('a failed step sends step_failed, and the completion carries the error body', async () => {
    desk.behaviour = { failStep: 0 }
    const r = receiver()
    const res = await s.call(withCallback('/broken', r), { method: 'POST' })
    expect(res.status).toBe(502)
    const events = (await r.received(4)).map((q) => JSON.parse(q.body))
    expect(events.map((e) => e.eventType)).toEqual([
      'execution_started',
      'step_started',
      'step_failed',
      'execution_completed',
    ])
    expect(events[3].status).toBe('failed')
    expect(events[3].result.error.step).toBe('Step 1')
  })

  test('a receiver that fails gets exactly one retry per event, with the same webhook-id', async () => {
    const r = receiver(() => new Response('down', { status: 500 }))
    const ack = await (await s.call(withCallback('/echo', r, '&async=1'), { method: 'POST' })).json()
    const requests = await r.received(16)
    const ids = requests.map((q) => q.headers['webhook-id'])
    const counts = new Map<string, number>()
    for (const id of ids) counts.set(id!, (counts.get(id!) ?? 0) + 1)
    expect([...counts.values()]).toEqual(Array(8).fill(2))
    // The last answer is recorded just after it arrives; then every event has given up after 2 attempts.
    const rows = () =>
      s.ctx.db.$client
        .query<{ status: string; attempts: number }, [string]>(
          'SELECT status, attempts FROM webhook_deliveries WHERE job_execution_id = ?',
        )
        .all(ack.jobExecutionId)
    await eventually(async () => rows().every((d) => d.status === 'failed'))
    expect(rows().map((d) => d.attempts)).toEqual(Array(8).fill(2))
    expect(r.requests.length).toBe(16)
  })

  test('a receiver that never answers does not hold up the run or the sync answer', async () => {
    const r = receiver(hang)
    const res = await s.call(withCallback('/echo', r), { method: 'POST' })
    expect(res.status).toBe(200)
    // The first event is still unanswered at the receiver while the caller already has its result.
    await r.received(1)
    expect(r.requests.length).toBe(1)
  })
})

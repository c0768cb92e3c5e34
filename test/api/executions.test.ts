import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { eventually } from '../helpers/cli.ts'
import { FakeRunner, TINY_JPEG } from '../helpers/fake-runner.ts'
import { liveJob, noopAutomation } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

let s: TestServer
let desk: (FakeRunner & { secret: string }) | undefined

beforeAll(async () => {
  s = await startTestServer({
    idleTimeoutS: 1,
    agentGraceMs: 300,
    heartbeatIntervalMs: 1000,
    runTimeoutMs: 1000,
  })
  await liveJob(s, 'POST', '/echo')
  await liveJob(s, 'POST', '/broken', noopAutomation(3))
})
afterAll(() => s.close())
afterEach(() => {
  desk?.close()
  desk = undefined
})

const connect = async (behaviour = {}) => {
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token }, behaviour)
  return desk
}
const poll = async (id: string) => (await s.call(`/_executions/${id}`)).json()

describe('asynchronous calls', () => {
  test('202 with exactly the acknowledgement; the poll goes queued → succeeded with the sync body', async () => {
    const res = await s.call('/echo?async=1&q=1', { method: 'POST', json: { name: 'Ada' } })
    expect(res.status).toBe(202)
    const ack = await res.json()
    expect(Object.keys(ack).sort()).toEqual(['jobExecutionId', 'resultPath', 'status'])
    expect(ack.status).toBe('queued')
    expect(ack.resultPath).toBe(`/_executions/${ack.jobExecutionId}`)
    expect(ack.jobExecutionId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )

    const waiting = await poll(ack.jobExecutionId)
    expect(waiting).toMatchObject({ status: 'queued', done: false, result: null, queuePosition: 0 })
    expect(waiting.waitReason).toContain('No desktop')

    await connect()
    const done = await eventually(async () => {
      const e = await poll(ack.jobExecutionId)
      return e.done && e
    })
    expect(done).toMatchObject({
      status: 'succeeded',
      httpStatus: 200,
      queuePosition: null,
      scenario: 'main',
    })
    expect(done.result).toEqual({
      echo: { q: '1', name: 'Ada', _http: expect.objectContaining({ method: 'POST', path: '/echo' }) },
    })
    expect(typeof done.executionId).toBe('number')
    expect(done.replayUrl).toBe(`${s.url}/_/runs/${done.executionId}`)
    expect(done.steps.map((x: { flowName: string; status: string }) => [x.flowName, x.status])).toEqual([
      ['Step 1', 'SUCCESS'],
      ['Step 2', 'SUCCESS'],
      ['Step 3', 'SUCCESS'],
    ])
    // The picture is written off the event loop after the step's row (executions/service.ts): on
    // a busy disk it lands a moment after the run ends, so it is waited for, not assumed.
    const shot = await eventually(async () => {
      const res = await s.call(done.steps[0].screenshotPath)
      return res.headers.get('content-type') === 'image/jpeg' && res
    })
    expect(Buffer.from(await shot.arrayBuffer())).toEqual(TINY_JPEG)
  })

  test('x-job-async: true and Prefer: respond-async also queue', async () => {
    await connect()
    expect((await s.call('/echo', { method: 'POST', headers: { 'x-job-async': 'true' } })).status).toBe(202)
    expect((await s.call('/echo', { method: 'POST', headers: { prefer: 'respond-async' } })).status).toBe(202)
  })
})

describe('synchronous calls', () => {
  test('200 with the output', async () => {
    await connect()
    const res = await s.call('/echo', { method: 'POST', json: { a: 1 } })
    expect(res.status).toBe(200)
    expect((await res.json()).echo.a).toBe(1)
  })

  test('207 for a taught alternate scenario, with per-step outcomes', async () => {
    await connect({
      outcome: () => ({
        status: 'partial',
        outcome: 'alternate',
        scenario: 'duplicate customer',
        result: { message: 'exists' },
      }),
    })
    const res = await s.call('/echo', { method: 'POST' })
    expect(res.status).toBe(207)
    const body = await res.json()
    expect(body).toMatchObject({ result: { message: 'exists' }, scenario: 'duplicate customer' })
    expect(body.steps).toHaveLength(3)
    expect(body.steps[0]).toMatchObject({
      flowName: 'Step 1',
      executionOrder: 1,
      totalSteps: 3,
      status: 'SUCCESS',
    })
  })

  test('502 naming the failed step', async () => {
    await connect({ failStep: 1 })
    const res = await s.call('/broken', { method: 'POST' })
    expect(res.status).toBe(502)
    const body = await res.json()
    expect(body.error).toMatchObject({ code: 'ELEMENT_NOT_FOUND', step: 'Step 2' })
    expect(body.error.requestId).toBe(res.headers.get('x-request-id')!)
    expect(body.error.replayUrl).toContain('/_/runs/')
    const polled = await poll(body.error.jobExecutionId)
    expect(polled.result).toEqual(body)
    expect(polled.status).toBe('failed')
  })

  test('a held call outlives the idle timeout (1 s here)', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    await connect({ hold: () => held })
    const call = s.call('/echo', { method: 'POST' })
    // Released only after twice the idle timeout has passed with the connection silent.
    setTimeout(release, 2500)
    expect((await call).status).toBe(200)
  })

  test('past the sync wait (Prefer: wait=1) the caller gets the acknowledgement, not a cut connection', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    await connect({ hold: () => held })
    const res = await s.call('/echo', { method: 'POST', headers: { prefer: 'wait=1' } })
    expect(res.status).toBe(202)
    const ack = await res.json()
    expect(ack.status).toBe('running')
    expect(res.headers.get('location')).toBe(ack.resultPath)
    release()
    await eventually(async () => (await poll(ack.jobExecutionId)).status === 'succeeded')
  })
})

describe('idempotency', () => {
  test('the same key returns the same execution; a different call with it gets 422', async () => {
    await connect()
    const headers = { 'idempotency-key': `order-${crypto.randomUUID()}` }
    const first = await s.call('/echo?async=1', { method: 'POST', json: { n: 1 }, headers })
    const second = await s.call('/echo?async=1', { method: 'POST', json: { n: 1 }, headers })
    const a = await first.json()
    const b = await second.json()
    expect(b.jobExecutionId).toBe(a.jobExecutionId)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    const sync = await s.call('/echo', { method: 'POST', json: { n: 1 }, headers })
    expect(sync.status).toBe(200)
    expect(sync.headers.get('x-job-execution-id')).toBe(a.jobExecutionId)
    const other = await s.call('/echo?async=1', { method: 'POST', json: { n: 2 }, headers })
    expect(other.status).toBe(422)
    expect((await other.json()).error.code).toBe('IDEMPOTENCY_KEY_REUSED')
    expect(desk!.runs.filter((r) => r.runId === a.jobExecutionId)).toHaveLength(1)
  })
})

describe('failures the caller did not cause', () => {
  test('an agent that vanishes mid-run ends the run AGENT_LOST after the grace period', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    const d = await connect({ hold: () => held })
    const call = s.call('/echo', { method: 'POST' })
    await eventually(async () => d.runs.length === 1)
    d.close()
    const res = await call
    release()
    expect(res.status).toBe(502)
    expect((await res.json()).error.code).toBe('AGENT_LOST')
  })

  test('a run that never reports ends timed_out (run timeout 1 s + margin)', async () => {
    await connect({ hold: () => new Promise(() => {}) })
    const res = await s.call('/echo', { method: 'POST' })
    expect(res.status).toBe(502)
    const body = await res.json()
    expect(body.error.code).toBe('RUN_TIMED_OUT')
    expect((await poll(body.error.jobExecutionId)).status).toBe('timed_out')
  }, 15_000)

  test('a forbidden callback_url is refused before anything is queued', async () => {
    const res = await s.call(`/echo?async=1&callback_url=${encodeURIComponent('http://127.0.0.1:9/hook')}`, {
      method: 'POST',
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('INVALID_CALLBACK_URL')
  })

  test('unknown execution → 404; the poll needs a key', async () => {
    expect((await s.call('/_executions/nope')).status).toBe(404)
    expect((await s.call('/_executions/nope', { key: null })).status).toBe(401)
  })
})

import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Real servers and processes: room for a busy CI machine.
setDefaultTimeout(30_000)

// Issue 9 item 13: idempotency compared bodies as bytes (keys in another order, or /orders/ vs
// /orders, got 422), and a retry naming another callback_url silently kept the first.
let s: TestServer
let desk: FakeRunner
beforeAll(async () => {
  s = await startTestServer({ callbackAllow: '127.0.0.1/32' })
  await liveJob(s, 'POST', '/orders')
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
})
afterAll(async () => {
  desk?.close()
  await s.close()
})

const key = () => ({ 'idempotency-key': `k-${crypto.randomUUID()}` })
const post = (path: string, body: string, headers: Record<string, string>) =>
  s.call(path, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } })

test('the same JSON with keys in another order, or a trailing slash, is the same call', async () => {
  const headers = key()
  const first = await post(
    '/orders?async=1',
    '{"sku":"A-1","qty":2,"ship":{"to":"Lyon","by":"air"}}',
    headers,
  )
  expect(first.status).toBe(202)
  const { jobExecutionId } = (await first.json()) as { jobExecutionId: string }
  for (const [path, body] of [
    ['/orders?async=1', '{"qty":2,"ship":{"by":"air","to":"Lyon"},"sku":"A-1"}'],
    ['/orders/?async=1', '{ "sku": "A-1", "qty": 2, "ship": { "to": "Lyon", "by": "air" } }'],
  ] as const) {
    const again = await post(path, body, headers)
    expect({ path, status: again.status }).toEqual({ path, status: 202 })
    expect(((await again.json()) as { jobExecutionId: string }).jobExecutionId).toBe(jobExecutionId)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
  }
  // A different value is still a different call.
  const other = await post(
    '/orders?async=1',
    '{"sku":"A-1","qty":3,"ship":{"to":"Lyon","by":"air"}}',
    headers,
  )
  expect(other.status).toBe(422)
})

test('a retry with another callback_url (or none) is refused with 422, naming callback_url', async () => {
  const headers = key()
  const hook = (n: number) => encodeURIComponent(`http://127.0.0.1:9/hook-${n}`)
  const first = await post(`/orders?async=1&callback_url=${hook(1)}`, '{"sku":"B-2"}', headers)
  expect(first.status).toBe(202)
  const same = await post(`/orders?async=1&callback_url=${hook(1)}`, '{"sku":"B-2"}', headers)
  expect(same.status).toBe(202)
  for (const query of [`&callback_url=${hook(2)}`, '']) {
    const res = await post(`/orders?async=1${query}`, '{"sku":"B-2"}', headers)
    expect(res.status).toBe(422)
    const { error } = (await res.json()) as { error: { code: string; field: string; message: string } }
    expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED')
    expect(error.field).toBe('callback_url')
    expect(error.message).toContain('hook-1')
  }
})

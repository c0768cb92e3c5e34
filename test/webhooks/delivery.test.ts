import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { systemLookup } from '../../src/modules/webhooks/callback-url.ts'
import {
  enqueueStatusEvent,
  listDeliveries,
  resendDelivery,
  type StatusEventInput,
} from '../../src/modules/webhooks/service.ts'
import { getWebhookSecret, rotateWebhookSecret } from '../../src/modules/webhooks/signing.ts'
import { VERSION } from '../../src/version.ts'
import { eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import {
  type ReceivedRequest,
  type Receiver,
  startCanary,
  startReceiver,
} from '../helpers/webhook-receiver.ts'

const RETRY_DELAY_MS = 150
let s: TestServer
let receivers: Receiver[] = []

beforeAll(async () => {
  // receiver.test stands for a receiver's DNS name; everything else resolves as usual.
  const lookup = async (host: string) => (host === 'receiver.test' ? ['127.0.0.1'] : systemLookup(host))
  s = await startTestServer(
    { callbackAllow: '127.0.0.1/32' },
    { webhooks: { retryDelayMs: RETRY_DELAY_MS, lookup } },
  )
})
afterAll(() => s.close())
afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()))
  receivers = []
})

const receiver = (...args: Parameters<typeof startReceiver>) => {
  const r = startReceiver(...args)
  receivers.push(r)
  return r
}

/** Queues one event for a fresh execution (or the given one) and wakes the deliverer. */
function send(url: string, extra: Partial<StatusEventInput> = {}) {
  const event = s.ctx.db.transaction((tx) =>
    enqueueStatusEvent(tx, {
      url,
      jobExecutionId: crypto.randomUUID(),
      executionId: 7,
      eventType: 'step_completed',
      payload: { step: { flowName: 'Fill email', executionOrder: 2, totalSteps: 5, status: 'SUCCESS' } },
      ...extra,
    }),
  )
  s.webhooks.notify()
  return event
}

/** Waits until the delivery reached a final state, then returns it. */
const settled = (id: number, jobExecutionId: string) =>
  eventually(async () => {
    const d = listDeliveries(s.ctx, jobExecutionId).find((x) => x.id === id)
    return d && (d.status === 'delivered' || d.status === 'failed') ? d : undefined
  })

const verify = (secret: string, r: ReceivedRequest) => new Webhook(secret).verify(r.body, r.headers)

describe('a delivery', () => {
  test('is signed the Standard Webhooks way and carries the event as its JSON body', async () => {
    const r = receiver()
    const jobExecutionId = crypto.randomUUID()
    const { eventId } = send(`${r.url}/hooks?token=abc`, {
      jobExecutionId,
      timestamp: '2031-01-02T03:04:05.000Z',
    })
    const [req] = await r.received(1)
    expect(req!.path).toBe('/hooks?token=abc')
    expect(req!.headers['content-type']).toBe('application/json')
    expect(req!.headers['user-agent']).toBe(`deskhook/${VERSION}`)
    expect(req!.headers['webhook-id']).toBe(eventId)
    expect(verify(getWebhookSecret(s.ctx), req!)).toEqual({
      eventType: 'step_completed',
      executionId: 7,
      jobExecutionId,
      eventId,
      timestamp: '2031-01-02T03:04:05.000Z',
      step: { flowName: 'Fill email', executionOrder: 2, totalSteps: 5, status: 'SUCCESS' },
    })
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, req!)).toThrow()
  })

  test('after a rotation, verifies with the new secret and (during the overlap) the old one', async () => {
    const r = receiver()
    const old = getWebhookSecret(s.ctx)
    const { secret } = rotateWebhookSecret(s.ctx)
    send(r.url)
    const [req] = await r.received(1)
    expect(verify(secret, req!)).toBeTruthy()
    expect(verify(old, req!)).toBeTruthy()
  })

  test('to a host name goes to the address that was checked, with the name in Host', async () => {
    const r = receiver()
    send(`http://receiver.test:${r.port}/hook`)
    const [req] = await r.received(1)
    expect(req!.headers.host).toBe(`receiver.test:${r.port}`)
    expect(req!.path).toBe('/hook')
  })

  test('is left out of a transaction that rolls back', () => {
    const jobExecutionId = crypto.randomUUID()
    expect(() =>
      s.ctx.db.transaction((tx) => {
        enqueueStatusEvent(tx, {
          url: 'http://127.0.0.1:9/',
          jobExecutionId,
          executionId: 1,
          eventType: 'execution_started',
          payload: {},
        })
        throw new Error('the execution change failed')
      }),
    ).toThrow('the execution change failed')
    expect(listDeliveries(s.ctx, jobExecutionId)).toEqual([])
  })
})

describe('status handling (RELIABILITY P7)', () => {
  test('500 → exactly one retry, after the retry delay, with the same webhook-id', async () => {
    const r = receiver(() => new Response('boom', { status: 500 }))
    const jobExecutionId = crypto.randomUUID()
    const { id, eventId } = send(r.url, { jobExecutionId })
    const d = await settled(id, jobExecutionId)
    expect(d).toMatchObject({ status: 'failed', attempts: 2, lastStatusCode: 500 })
    expect(r.requests.map((x) => x.headers['webhook-id'])).toEqual([eventId, eventId])
    // Jitter is ±20%, so the retry cannot come sooner than 80% of the delay.
    expect(r.requests[1]!.at - r.requests[0]!.at).toBeGreaterThanOrEqual(RETRY_DELAY_MS * 0.8 - 5)
    expect(verify(getWebhookSecret(s.ctx), r.requests[1]!)).toBeTruthy()
  })

  test('500 then 200 → delivered on the retry', async () => {
    const r = receiver((_req, n) => new Response(null, { status: n === 1 ? 503 : 204 }))
    const jobExecutionId = crypto.randomUUID()
    const { id } = send(r.url, { jobExecutionId })
    expect(await settled(id, jobExecutionId)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastStatusCode: 204,
    })
  })

  for (const status of [400, 410, 404]) {
    test(`${status} → no retry`, async () => {
      const r = receiver(() => new Response(null, { status }))
      const jobExecutionId = crypto.randomUUID()
      const { id } = send(r.url, { jobExecutionId })
      expect(await settled(id, jobExecutionId)).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastStatusCode: status,
      })
      expect(r.requests).toHaveLength(1)
    })
  }

  test('302 to another listener → a failure, and the other listener sees nothing', async () => {
    const canary = startCanary()
    try {
      const r = receiver(() => Response.redirect(`http://127.0.0.1:${canary.port}/steal`, 302))
      const jobExecutionId = crypto.randomUUID()
      const { id } = send(r.url, { jobExecutionId })
      const d = await settled(id, jobExecutionId)
      expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 302 })
      expect(d.lastError).toContain('not followed')
      expect(canary.connections()).toBe(0)
    } finally {
      canary.stop()
    }
  })

  test('429 with Retry-After is retried no sooner than asked', async () => {
    const r = receiver((_req, n) =>
      n === 1 ? new Response(null, { status: 429, headers: { 'retry-after': '1' } }) : new Response('ok'),
    )
    const jobExecutionId = crypto.randomUUID()
    const { id } = send(r.url, { jobExecutionId })
    expect(await settled(id, jobExecutionId)).toMatchObject({ status: 'delivered', attempts: 2 })
    expect(r.requests[1]!.at - r.requests[0]!.at).toBeGreaterThanOrEqual(990)
  })

  test('a Retry-After past the 60 s cap skips the retry', async () => {
    const r = receiver(() => new Response(null, { status: 503, headers: { 'retry-after': '120' } }))
    const jobExecutionId = crypto.randomUUID()
    const { id } = send(r.url, { jobExecutionId })
    const d = await settled(id, jobExecutionId)
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 503 })
    expect(d.lastError).toContain('cap')
  })

  test('resend sends a finished event again with the same webhook-id', async () => {
    const r = receiver()
    const jobExecutionId = crypto.randomUUID()
    const { id, eventId } = send(r.url, { jobExecutionId })
    await settled(id, jobExecutionId)
    expect(resendDelivery(s.ctx, id)).toMatchObject({ status: 'pending', attempts: 0 })
    s.webhooks.notify()
    const reqs = await r.received(2)
    expect(reqs.map((x) => x.headers['webhook-id'])).toEqual([eventId, eventId])
    expect(() => resendDelivery(s.ctx, 987654)).toThrow('No webhook delivery')
  })
})

import { afterEach, describe, expect, test } from 'bun:test'
import {
  enqueueStatusEvent,
  listDeliveries,
  type StatusEventType,
} from '../../src/modules/webhooks/service.ts'
import type { DelivererOptions } from '../../src/runtime/webhook-deliverer.ts'
import { eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { hang, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

let s: TestServer | undefined
let receivers: Receiver[] = []

afterEach(async () => {
  await Promise.all(receivers.map((r) => r.stop()))
  receivers = []
  await s?.close()
  s = undefined
})

async function server(webhooks: Partial<DelivererOptions>) {
  s = await startTestServer({ callbackAllow: '127.0.0.1/32' }, { webhooks })
  return s
}

const receiver = (...args: Parameters<typeof startReceiver>) => {
  const r = startReceiver(...args)
  receivers.push(r)
  return r
}

/** Queues events for one execution in one transaction, as the executions code will. */
function queue(srv: TestServer, url: string, jobExecutionId: string, types: StatusEventType[]) {
  const events = srv.ctx.db.transaction((tx) =>
    types.map((eventType, i) =>
      enqueueStatusEvent(tx, { url, jobExecutionId, executionId: 1, eventType, payload: { n: i } }),
    ),
  )
  srv.webhooks.notify()
  return events
}

const statusOf = (srv: TestServer, jobExecutionId: string) =>
  listDeliveries(srv.ctx, jobExecutionId)[0]?.status

describe('a slow receiver (RELIABILITY P6)', () => {
  test('that never answers does not hold up another execution’s events', async () => {
    const srv = await server({ timeoutMs: 1_000, retryDelayMs: 50 })
    const silent = receiver(() => hang())
    const healthy = receiver()
    const stuck = crypto.randomUUID()
    const other = crypto.randomUUID()
    queue(srv, silent.url, stuck, ['execution_started'])
    await silent.received(1)
    queue(srv, healthy.url, other, ['execution_started'])
    await healthy.received(1)
    await eventually(async () => statusOf(srv, other) === 'delivered')
    // The healthy event went out while the silent receiver still held its attempt open.
    expect(statusOf(srv, stuck)).toBe('delivering')

    const failed = await eventually(async () => {
      const d = listDeliveries(srv.ctx, stuck)[0]
      return d?.status === 'failed' ? d : undefined
    })
    expect(failed).toMatchObject({ attempts: 2, lastStatusCode: null })
    expect(failed.lastError).toContain('timed out after 1000 ms')
    expect(silent.requests).toHaveLength(2)
  })
})

describe('per-execution order', () => {
  test('holds when the first event needed a retry', async () => {
    const srv = await server({ retryDelayMs: 100 })
    const r = receiver((_req, n) => new Response(null, { status: n === 1 ? 500 : 200 }))
    const id = crypto.randomUUID()
    const events = queue(srv, r.url, id, [
      'execution_started',
      'step_started',
      'step_completed',
      'execution_completed',
    ])
    const reqs = await r.received(5)
    const ids = events.map((e) => e.eventId)
    expect(reqs.map((x) => x.headers['webhook-id'])).toEqual([ids[0], ...ids])
    await eventually(async () => listDeliveries(srv.ctx, id).every((d) => d.status === 'delivered'))
  })

  test('different executions proceed in parallel', async () => {
    const srv = await server({ retryDelayMs: 60_000 })
    // Execution A's first event waits a minute for its retry; B must not wait with it.
    const a = receiver(() => new Response(null, { status: 503 }))
    const b = receiver()
    const idA = crypto.randomUUID()
    const idB = crypto.randomUUID()
    queue(srv, a.url, idA, ['execution_started', 'execution_completed'])
    await a.received(1)
    queue(srv, b.url, idB, ['execution_started', 'execution_completed'])
    await b.received(2)
    expect(listDeliveries(srv.ctx, idA).map((d) => d.status)).toEqual(['pending', 'pending'])
    expect(a.requests).toHaveLength(1)
  })
})

describe('a bounded queue', () => {
  test('drops the oldest events beyond the limit and counts them', async () => {
    const srv = await server({ maxPending: 3 })
    const r = receiver()
    const ids = Array.from({ length: 5 }, () => crypto.randomUUID())
    // One synchronous block: the deliverer cannot run between these inserts.
    const events = ids.map((id) => queue(srv, r.url, id, ['execution_started'])[0]!)
    const reqs = await r.received(3)
    expect(srv.webhooks.droppedCount).toBe(2)
    expect(reqs.map((x) => x.headers['webhook-id']).sort()).toEqual(
      events
        .slice(2)
        .map((e) => e.eventId)
        .sort(),
    )
    for (const id of ids.slice(0, 2)) {
      expect(listDeliveries(srv.ctx, id)[0]).toMatchObject({ status: 'failed', attempts: 0 })
      expect(listDeliveries(srv.ctx, id)[0]!.lastError).toContain('dropped')
    }
  })
})

import { afterAll, afterEach, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { openDatabase } from '../../src/db/client.ts'
import { webhookDeliveries } from '../../src/db/schema/index.ts'
import { enqueueStatusEvent, listDeliveries } from '../../src/modules/webhooks/service.ts'
import { eventually } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { hang, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

const dir = tempDir()
const servers: TestServer[] = []
let r: Receiver | undefined

afterEach(async () => {
  await r?.stop()
  for (const s of servers.splice(0)) await s.stop()
})
afterAll(() => dir.remove())

async function boot() {
  const s = await startTestServer({ callbackAllow: '127.0.0.1/32' }, { dataDir: dir.path })
  servers.push(s)
  return s
}

test('an attempt cut short by a stop is sent again after the restart, with the same webhook-id', async () => {
  r = startReceiver(() => hang())
  const first = await boot()
  const jobExecutionId = crypto.randomUUID()
  const { eventId } = enqueueStatusEvent(first.ctx.db, {
    url: r.url,
    jobExecutionId,
    executionId: 3,
    eventType: 'execution_completed',
    payload: { status: 'succeeded', result: { id: 42 } },
  })
  first.webhooks.notify()
  await r.received(1)
  await first.stop()
  servers.splice(0)

  r.respond = () => new Response('ok')
  const second = await boot()
  const reqs = await r.received(2)
  expect(reqs.map((x) => x.headers['webhook-id'])).toEqual([eventId, eventId])
  expect(JSON.parse(reqs[1]!.body)).toMatchObject({ eventId, result: { id: 42 } })
  const delivered = await eventually(async () => {
    const d = listDeliveries(second.ctx, jobExecutionId)[0]
    return d?.status === 'delivered' ? d : undefined
  })
  // The interrupted attempt is not counted against the event's two.
  expect(delivered.attempts).toBe(1)
})

test('rows a crash left "delivering", and rows still pending, are delivered on the next start', async () => {
  r = startReceiver()
  // No server running: write the outbox as a crashed process would have left it.
  const db = openDatabase(dir.path)
  const crashed = crypto.randomUUID()
  const waiting = crypto.randomUUID()
  const inFlight = enqueueStatusEvent(db, {
    url: r.url,
    jobExecutionId: crashed,
    executionId: 4,
    eventType: 'execution_started',
    payload: {},
  })
  db.update(webhookDeliveries)
    .set({ status: 'delivering', attempts: 1 })
    .where(eq(webhookDeliveries.id, inFlight.id))
    .run()
  const pending = enqueueStatusEvent(db, {
    url: r.url,
    jobExecutionId: waiting,
    executionId: 5,
    eventType: 'execution_started',
    payload: {},
  })
  db.$client.close()

  const s = await boot()
  const reqs = await r.received(2)
  expect(reqs.map((x) => x.headers['webhook-id']).sort()).toEqual([inFlight.eventId, pending.eventId].sort())
  await eventually(async () =>
    [crashed, waiting].every((id) => listDeliveries(s.ctx, id)[0]?.status === 'delivered'),
  )
})

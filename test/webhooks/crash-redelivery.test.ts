import { afterAll, afterEach, expect, setDefaultTimeout, test } from 'bun:test'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { enqueueStatusEvent } from '../../src/modules/webhooks/service.ts'
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { hang, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

// Issue 23: status events are delivered at least once. A `kill -9` during an attempt sends the
// event again after the restart, with the same webhook-id, so a receiver de-duplicates on it.
setDefaultTimeout(60_000)

const dir = tempDir('deskhook-webhook-crash-')
let r: Receiver | undefined
const running: ServerProcess[] = []
afterEach(async () => {
  for (const p of running.splice(0)) {
    p.proc.kill(9)
    await p.proc.exited
  }
  await r?.stop()
})
afterAll(() => dir.remove())

test('an attempt cut by kill -9 is delivered again after the restart, with the same webhook-id', async () => {
  r = startReceiver(() => hang())
  const db = openDatabase(dir.path)
  migrate(db.$client)
  const { eventId } = enqueueStatusEvent(db, {
    url: r.url,
    jobExecutionId: crypto.randomUUID(),
    executionId: 7,
    eventType: 'execution_completed',
    payload: { status: 'succeeded', result: { id: 42 } },
  })
  db.$client.close()
  const args = ['--callback-allow', '127.0.0.1/32']

  const first = await startServerProcess(dir.path, args)
  running.push(first)
  // The first attempt reached the receiver, which never answers: the server dies mid-attempt.
  await r.received(1)
  first.proc.kill(9)
  await first.proc.exited
  running.splice(0)

  r.respond = () => new Response('ok')
  running.push(await startServerProcess(dir.path, args))
  const reqs = await r.received(2)
  expect(reqs.map((x) => x.headers['webhook-id'])).toEqual([eventId, eventId])
  expect(reqs[1]!.headers['webhook-signature']).toMatch(/^v1,/)
})

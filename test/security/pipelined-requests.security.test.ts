import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { connect } from 'node:net'
import { executions } from '../../src/db/schema/index.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Issue 23, "pipelined requests": on Bun 1.4.4, a request that arrives on a connection while the
// response before it is still being made (any handler that awaits, as every accepted call does:
// its 202 waits for the commit) makes Bun close the connection at once, answering neither (uWS's
// HttpContext.h closes a socket that parses a request while HTTP_RESPONSE_PENDING is set). Nothing
// in the app sees the second request, so no work-around fits inside the server. This is the limit
// deskhook documents, and the recovery it promises: the first call may have been accepted, and
// its retry on a new connection with the same Idempotency-Key gets that same execution.
setDefaultTimeout(30_000)

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
  await liveJob(s, 'POST', '/orders')
})
afterAll(() => s.close())

/**
 * Writes `payload` in one go; resolves only once the server closes the connection (a server that
 * keeps it open fails the test by its timeout), with the status of every response received.
 */
function exchange(payload: string): Promise<{ statuses: number[]; text: string }> {
  const { port } = new URL(s.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(payload))
    let text = ''
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8')
    })
    socket.on('error', reject)
    socket.on('end', () => socket.end())
    socket.on('close', () =>
      resolve({
        statuses: [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])),
        text,
      }),
    )
  })
}

const post = (idempotencyKey: string, close = false) => {
  const body = JSON.stringify({ item: 'chair' })
  return (
    `POST /orders?async=1 HTTP/1.1\r\nHost: x\r\nx-api-key: ${s.key}\r\nContent-Type: application/json\r\n` +
    `Idempotency-Key: ${idempotencyKey}\r\nContent-Length: ${body.length}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`
  )
}
const health = (close = false) =>
  `GET /_health HTTP/1.1\r\nHost: x\r\n${close ? 'Connection: close\r\n' : ''}\r\n`

test('a request pipelined behind an async call: the connection closes; the retry with the same Idempotency-Key gets the same execution', async () => {
  const idempotencyKey = `pipelined-${crypto.randomUUID()}`
  const before = s.ctx.db.select().from(executions).all().length
  const pipelined = await exchange(post(idempotencyKey) + health(true))
  // The limit: the pipelined request is never answered, the connection is closed (on Bun 1.4.4 the
  // call in flight gets no answer either; a Bun that answers it first still passes).
  expect(pipelined.statuses.length).toBeLessThanOrEqual(1)
  if (pipelined.statuses.length === 1) expect(pipelined.statuses[0]).toBe(202)
  // The recovery: the same call again, on a new connection, with the same key.
  const retry = await fetch(`${s.url}/orders?async=1`, {
    method: 'POST',
    headers: { 'x-api-key': s.key, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ item: 'chair' }),
  })
  expect(retry.status).toBe(202)
  const { jobExecutionId } = (await retry.json()) as { jobExecutionId: string }
  const made = s.ctx.db.select().from(executions).all().slice(before)
  // The handler of the first call ran (Bun only lost its answer): exactly one execution, the retry's.
  expect(made.map((e) => e.id)).toEqual([jobExecutionId])
  if (pipelined.statuses.length === 1) expect(pipelined.text).toContain(jobExecutionId)
})

test('one request after another on a kept-alive connection (no pipelining) is answered every time', async () => {
  const { port } = new URL(s.url)
  const socket = connect(Number(port), '127.0.0.1')
  await new Promise<void>((ok) => socket.once('connect', () => ok()))
  let text = ''
  const answered = (n: number) =>
    new Promise<void>((ok) => {
      const check = () => {
        if ((text.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= n && text.trimEnd().endsWith('}')) {
          socket.off('data', onData)
          ok()
        }
      }
      const onData = (d: Buffer) => {
        text += d.toString('utf8')
        check()
      }
      socket.on('data', onData)
    })
  socket.write(post(`sequential-${crypto.randomUUID()}`))
  await answered(1)
  socket.write(health())
  await answered(2)
  socket.destroy()
  expect([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))).toEqual([202, 200])
})

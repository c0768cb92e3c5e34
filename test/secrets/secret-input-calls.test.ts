import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { Validator } from '@seriousme/openapi-schema-validator'
import stableStringify from 'safe-stable-stringify'
import { addJobVersion, promoteJob } from '../../src/modules/jobs/service.ts'
import { eventually } from '../helpers/cli.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { restartableServer } from '../helpers/restartable-server.ts'
import { type TestServer, teachBody } from '../helpers/test-server.ts'

/** Live calls to a job with secret inputs: idempotency, a restart before dispatch, its OpenAPI. */
setDefaultTimeout(30_000)

const PASSWORD = 'Heron-Saffron-62!'
const OTHER = 'Heron-Saffron-63!'

const servers = restartableServer()
const start = () => servers.start()

/** A live job whose `password` and `login.pin` are secret inputs (the builder stood in for). */
async function secretJob(server: TestServer, path: string): Promise<string> {
  const res = await server.call(path, {
    method: 'POST',
    key: servers.key,
    json: teachBody(
      { prompt: 'Sign in', secrets: ['password', 'login.pin'] },
      { user: 'ada', password: 'Taught-Pw-1', login: { pin: 'Taught-Pin-1', site: 'eu' } },
    ),
  })
  expect(res.status).toBe(202)
  const { jobId } = await res.json()
  addJobVersion(server.ctx, jobId, noopAutomation(1))
  promoteJob(server.ctx, 'POST', path)
  // The fake desktop runs automations only: keep the builder (the teaching call's build) off it.
  server.ctx.db.$client.run("UPDATE builds SET status = 'failed'")
  return jobId
}

const call = (server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.call(path, { method: 'POST', key: servers.key, json: body, headers })

describe('a call with secret inputs', () => {
  test('an Idempotency-Key matches the same password, refuses another, and stores no plain hash of it', async () => {
    const server = await start()
    await secretJob(server, '/idem/sign-in')
    const headers = { 'idempotency-key': `k-${crypto.randomUUID()}` }
    const body = { user: 'ada', password: PASSWORD, login: { pin: '9931', site: 'eu' } }
    const first = await call(server, '/idem/sign-in?async=1', body, headers)
    expect(first.status).toBe(202)
    const { jobExecutionId } = await first.json()

    // Same key, same body (keys in another order): the same execution.
    const again = await call(
      server,
      '/idem/sign-in?async=1',
      { login: { site: 'eu', pin: '9931' }, password: PASSWORD, user: 'ada' },
      headers,
    )
    expect(again.status).toBe(202)
    expect((await again.json()).jobExecutionId).toBe(jobExecutionId)

    // Same key, another password or another PIN: another call.
    for (const changed of [
      { ...body, password: OTHER },
      { ...body, login: { pin: '9932', site: 'eu' } },
    ]) {
      const res = await call(server, '/idem/sign-in?async=1', changed, headers)
      expect(res.status).toBe(422)
      expect((await res.json()).error.code).toBe('IDEMPOTENCY_KEY_REUSED')
    }

    // What is stored cannot be checked against a guess: it is no plain hash of the input.
    const row = server.ctx.db.$client
      .query<{ fp: string; input: string }, [string]>(
        'SELECT idempotency_fingerprint AS fp, input FROM executions WHERE id = ?',
      )
      .get(jobExecutionId)!
    const plain = (b: unknown) =>
      createHash('sha256')
        .update(`POST /idem/sign-in\n${stableStringify(b)}`)
        .digest('base64url')
    expect(row.fp).not.toBe(plain(body))
    expect(row.fp).not.toBe(plain({ ...body, password: '•••', login: { pin: '•••', site: 'eu' } }))
    expect(row.input).not.toContain(PASSWORD)
  })

  test('accepted, then the server restarts before dispatch: it ends failed with SECRET_INPUT_LOST', async () => {
    let server = await start()
    await secretJob(server, '/restart/sign-in')
    // No desktop yet: the call waits in the queue, its password only in this process's memory.
    const res = await call(server, '/restart/sign-in?async=1', { user: 'ada', password: PASSWORD })
    expect(res.status).toBe(202)
    const { jobExecutionId } = await res.json()
    await server.close()

    server = await start()
    const desk = await servers.connectDesk()
    const ended = await eventually(async () => {
      const view = await (await server.call(`/_executions/${jobExecutionId}`, { key: servers.key })).json()
      return view.done ? view : undefined
    })
    expect(ended.status).toBe('failed')
    expect(ended.error.code).toBe('SECRET_INPUT_LOST')
    expect(ended.error.message).toContain('call the job again')
    // The desktop never got a run with the password masked in place of the value.
    expect(desk.runs).toEqual([])

    // A call made now reaches the desktop with its value.
    const now = await call(server, '/restart/sign-in', { user: 'ada', password: PASSWORD })
    expect(now.status).toBe(200)
    expect(desk.runs).toHaveLength(1)
    expect(desk.runs[0]!.input.password).toBe(PASSWORD)
  })
})

test('the OpenAPI document marks secret inputs as write-only passwords', async () => {
  const server = await start()
  await secretJob(server, '/openapi/sign-in')
  const doc = await (await server.call('/swagger.json', { key: null })).json()
  const result = await new Validator().validate(doc)
  expect(result.errors ?? []).toEqual([])
  const schema = doc.paths['/openapi/sign-in'].post.requestBody.content['application/json'].schema
  expect(schema.properties.password).toMatchObject({ type: 'string', format: 'password', writeOnly: true })
  expect(schema.properties.login.properties.pin).toMatchObject({ format: 'password', writeOnly: true })
  expect(schema.properties.login.properties.site.format).toBeUndefined()
  expect(schema.properties.user.format).toBeUndefined()
  expect(schema.properties.user.writeOnly).toBeUndefined()
})

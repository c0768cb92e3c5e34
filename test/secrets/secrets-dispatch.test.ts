import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/** What the agent is sent and what is kept, with a desktop that echoes its input back. */
const dir = tempDir()
let s: TestServer | undefined
let desk: FakeRunner | undefined
/** The key the first start printed; later starts on the same data dir make none. */
let apiKey = ''

afterEach(async () => {
  desk?.close()
  desk = undefined
  await s?.close()
  s = undefined
})
afterAll(() => dir.remove())

async function start(setUp: (server: TestServer) => Promise<void> = async () => {}) {
  s = await startTestServer({}, { dataDir: dir.path })
  apiKey ||= s.key
  await setUp(s)
  // The fake desktop runs automations only: keep the builder (the teaching calls' builds) off it.
  s.ctx.db.$client.run("UPDATE builds SET status = 'failed'")
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
  return s
}

describe('secrets at dispatch', () => {
  test('only the agent gets $secrets; the echo comes back masked; a caller cannot bring its own', async () => {
    const server = await start(async (server) => {
      await liveJob(server, 'POST', '/vault/with')
      await liveJob(server, 'POST', '/vault/without')
      setJobSecret(server.ctx, 'POST', '/vault/with', 'password', 'p4ss-Ocelot-88')
    })

    const res = await server.call('/vault/with', {
      method: 'POST',
      json: { $secrets: { password: 'mine' }, n: 1 },
    })
    expect(res.status).toBe(200)
    expect(desk!.runs.at(-1)!.input.$secrets).toEqual({ password: 'p4ss-Ocelot-88' })
    const body = await res.json()
    expect(body.echo.$secrets).toEqual({ password: '•••' })
    expect(body.echo.n).toBe(1)

    const plain = await server.call('/vault/without', {
      method: 'POST',
      json: { $secrets: { password: 'mine' }, n: 2 },
    })
    expect(plain.status).toBe(200)
    expect('$secrets' in desk!.runs.at(-1)!.input).toBe(false)
    // The stored execution keeps the caller's input as sent, never the job's secret.
    const stored = JSON.stringify(server.ctx.db.$client.query('SELECT input, result FROM executions').all())
    expect(stored).not.toContain('p4ss-Ocelot-88')
  })

  test('with another secrets.key the run fails clearly instead of waiting forever', async () => {
    writeFileSync(join(dir.path, 'secrets.key'), randomBytes(32))
    const server = await start()
    const res = await server.call('/vault/with', { method: 'POST', json: {}, key: apiKey })
    expect(res.status).toBe(502)
    const { error } = await res.json()
    expect(error.code).toBe('SECRETS_UNREADABLE')
    expect(error.message).toContain('does not decrypt')
    expect(desk!.runs).toEqual([])
    // The desktop is free for other jobs.
    expect((await server.call('/vault/without', { method: 'POST', json: {}, key: apiKey })).status).toBe(200)
  })
})

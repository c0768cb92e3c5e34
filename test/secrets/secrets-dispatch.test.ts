import { describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import type { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { restartableServer } from '../helpers/restartable-server.ts'
import type { TestServer } from '../helpers/test-server.ts'

/** What the agent is sent and what is kept, with a desktop that echoes its input back. */
const servers = restartableServer()
let desk: FakeRunner | undefined

async function start(setUp: (server: TestServer) => Promise<void> = async () => {}) {
  const s = await servers.start()
  await setUp(s)
  // The fake desktop runs automations only: keep the builder (the teaching calls' builds) off it.
  s.ctx.db.$client.run("UPDATE builds SET status = 'failed'")
  desk = await servers.connectDesk()
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
    writeFileSync(join(servers.dataDir, 'secrets.key'), randomBytes(32))
    const server = await start()
    const res = await server.call('/vault/with', { method: 'POST', json: {}, key: servers.key })
    expect(res.status).toBe(502)
    const { error } = await res.json()
    expect(error.code).toBe('SECRETS_UNREADABLE')
    expect(error.message).toContain('does not decrypt')
    expect(desk!.runs).toEqual([])
    // The desktop is free for other jobs.
    expect((await server.call('/vault/without', { method: 'POST', json: {}, key: servers.key })).status).toBe(
      200,
    )
  })
})

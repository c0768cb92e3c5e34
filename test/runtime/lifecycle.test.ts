import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.ts'
import { createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { executions, webhookDeliveries } from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { enqueueStatusEvent } from '../../src/modules/webhooks/service.ts'
import { DbWatcher } from '../../src/runtime/db-watcher.ts'
import { type Service, Services } from '../../src/runtime/service.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { startServerProcess } from '../helpers/server-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer } from '../helpers/test-server.ts'
import { hang, startReceiver } from '../helpers/webhook-receiver.ts'

const memoryLog = () => {
  const lines: string[] = []
  const destination = { write: (l: string) => lines.push(l) > 0 } as unknown as NodeJS.WritableStream
  return { lines, log: createLogger({ level: 'debug', format: 'json', destination }) }
}

/** Resolves after `n` turns of the event loop (no wall-clock sleeps). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}

describe('Services', () => {
  test('stop in the reverse of the start order, each after the previous one finished', async () => {
    const { log } = memoryLog()
    const seen: string[] = []
    const part = (name: string): Service => ({
      name,
      start: async () => {
        seen.push(`start ${name}`)
      },
      stop: async () => {
        seen.push(`stopping ${name}`)
        await turns(2)
        seen.push(`stopped ${name}`)
      },
    })
    const services = new Services(log)
    for (const name of ['a', 'b', 'c']) await services.start(part(name))
    await Promise.all([services.stopAll(), services.stopAll()])
    expect(seen).toEqual([
      'start a',
      'start b',
      'start c',
      'stopping c',
      'stopped c',
      'stopping b',
      'stopped b',
      'stopping a',
      'stopped a',
    ])
    await expect(services.start(part('late'))).rejects.toThrow(/stopping/)
  })

  test('a stop that fails is logged and the others still stop', async () => {
    const { lines, log } = memoryLog()
    const stopped: string[] = []
    const services = new Services(log)
    await services.start({ name: 'first', start() {}, stop: async () => void stopped.push('first') })
    await services.start({
      name: 'broken',
      start() {},
      stop: async () => {
        throw new Error('boom')
      },
    })
    await services.stopAll()
    expect(stopped).toEqual(['first'])
    expect(lines.some((l) => l.includes('"service":"broken"') && l.includes('failed to stop'))).toBe(true)
  })

  test('the server stops its services in the reverse of their start order', async () => {
    const s = await startTestServer()
    await s.close()
    const order = s.logs
      .filter((l) => l.includes('"msg":"service stopped"'))
      .map((l) => JSON.parse(l).service as string)
    expect(order).toEqual([
      'retention',
      'build worker',
      'scheduler',
      'webhook deliverer',
      'agent hub',
      'disk guard',
      'database watcher',
    ])
  })
})

describe('each service', () => {
  test('database watcher: a loop error is logged and the loop goes on; nothing is emitted after stop', async () => {
    const dir = tempDir()
    const db = openDatabase(dir.path)
    migrate(db.$client)
    const { lines, log } = memoryLog()
    const ctx = createContext({
      config: loadConfig({ dataDir: dir.path, watchIntervalMs: 10 }, {}),
      db,
      log,
      clock: { now: () => new Date() },
    })
    const other = new Database(join(dir.path, 'deskhook.db'))
    const touch = (n: number) =>
      other
        .query("INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES ('x', ?1, ?1)")
        .run(String(n))
    try {
      let changes = 0
      ctx.events.on('db.external-change', () => {
        changes++
        if (changes === 1) throw new Error('a cache exploded')
      })
      const watcher = new DbWatcher(ctx)
      watcher.start()
      touch(1)
      await eventually(async () => changes === 1)
      expect(lines.some((l) => l.includes('a cache exploded') && l.includes('goes on'))).toBe(true)
      touch(2)
      await eventually(async () => changes === 2)
      await watcher.stop()
      touch(3)
      // Ten intervals' worth of polling: the stopped watcher must stay silent.
      const until = Date.now() + 100
      await eventually(async () => Date.now() > until)
      expect(changes).toBe(2)
    } finally {
      other.close()
      db.$client.close()
      dir.remove()
    }
  })

  test('webhook deliverer: stop() waits for the attempt in flight, and nothing is sent after it', async () => {
    const receiver = startReceiver(hang)
    const s = await startTestServer(
      { callbackAllow: '127.0.0.1/32' },
      { webhooks: { timeoutMs: 60_000, pollIntervalMs: 20 } },
    )
    try {
      const exec = s.ctx.db
        .insert(executions)
        .values({
          id: crypto.randomUUID(),
          jobId: 'j',
          jobVersion: 1,
          status: 'succeeded',
          input: {},
          timeoutMs: 1000,
          requestId: 'r',
          baseUrl: s.url,
          queuedAt: new Date().toISOString(),
        })
        .returning()
        .get()
      for (let i = 0; i < 2; i++)
        enqueueStatusEvent(s.ctx.db, {
          url: `${receiver.url}/hook`,
          jobExecutionId: exec.id,
          executionId: exec.seq,
          eventType: 'execution_completed',
          payload: { status: 'succeeded' },
        })
      s.webhooks.notify()
      await receiver.received(1)
      let stopped = false
      const stopping = s.webhooks.stop().then(() => {
        stopped = true
      })
      await stopping
      expect(stopped).toBe(true)
      // The cut attempt goes back to the queue for the next start; the second event never left.
      const rows = s.ctx.db.select().from(webhookDeliveries).all()
      expect(rows.every((r) => r.status !== 'delivered')).toBe(true)
      s.webhooks.notify()
      await turns(20)
      expect(receiver.requests.length).toBe(1)
    } finally {
      await s.close()
      await receiver.stop()
    }
  })

  test('agent hub: after stop() a new agent socket is closed at once', async () => {
    const s = await startTestServer()
    try {
      await s.hub.stop()
      const closed: number[] = []
      s.hub.open({
        send() {},
        close: (code: number) => void closed.push(code),
      } as never)
      expect(closed.length).toBe(1)
    } finally {
      await s.close()
    }
  })
})

describe('SIGTERM under load (P21)', () => {
  const work = tempDir('deskhook-sigterm-')
  const runners: FakeRunner[] = []
  afterAll(() => {
    for (const r of runners) r.close()
    work.remove()
  })

  test('no execution that got a 202 is lost, and the server exits cleanly', async () => {
    const dataDir = join(work.path, 'data')
    let server = await startServerProcess(dataDir, ['--watch-interval', '20'])
    const key = server.initialKey
    const file = join(work.path, 'job.json')
    writeFileSync(
      file,
      JSON.stringify({
        format: 'deskhook.job',
        version: 1,
        method: 'POST',
        path: '/work',
        prompt: 'Do work',
        automation: noopAutomation(2),
        samples: [],
      }),
    )
    expect((await cli(['jobs', 'import', file, '--live', '--data', dataDir])).code).toBe(0)
    const token = JSON.parse((await cli(['desktops', 'token', '--json', '--data', dataDir])).stdout).token
    runners.push(await FakeRunner.connect(server.url, { token }, {}, 'desk'))
    const headers = { 'x-api-key': key, 'content-type': 'application/json' }
    await eventually(
      async () =>
        (await fetch(`${server.url}/work?async=1`, { method: 'POST', headers, body: '{}' })).status === 202,
    )

    // Load: waves of async calls; SIGTERM lands in the middle of them.
    const accepted: string[] = []
    const refused: number[] = []
    const fire = async () => {
      try {
        const res = await fetch(`${server.url}/work?async=1`, { method: 'POST', headers, body: '{}' })
        if (res.status === 202) accepted.push((await res.json()).jobExecutionId)
        else refused.push(res.status)
      } catch {
        refused.push(0) // connection refused or closed: never accepted
      }
    }
    // Waves of concurrent calls until the server is gone: SIGTERM lands in the middle of them.
    let exited = false
    void server.proc.exited.then(() => {
      exited = true
    })
    const load = (async () => {
      while (!exited) await Promise.all(Array.from({ length: 10 }, fire))
    })()
    await eventually(async () => accepted.length >= 20)
    server.proc.kill('SIGTERM')
    await load
    expect(await server.proc.exited).toBe(0)
    // Calls after SIGTERM were refused (503 or no connection), never answered with another 5xx.
    expect(refused.length).toBeGreaterThan(0)
    for (const status of refused) expect([0, 503]).toContain(status)

    server = await startServerProcess(dataDir)
    try {
      for (const id of accepted) {
        const res = await fetch(`${server.url}/_executions/${id}`, { headers: { 'x-api-key': key } })
        expect(res.status).toBe(200)
      }
    } finally {
      server.proc.kill('SIGTERM')
      await server.proc.exited
    }
  }, 60_000)
})

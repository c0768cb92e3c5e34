import { afterEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { GroupCommitter } from '../../src/db/group-commit.ts'
import { migrate } from '../../src/db/migrate.ts'
import { executions, jobs, jobVersions } from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import type { RunOutcome } from '../../src/protocol/messages.ts'
import type { AgentHub, RunDispatch } from '../../src/runtime/agent-hub/index.ts'
import { ExecutionWaiters } from '../../src/runtime/execution-waiters.ts'
import { Scheduler } from '../../src/runtime/scheduler/index.ts'
import type { WebhookDeliverer } from '../../src/runtime/webhook-deliverer.ts'
import { eventually } from '../helpers/cli.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'

// The scheduler's unit of work in flight is a run's end being written: once an agent has reported,
// stop() must not resolve (and the database must not close) before that result is committed. A run
// still at its agent is not waited for: it stays `running`, and the next start recovers it.

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** Group commit whose waited-on writes can be held back, as a slow disk would hold a COMMIT. */
class HeldCommitter extends GroupCommitter {
  #gate: Promise<void> | undefined
  held = 0
  hold(gate: Promise<void>): void {
    this.#gate = gate
  }
  override run<T>(work: () => T, opts?: { singleStatement?: boolean }): Promise<T> {
    const gate = this.#gate
    if (!gate) return super.run(work, opts)
    this.held++
    return gate.then(() => super.run(work, opts))
  }
}

/** One online desktop whose runs end when the test says (an agent that has not reported yet). */
function fakeHub() {
  const runs: { dispatch: RunDispatch; outcome: ReturnType<typeof deferred<RunOutcome>> }[] = []
  const hub = {
    onlineDesktops: () => [{ id: 'desk-1', name: 'desk', busy: runs.length > 0 }],
    run(_desktopId: string, dispatch: RunDispatch) {
      const outcome = deferred<RunOutcome>()
      runs.push({ dispatch, outcome })
      return outcome.promise
    },
    cancel() {},
    acknowledge() {},
    setOrphanHandler() {},
    setResendHandler() {},
    busyRunOf: () => undefined,
  }
  return { hub: hub as unknown as AgentHub, runs }
}

const open: (() => void)[] = []
afterEach(() => {
  for (const close of open.splice(0)) close()
})

/** A live job with one queued call, on a context whose waited-on commits can be held. */
function harness() {
  const dir = tempDir()
  const db = openDatabase(dir.path)
  migrate(db.$client)
  const writes = new HeldCommitter(db)
  const ctx: AppContext = {
    ...createContext({
      config: loadConfig({ dataDir: dir.path }, {}),
      db,
      log: createLogger({ level: 'silent', format: 'json' }),
      clock: { now: () => new Date() },
    }),
    writes,
  }
  open.push(() => {
    db.$client.close()
    dir.remove()
  })
  const now = new Date().toISOString()
  db.insert(jobs)
    .values({
      id: 'job-1',
      method: 'POST',
      path: '/w',
      mode: 'live',
      prompt: 'Work',
      liveVersion: 1,
      createdAt: now,
      updatedAt: now,
    })
    .run()
  db.insert(jobVersions)
    .values({ jobId: 'job-1', version: 1, automation: noopAutomation(1), createdAt: now })
    .run()
  const id = Bun.randomUUIDv7()
  db.insert(executions)
    .values({
      id,
      jobId: 'job-1',
      jobVersion: 1,
      input: {},
      timeoutMs: 60_000,
      requestId: 'r',
      baseUrl: 'http://x',
      queuedAt: now,
    })
    .run()
  const status = () => db.select().from(executions).where(eq(executions.id, id)).get()!.status
  const webhooks = { notify() {} } as unknown as WebhookDeliverer
  return { ctx, writes, status, webhooks }
}

const succeeded = (): RunOutcome => ({
  status: 'succeeded',
  scenario: 'main',
  outcome: 'success',
  result: { done: true },
  startedAt: new Date().toISOString(),
  finishedAt: new Date().toISOString(),
})

describe('scheduler stop()', () => {
  test('waits for a reported run end to be committed before it resolves', async () => {
    const h = harness()
    const { hub, runs } = fakeHub()
    const scheduler = new Scheduler(h.ctx, hub, h.webhooks, new ExecutionWaiters())
    scheduler.start()
    await eventually(async () => runs.length === 1)
    expect(h.status()).toBe('running')

    // The agent reports; the commit that records it is held (a slow fsync).
    const commit = deferred()
    h.writes.hold(commit.promise)
    runs[0]!.outcome.resolve(succeeded())
    await eventually(async () => h.writes.held === 1)

    let stopped = false
    const stopping = scheduler.stop().then(() => {
      stopped = true
      // What stop() waited for is durable the moment it resolves.
      return h.status()
    })
    await turns(20)
    expect(stopped).toBe(false)
    expect(h.status()).toBe('running')
    commit.resolve()
    expect(await stopping).toBe('succeeded')
  })

  test('does not wait for a run still at its agent, and records nothing for it afterwards', async () => {
    const h = harness()
    const { hub, runs } = fakeHub()
    const scheduler = new Scheduler(h.ctx, hub, h.webhooks, new ExecutionWaiters())
    scheduler.start()
    await eventually(async () => runs.length === 1)
    await scheduler.stop()
    // Reported after stop (a shutdown artefact): the run stays `running` for the next start's recovery.
    runs[0]!.outcome.resolve(succeeded())
    await turns(20)
    h.ctx.writes.flush()
    expect(h.status()).toBe('running')
  })
})

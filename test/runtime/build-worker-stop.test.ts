import { afterEach, describe, expect, test } from 'bun:test'
import type { BuildIO, BuildResult } from '../../src/builder/contract.ts'
import { type ConfigFlags, loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { getBuild } from '../../src/modules/builds/service.ts'
import { teach } from '../../src/modules/teach/service.ts'
import type { AgentHub } from '../../src/runtime/agent-hub/index.ts'
import { BuildWorker } from '../../src/runtime/build-worker/index.ts'
import { eventually } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'

// A build in flight is stopped by aborting it: it returns at its next step and frees its desktop.
// stop() must wait for that (up to the shutdown timeout), or the database could close under it.

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** One online desktop that builds can hold; records who holds it. */
function fakeHub() {
  const held = new Map<string, string>()
  const hub = {
    onlineDesktops: () => [{ id: 'desk-1', name: 'desk', busy: false }],
    reserve(desktopId: string, owner: string) {
      if (held.has(desktopId)) return false
      held.set(desktopId, owner)
      return true
    },
    release(desktopId: string, owner: string) {
      if (held.get(desktopId) === owner) held.delete(desktopId)
    },
  }
  return { hub: hub as unknown as AgentHub, held }
}

const open: (() => void)[] = []
afterEach(() => {
  for (const close of open.splice(0)) close()
})

/** A context on a fresh database with one queued build (a teaching call's). */
function harness(flags: ConfigFlags = {}): { ctx: AppContext; buildId: string } {
  const dir = tempDir()
  const db = openDatabase(dir.path)
  migrate(db.$client)
  const ctx = createContext({
    config: loadConfig({ dataDir: dir.path, ...flags }, {}),
    db,
    log: createLogger({ level: 'silent', format: 'json' }),
    clock: { now: () => new Date() },
  })
  open.push(() => {
    db.$client.close()
    dir.remove()
  })
  const { response } = teach(ctx, {
    method: 'POST',
    path: '/customers',
    envelope: { teach: true, prompt: 'Add a customer' },
    input: { name: 'Ada' },
    http: { method: 'POST', path: '/customers', params: {}, headers: {} },
  })
  return { ctx, buildId: response.buildId }
}

/** A build whose current step (say, an agent call) ends only when the test says so. */
function heldBuild() {
  const started = deferred()
  const step = deferred()
  const seen = { returned: false }
  const build = async (_port: unknown, io: BuildIO): Promise<BuildResult> => {
    started.resolve()
    await step.promise
    // The next step: an aborted build stops here (asking anything throws BuildCancelled).
    await io.ask({ kind: 'map_field', text: 'Which field?', options: [], multiple: false })
    seen.returned = true
    return { ok: false, code: 'DESKTOP_ERROR', message: 'not reached' }
  }
  return { build, started, step, seen }
}

describe('build worker stop()', () => {
  test('waits for the build in flight to wind down (and free its desktop) before it resolves', async () => {
    const { ctx, buildId } = harness()
    const { hub, held } = fakeHub()
    const b = heldBuild()
    const worker = new BuildWorker(ctx, hub, b.build)
    worker.start()
    await b.started.promise
    expect(held.get('desk-1')).toBe(buildId)

    let stopped = false
    const stopping = worker.stop().then(() => {
      stopped = true
      return held.size
    })
    await turns(20)
    expect(stopped).toBe(false)
    expect(held.get('desk-1')).toBe(buildId)

    b.step.resolve()
    // Resolved only after the build returned and released the desktop.
    expect(await stopping).toBe(0)
    expect(b.seen.returned).toBe(false)
    // Not failed: an interrupted build is queued again at the next start.
    expect(getBuild(ctx, buildId).status).not.toBe('failed')
  })

  test('a build stuck past the shutdown timeout is not waited for', async () => {
    const { ctx } = harness({ shutdownTimeoutMs: '0' })
    const { hub, held } = fakeHub()
    const b = heldBuild()
    const worker = new BuildWorker(ctx, hub, b.build)
    worker.start()
    await b.started.promise
    await worker.stop()
    // The step never ended, yet stop() returned (the next start re-queues the build).
    expect(held.size).toBe(1)
    // When the step does end, the aborted build still frees its desktop.
    b.step.resolve()
    await eventually(async () => held.size === 0)
    expect(b.seen.returned).toBe(false)
  })
})

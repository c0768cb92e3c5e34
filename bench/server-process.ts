import { join } from 'node:path'
import { tempDir } from '../test/helpers/temp-dir.ts'

/** What `deskhook-server.ts` reports once it listens, over the IPC channel. */
export interface DeskhookReady {
  kind: 'deskhook'
  url: string
  key: string
  /** A live POST job whose automation is three no-op steps. */
  jobPath: string
  /** One-time enrollment tokens, one per fake desktop the bench will connect. */
  tokens: string[]
}

/** What `baseline-server.ts` reports: a plain Bun.serve (POST → JSON, and a WebSocket echo on /ws). */
export interface BaselineReady {
  kind: 'baseline'
  url: string
}

export interface ChildServer<T> {
  ready: T
  pid: number
  stop(): Promise<void>
}

const TASKSET = Bun.which('taskset')
/** Server on core 0, load generator, agents and the bench itself on core 1 (as PERF-NOTES did). */
export const SERVER_CORE = 0
export const CLIENT_CORE = 1

export const canPin = (): boolean => TASKSET !== null && navigator.hardwareConcurrency >= 2

/** The argv prefix that runs a command on one core, or none where that is impossible. */
export function onCore(core: number): string[] {
  return canPin() && TASKSET ? [TASKSET, '-c', String(core)] : []
}

/** Moves this process (all its threads) to one core, so it never competes with the server. */
export function pinSelf(core: number): boolean {
  if (!canPin() || !TASKSET) return false
  return Bun.spawnSync([TASKSET, '-a', '-cp', String(core), String(process.pid)], { stdout: 'ignore' })
    .success
}

const READY_TIMEOUT_MS = 20_000
const STOP_TIMEOUT_MS = 10_000

async function spawnServer<T>(script: string, args: string[], logFile: string): Promise<ChildServer<T>> {
  const ready = Promise.withResolvers<T>()
  const proc = Bun.spawn([...onCore(SERVER_CORE), process.execPath, join(import.meta.dir, script), ...args], {
    stdin: 'ignore',
    stdout: Bun.file(logFile),
    stderr: 'inherit',
    ipc: (message) => ready.resolve(message as T),
  })
  void proc.exited.then((code) => ready.reject(new Error(`${script} exited (${code}) before it was ready`)))
  const timer = setTimeout(
    () => ready.reject(new Error(`${script} was not ready within ${READY_TIMEOUT_MS} ms`)),
    READY_TIMEOUT_MS,
  )
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return
    proc.kill('SIGTERM')
    const exited = await Promise.race([
      proc.exited.then(() => true),
      Bun.sleep(STOP_TIMEOUT_MS).then(() => false),
    ])
    if (!exited) {
      proc.kill('SIGKILL')
      await proc.exited
    }
  }
  try {
    return { ready: await ready.promise, pid: proc.pid, stop }
  } catch (err) {
    await stop()
    throw err
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A real deskhook server in its own process over a fresh data dir on disk (synchronous=FULL, the
 * default), logging at the default level to a file the way a service would to its journal.
 */
export async function startDeskhook(tokens: number): Promise<ChildServer<DeskhookReady>> {
  const dir = tempDir('deskhook-bench-')
  try {
    const child = await spawnServer<DeskhookReady>(
      'deskhook-server.ts',
      [dir.path, String(tokens)],
      join(dir.path, 'server.log'),
    )
    return {
      ...child,
      async stop() {
        await child.stop()
        dir.remove()
      },
    }
  } catch (err) {
    dir.remove()
    throw err
  }
}

export async function startBaseline(): Promise<ChildServer<BaselineReady>> {
  return spawnServer<BaselineReady>('baseline-server.ts', [], '/dev/null')
}

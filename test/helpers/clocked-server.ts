import { loadConfig } from '../../src/config/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { startServer } from '../../src/server.ts'
import { tempDir } from './temp-dir.ts'

/** A clock the test moves by hand: rate buckets and expiries without real sleeps. */
export function fakeClock(start = Date.parse('2026-11-23T12:00:00.000Z')) {
  let t = start
  return {
    now: () => new Date(t),
    set: (ms: number) => {
      t = ms
    },
    advance: (ms: number) => {
      t += ms
    },
    get ms() {
      return t
    },
  }
}

/** The real server on a temp data dir, but on the given clock. */
export async function startClockedServer(clock: ReturnType<typeof fakeClock>) {
  const dir = tempDir()
  const config = loadConfig({ port: 0, host: '127.0.0.1', dataDir: dir.path, logLevel: 'silent' }, {})
  const log = createLogger({ level: 'silent', format: 'json' })
  const server = await startServer(config, { log, clock })
  const key = server.initialKey?.key ?? ''
  return {
    ...server,
    key,
    call: (path: string, k: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, { ...init, headers: { ...init.headers, 'x-api-key': k } }),
    async close() {
      await server.stop()
      dir.remove()
    },
  }
}

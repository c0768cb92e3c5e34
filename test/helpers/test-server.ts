import { type ConfigFlags, loadConfig } from '../../src/config/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import type { DelivererOptions } from '../../src/runtime/webhook-deliverer.ts'
import { type RunningServer, startServer } from '../../src/server.ts'
import { tempDir } from './temp-dir.ts'

export interface TestServer extends RunningServer {
  dataDir: string
  /** The key the first start created. */
  key: string
  /** fetch against the server, with the key unless `key: null` or another key is given. */
  call(path: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<Response>
  close(): Promise<void>
}

/**
 * The one harness: a real server on a random port over a real SQLite file in a fresh temp dir.
 * Logs are kept in memory (silent unless DESKHOOK_TEST_LOGS=1) so a test can assert on them.
 */
export async function startTestServer(
  flags: ConfigFlags = {},
  opts: { dataDir?: string; webhooks?: Partial<DelivererOptions> } = {},
): Promise<TestServer & { logs: string[] }> {
  const dir = opts.dataDir ? { path: opts.dataDir, remove() {} } : tempDir()
  const config = loadConfig({ port: 0, host: '127.0.0.1', dataDir: dir.path, logLevel: 'info', ...flags }, {})
  const logs: string[] = []
  const destination = {
    write(line: string) {
      logs.push(line)
      if (process.env.DESKHOOK_TEST_LOGS) process.stderr.write(line)
      return true
    },
  } as unknown as NodeJS.WritableStream
  const log = createLogger({ level: config.logLevel, format: 'json', destination })
  const server = await startServer(config, { log, webhooks: opts.webhooks })
  const key = server.initialKey?.key ?? ''
  return {
    ...server,
    logs,
    dataDir: dir.path,
    key,
    call(path, init = {}) {
      const { key: k, json, ...rest } = init
      const headers = new Headers(rest.headers)
      const useKey = k === undefined ? key : k
      if (useKey !== null) headers.set('x-api-key', useKey)
      if (json !== undefined) headers.set('content-type', 'application/json')
      return fetch(`${server.url}${path}`, {
        ...rest,
        headers,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
      })
    },
    async close() {
      await server.stop()
      dir.remove()
    },
  }
}

/** A teaching call body: the envelope plus the sample input. */
export function teachBody(envelope: Record<string, unknown>, sample: Record<string, unknown> = {}) {
  return { deskhook: { teach: true, ...envelope }, ...sample }
}

/**
 * Child process: a deskhook server as `deskhook serve` would run it, plus the fixtures the bench
 * needs (a live job, enrollment tokens), reported to the parent over IPC. Stops on SIGTERM.
 */
import { loadConfig } from '../src/config/index.ts'
import { failBuild, queuedBuilds } from '../src/modules/builds/lifecycle.ts'
import { createEnrollmentToken } from '../src/modules/desktops/service.ts'
import { startServer } from '../src/server.ts'
import { liveJob, noopAutomation } from '../test/helpers/live-job.ts'
import type { TestServer } from '../test/helpers/test-server.ts'
import type { DeskhookReady } from './server-process.ts'

const JOB_PATH = '/bench/orders'

const [dataDir, tokenArg = '0'] = process.argv.slice(2)
if (!dataDir) throw new Error('usage: deskhook-server.ts DATA_DIR [TOKENS]')

// The environment is ignored (`{}`) so a developer's DESKHOOK_* settings cannot skew the figures.
const config = loadConfig({ port: 0, host: '127.0.0.1', dataDir, logFormat: 'json' }, {})
const server = await startServer(config)
const key = server.initialKey?.key
if (!key) throw new Error('the fresh data dir produced no initial API key')

// liveJob (the tests' way to make a live job) needs only `ctx` and an authenticated `call`.
const harness: TestServer = {
  ...server,
  dataDir,
  key,
  call: (path, init = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(init.json ?? {}),
    }),
  close: () => server.stop(),
}
await liveJob(harness, 'POST', JOB_PATH, noopAutomation(3))
// The teaching call queued a build; the version above stands in for it. End it, so no builder
// ever holds a fake desktop (they answer runs, not driver calls).
for (const build of queuedBuilds(server.ctx))
  failBuild(server.ctx, build.id, { code: 'BENCH', message: 'The benchmark made this job live by hand' })
const tokens = Array.from({ length: Number(tokenArg) }, () => createEnrollmentToken(server.ctx).token)

const ready: DeskhookReady = { kind: 'deskhook', url: server.url, key, jobPath: JOB_PATH, tokens }
process.send?.(ready)

process.once('SIGTERM', async () => {
  await server.stop()
  process.exit(0)
})
// Never outlive the bench: if it dies, this process is re-parented and leaves too.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) process.exit(1)
}, 1000).unref()

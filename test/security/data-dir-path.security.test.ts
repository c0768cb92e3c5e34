import { afterEach, beforeEach, expect, setDefaultTimeout, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { DB_FILE } from '../../src/db/client.ts'
import { eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

setDefaultTimeout(30_000)

// Issue 23, N11: /_health and every 503 before authentication showed the data dir's absolute path.
let s: TestServer & { logs: string[] }
beforeEach(async () => {
  s = await startTestServer({ watchIntervalMs: 20 })
})
afterEach(() => s.close())

test('with the database file removed, health and every pre-auth 503 say why without the data dir path', async () => {
  rmSync(join(s.dataDir, DB_FILE))
  await eventually(async () => (await s.call('/_health', { key: null })).status === 503)
  const json = [
    await s.call('/_health', { key: null }),
    await s.call('/_jobs', { key: null }),
    await s.call('/orders', { key: null, method: 'POST', json: { a: 1 } }),
    await s.call('/_jobs', { key: 'dh_wrong' }),
  ]
  for (const res of json) {
    expect(res.status).toBe(503)
    const body = await res.text()
    expect(body).not.toContain(s.dataDir)
    expect(body).toContain('deskhook.db was removed')
  }
  const pages = [
    await s.call('/_/', { key: null }),
    await s.call('/_/sign-in', { key: null, method: 'POST', body: 'email=a%40b.c&password=x' }),
  ]
  for (const res of pages) {
    expect(res.status).toBe(503)
    expect(await res.text()).not.toContain(s.dataDir)
  }
  // The admin still learns where: the log line names the file.
  expect(s.logs.some((l) => l.includes(join(s.dataDir, DB_FILE)) && l.includes('removed'))).toBe(true)
})

test('health on a healthy server names no path either', async () => {
  const body = await (await s.call('/_health', { key: null })).text()
  expect(JSON.parse(body).db).toBe('ok')
  expect(body).not.toContain(s.dataDir)
})

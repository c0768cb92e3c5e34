import { afterEach, beforeEach, expect, setDefaultTimeout, test } from 'bun:test'
import { copyFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { DB_FILE } from '../../src/db/client.ts'
import { eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

// Real servers and processes: room for a busy CI machine.
setDefaultTimeout(30_000)

// Issue 9 item 12: /_health said ok while writes failed; a full disk made every call a 500; and a
// deleted database file was written on silently while the CLI wrote to a new one.
let s: TestServer & { logs: string[] }
beforeEach(async () => {
  s = await startTestServer({ watchIntervalMs: 20 })
})
afterEach(() => s.close())

const teach = (path: string) =>
  s.call(path, { method: 'POST', json: teachBody({ prompt: 'Create a note' }, { text: 'x'.repeat(20_000) }) })

test('a database that refuses writes (full): health 503 unwritable, calls 503 STORAGE_UNAVAILABLE with Retry-After', async () => {
  expect((await (await s.call('/_health')).json()).db).toBe('ok')
  const sqlite = s.ctx.db.$client
  const { page_count } = sqlite.query('PRAGMA page_count').get() as { page_count: number }
  // SQLite's own "database or disk is full" (SQLITE_FULL): no page beyond those it has now.
  sqlite.run(`PRAGMA max_page_count = ${page_count}`)
  const res = await teach('/notes')
  expect(res.status).toBe(503)
  expect(res.headers.get('retry-after')).toBe('30')
  expect((await res.json()).error.code).toBe('STORAGE_UNAVAILABLE')
  // Health writes too, and a small write may still fit: the failed write is what it reports.
  const health = await s.call('/_health')
  expect(health.status).toBe(503)
  expect(health.headers.get('retry-after')).toBe('30')
  expect((await health.json()).db).toBe('unwritable')
  // Room again: everything works, nothing was half-written.
  sqlite.run('PRAGMA max_page_count = 1073741823')
  expect((await teach('/notes')).status).toBe(202)
  expect((await s.call('/_health')).status).toBe(200)
})

for (const how of ['removed', 'replaced'] as const)
  test(`a database file ${how} under the server: calls refused with 503, health says why, one log line`, async () => {
    const file = join(s.dataDir, DB_FILE)
    if (how === 'removed') rmSync(file)
    else {
      copyFileSync(file, `${file}.copy`)
      renameSync(`${file}.copy`, file)
    }
    await eventually(async () => (await s.call('/_health')).status === 503)
    const health = await (await s.call('/_health')).json()
    expect(health.db).toBe('replaced')
    expect(health.reason).toContain(how)
    const res = await teach('/notes')
    expect(res.status).toBe(503)
    expect((await res.json()).error.code).toBe('STORAGE_UNAVAILABLE')
    expect((await s.call('/_jobs')).status).toBe(503)
    expect(s.logs.filter((l) => l.includes('refusing calls with 503'))).toHaveLength(1)
  })

import { Database } from 'bun:sqlite'
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DB_FILE } from '../../src/db/client.ts'
import { cli } from '../helpers/cli.ts'
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, teachBody } from '../helpers/test-server.ts'

// Issue 23, N14 and N15: start-up and CLI failures print one line saying what to do (no stack),
// exit non-zero, and leave nothing behind that nobody can see (a first key never printed).
setDefaultTimeout(60_000)

const work = tempDir('deskhook-start-failures-')
let n = 0
const freshDir = () => join(work.path, `d${++n}`)
const running: ServerProcess[] = []
afterEach(async () => {
  for (const p of running.splice(0)) {
    p.proc.kill()
    await p.proc.exited
  }
})
afterAll(() => work.remove())

/** No stack: no "    at f (file:line)" lines, no Bun source excerpt. */
const expectOneLine = (stderr: string) => {
  expect(stderr).not.toMatch(/^\s+at /m)
  expect(stderr).not.toMatch(/^\d+ \| /m)
  expect(stderr.trim().split('\n')).toHaveLength(1)
}
const keyCount = (dir: string) => {
  const db = new Database(join(dir, DB_FILE), { readonly: true })
  try {
    return (db.query('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('serve on a port another program holds', () => {
  test('one line naming the port and the flag, exit 1, and no first key made; the next start prints it', async () => {
    const other = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('not deskhook') })
    const dir = freshDir()
    try {
      const r = await cli(['serve', '--port', String(other.port), '--host', '127.0.0.1', '--data', dir])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(
        `cannot listen on 127.0.0.1:${other.port}: another program is using the port`,
      )
      expect(r.stderr).toContain('--port')
      expectOneLine(r.stderr)
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/dh_[0-9A-Za-z]{20}/)
      expect(keyCount(dir)).toBe(0)
      // The lock went with it: the next start on a free port is the first start, key printed once.
      const p = await startServerProcess(dir)
      running.push(p)
      expect(p.initialKey).toMatch(/^dh_/)
      expect((await fetch(`${p.url}/_jobs`, { headers: { 'x-api-key': p.initialKey } })).status).toBe(200)
    } finally {
      other.stop(true)
    }
  })
})

describe('a data dir whose database is not deskhook’s (N15)', () => {
  const cases: [string, (file: string) => void, string][] = [
    ['an empty (0-byte) deskhook.db', (file) => writeFileSync(file, ''), 'is empty (0 bytes)'],
    [
      'a deskhook.db of garbage bytes',
      (file) => writeFileSync(file, Buffer.alloc(8192, 0x5a)),
      'is not a readable SQLite database',
    ],
    [
      'another program’s SQLite database',
      (file) => {
        const db = new Database(file, { create: true })
        db.run('CREATE TABLE invoices (id INTEGER PRIMARY KEY)')
        db.close()
      },
      'is not a deskhook database',
    ],
  ]
  for (const [what, make, says] of cases)
    test(`${what}: serve and the CLI refuse with what to do; the file is untouched, no key made`, async () => {
      const dir = freshDir()
      mkdirSync(dir, { recursive: true })
      const file = join(dir, DB_FILE)
      make(file)
      const before = statSync(file).size
      for (const args of [
        ['serve', '--port', '0', '--host', '127.0.0.1', '--data', dir],
        ['keys', 'list', '--data', dir],
      ]) {
        const r = await cli(args)
        expect(r.code).toBe(1)
        expect(r.stderr).toContain(says)
        expect(r.stderr).toContain('deskhook restore')
        expect(r.stderr).toContain(`move ${file} away`)
        expectOneLine(r.stderr)
        expect(`${r.stdout}`).not.toMatch(/dh_[0-9A-Za-z]{20}|setup\?token=/)
      }
      expect(statSync(file).size).toBe(before)
      expect(readdirSync(dir).filter((f) => f.startsWith(DB_FILE))).toEqual([DB_FILE])
    })
})

describe('deskhook backup --out', () => {
  test('a folder: the archive goes into it under the usual name; a folder that is not there: one line', async () => {
    const dir = freshDir()
    expect((await cli(['keys', 'create', '--name', 'k', '--data', dir])).code).toBe(0)
    const out = join(work.path, `out${n}`)
    mkdirSync(out)
    const r = await cli(['backup', '--data', dir, '--out', out])
    expect(r.stderr).not.toMatch(/^\s+at /m)
    expect(r.code).toBe(0)
    expect(readdirSync(out)).toEqual([expect.stringMatching(/^deskhook-backup-\d{8}-\d{6}\.tar\.gz$/)])
    const missing = await cli(['backup', '--data', dir, '--out', join(work.path, 'nope', 'b.tar.gz')])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain(`The folder ${join(work.path, 'nope')} for the archive does not exist`)
    expectOneLine(missing.stderr)
  })
})

describe('a damaged builds row', () => {
  test('is set aside (failed, BUILD_UNREADABLE, logged), and the server starts and serves it', async () => {
    const dir = freshDir()
    const s = await startTestServer({}, { dataDir: dir })
    const taught = await s.call('/orders', { method: 'POST', json: teachBody({ prompt: 'Create an order' }) })
    expect(taught.status).toBe(202)
    const { buildId } = (await taught.json()) as { buildId: string }
    const key = s.key
    await s.stop()
    // As a crash mid-build with a damaged page would leave it, written with sqlite directly.
    const raw = new Database(join(dir, DB_FILE))
    raw.run("UPDATE builds SET status = 'exploring', progress = '[{\"at\": \"2025-01-0' WHERE id = ?", [
      buildId,
    ])
    raw.close()

    const p = await startServerProcess(dir)
    running.push(p)
    const build = await fetch(`${p.url}/_builds/${buildId}`, { headers: { 'x-api-key': key } })
    expect(build.status).toBe(200)
    expect(await build.json()).toMatchObject({
      status: 'failed',
      error: { code: 'BUILD_UNREADABLE' },
    })
    expect(p.output()).toContain(`"buildId":"${buildId}"`)
    expect(p.output()).toContain('could not be read')
    // The job is still there and can be taught again.
    expect((await fetch(`${p.url}/_jobs`, { headers: { 'x-api-key': key } })).status).toBe(200)
  })
})

import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/temp-dir.ts'

// Real servers and processes: room for a busy CI machine.
setDefaultTimeout(30_000)

// Issue 9 item 15: starting on a data dir that cannot be written printed a stack trace. Now one
// line names the directory and what is needed, and the exit code is 1. The permission case runs
// the server as the unprivileged user `nobody` (tests run as root, who may write anywhere).
const work = tempDir('deskhook-unusable-')
afterAll(() => work.remove())
const main = join(import.meta.dir, '../../src/main.ts')

async function serve(dataDir: string, asNobody = false) {
  const command = [process.execPath, main, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir]
  const p = Bun.spawn(asNobody ? ['runuser', '-u', 'nobody', '--', ...command] : command, {
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, DESKHOOK_LOG_FORMAT: 'json' },
  })
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited])
  return { stderr, code }
}

function oneLine(stderr: string, dir: string, why: string) {
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain(dir)
  expect(lines[0]).toContain(why)
  expect(lines[0]).toContain('--data')
  expect(stderr).not.toMatch(/\bat \S+|\.ts:\d+|errno|syscall/)
}

test('a data dir under a file: one line, exit 1', async () => {
  const file = join(work.path, 'not-a-dir')
  writeFileSync(file, 'x')
  const dir = join(file, 'data')
  const { stderr, code } = await serve(dir)
  expect(code).toBe(1)
  oneLine(stderr, dir, 'not a directory')
})

test('a data dir the user may not create or write: one line naming the permission, exit 1', async () => {
  const parent = join(work.path, 'root-only')
  mkdirSync(parent)
  chmodSync(work.path, 0o755)
  chmodSync(parent, 0o755)
  const dir = join(parent, 'data')
  const { stderr, code } = await serve(dir, true)
  expect(code).toBe(1)
  oneLine(stderr, dir, 'permission denied')
  // An existing data dir the user cannot write in: the same.
  mkdirSync(dir)
  const again = await serve(dir, true)
  expect(again.code).toBe(1)
  oneLine(again.stderr, dir, 'permission denied')
})

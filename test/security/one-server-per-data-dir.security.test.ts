import { afterAll, expect, test } from 'bun:test'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startServerProcess } from '../helpers/server-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'

// Issue 9 item 4: a second `serve` on the same data dir used to start silently and take calls
// that only a restart would run. Now it refuses, naming the running server's PID.
const MAIN = join(import.meta.dir, '../../src/main.ts')
const dir = tempDir('deskhook-lock-')
afterAll(() => dir.remove())

test('a second server on the same data dir exits 1 with one line naming the running PID', async () => {
  const first = await startServerProcess(dir.path)
  try {
    expect(readFileSync(join(dir.path, 'deskhook.lock'), 'utf8').trim()).toBe(String(first.proc.pid))
    const second = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--data', dir.path], {
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(await second.exited).toBe(1)
    const err = (await new Response(second.stderr).text()).trim()
    expect(err.split('\n')).toHaveLength(1)
    expect(err).toContain(`PID ${first.proc.pid}`)
    expect(err).toContain(dir.path)
    // The first one still answers.
    expect((await fetch(`${first.url}/_health`)).status).toBe(200)
  } finally {
    first.proc.kill('SIGTERM')
    await first.proc.exited
  }
  // A clean stop removes the lock; a lock left by a dead process is taken over.
  expect(existsSync(join(dir.path, 'deskhook.lock'))).toBe(false)
  writeFileSync(join(dir.path, 'deskhook.lock'), '999999999\n')
  const again = await startServerProcess(dir.path)
  expect(readFileSync(join(dir.path, 'deskhook.lock'), 'utf8').trim()).toBe(String(again.proc.pid))
  again.proc.kill('SIGTERM')
  await again.proc.exited
}, 60_000)

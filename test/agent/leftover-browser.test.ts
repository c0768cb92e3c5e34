// killLeftoverBrowser: a PID file is trusted only when its process is a browser on that very profile.
import { afterAll, expect, test } from 'bun:test'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultExecutablePath, killLeftoverBrowser } from '../../src/agent/drivers/browser/launch-browser.ts'
import { tempDir } from '../helpers/temp-dir.ts'

const state = tempDir('deskhook-pidfile-')
const profile = tempDir('deskhook-profile-')
const browser = Bun.spawn(
  [
    defaultExecutablePath(),
    '--headless',
    '--no-sandbox',
    `--user-data-dir=${profile.path}-other`,
    'about:blank',
  ],
  { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' },
)

afterAll(async () => {
  browser.kill('SIGKILL')
  await browser.exited
  state.remove()
  profile.remove()
})

/** Debian's chromium is a shell script that execs the browser: wait until the process is the browser. */
async function isBrowserNow(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const program = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? ''
    if (/chrom/i.test(program)) return true
    if (performance.now() > deadline) return false
    await Bun.sleep(20)
  }
}

test('a browser on another profile (even one whose path starts the same) is left alone; the recorded one is ended', async () => {
  expect(await isBrowserNow(browser.pid)).toBe(true)
  const pidFile = join(state.path, 'browser.pid')
  writeFileSync(pidFile, JSON.stringify({ pid: browser.pid, userDataDir: profile.path }))
  expect(killLeftoverBrowser(pidFile)).toBe(false)
  expect(browser.exitCode).toBeNull()
  expect(existsSync(pidFile)).toBe(false)
  writeFileSync(pidFile, JSON.stringify({ pid: browser.pid, userDataDir: `${profile.path}-other` }))
  expect(killLeftoverBrowser(pidFile)).toBe(true)
  await browser.exited
  expect(browser.signalCode).toBe('SIGKILL')
})

test('a missing or unreadable PID file kills nothing', () => {
  expect(killLeftoverBrowser(join(state.path, 'none.pid'))).toBe(false)
  const bad = join(state.path, 'bad.pid')
  writeFileSync(bad, 'not json')
  expect(killLeftoverBrowser(bad)).toBe(false)
})

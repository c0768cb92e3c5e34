// A launched browser dies with the process that launched it, even on kill -9: by the parent-death
// signal on Linux, and by the watchdog where that is not available.
import { afterAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../helpers/temp-dir.ts'

const dir = tempDir('deskhook-lifeline-')
const LAUNCHER = join(dir.path, 'launcher.ts')
const LAUNCH_BROWSER = join(import.meta.dir, '../../src/agent/drivers/browser/launch-browser.ts')
// A process that launches a browser, says its PID, and waits to be killed.
await Bun.write(
  LAUNCHER,
  `import { launchBrowser } from ${JSON.stringify(LAUNCH_BROWSER)}
const browser = await launchBrowser({ parentDeathSignal: process.argv[2] !== 'watchdog' })
console.log(browser.pid)
setInterval(() => {}, 1 << 30)
`,
)

afterAll(() => dir.remove())

/** Live (not zombie) processes of the browser's session (it is the session leader). */
function sessionMembers(sessionId: number): number[] {
  const members: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z' && Number(fields[3]) === sessionId) members.push(Number(entry))
    } catch {}
  }
  return members
}

async function goneWithin(sessionId: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  while (sessionMembers(sessionId).length > 0) {
    if (performance.now() > deadline) return false
    await Bun.sleep(50)
  }
  return true
}

for (const mode of ['parent-death signal', 'watchdog'] as const) {
  test(`kill -9 of the launcher takes the browser down (${mode})`, async () => {
    const launcher = Bun.spawn([process.execPath, LAUNCHER, mode === 'watchdog' ? 'watchdog' : 'pdeath'], {
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'ignore',
    })
    const reader = launcher.stdout.getReader()
    const { value } = await reader.read()
    const pid = Number(new TextDecoder().decode(value).trim())
    try {
      expect(pid).toBeGreaterThan(0)
      expect(sessionMembers(pid).length).toBeGreaterThan(0)
      launcher.kill('SIGKILL')
      await launcher.exited
      expect(await goneWithin(pid, 5_000)).toBe(true)
    } finally {
      // Never leave a browser behind, whatever happened above.
      try {
        process.kill(-pid, 'SIGKILL')
      } catch {}
    }
  }, 30_000)
}

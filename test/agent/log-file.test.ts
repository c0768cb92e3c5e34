import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultAgentLogFile, rollingLogFile } from '../../src/lib/log-file.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { startAgent } from '../helpers/agent-process.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer } from '../helpers/test-server.ts'

// The agent's log file (src/lib/log-file.ts): on Windows the agent is a GUI program without a
// console, so the file is where its log is (docs/windows.md, "The exe").

const dirs: { path: string; remove(): void }[] = []
afterAll(() => {
  for (const dir of dirs) dir.remove()
})
const dir = () => {
  const made = tempDir('deskhook-log-')
  dirs.push(made)
  return made.path
}

describe('the agent log file', () => {
  test('on Windows it is under %LOCALAPPDATA%\\deskhook\\logs; elsewhere stderr is the log', () => {
    expect(defaultAgentLogFile('win32', { LOCALAPPDATA: 'C:\\Users\\anna\\AppData\\Local' })).toBe(
      join('C:\\Users\\anna\\AppData\\Local', 'deskhook', 'logs', 'agent.log'),
    )
    expect(defaultAgentLogFile('win32', { USERPROFILE: 'C:\\Users\\anna' })).toBe(
      join('C:\\Users\\anna', 'AppData', 'Local', 'deskhook', 'logs', 'agent.log'),
    )
    expect(defaultAgentLogFile('linux', { LOCALAPPDATA: '/x' })).toBeUndefined()
  })

  test('it rolls over at its size and keeps only the newest files', async () => {
    const logs = join(dir(), 'logs')
    const log = await rollingLogFile(join(logs, 'agent.log'), { maxBytes: 2048, keep: 2 })
    expect(log.current()).toBe(join(logs, 'agent.1.log'))
    for (let i = 0; i < 40; i++) {
      log.stream.write(`${JSON.stringify({ level: 30, i, msg: 'x'.repeat(200) })}\n`)
      // Each line is on disk at once (sync); a roll happens between lines, as the agent logs them.
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    await eventually(async () => readdirSync(logs).length <= 3)
    await log.close()
    const files = readdirSync(logs).sort()
    // Rolled several times; the two before the current one are kept, the oldest removed.
    expect(files.length).toBe(3)
    expect(files).not.toContain('agent.1.log')
    const last = Number(/agent\.(\d+)\.log/.exec(files.at(-1)!)![1])
    expect(last).toBeGreaterThan(3)
    const lines = files.flatMap((f) => readFileSync(join(logs, f), 'utf8').trim().split('\n').filter(Boolean))
    expect(lines.map((l) => JSON.parse(l).i).at(-1)).toBe(39)
  })

  test('a real agent writes its JSON lines to --log-file, and says there why it stopped', async () => {
    const logs = join(dir(), 'logs')
    const bad = await cli(['agent', '--server', 'not-a-url', '--log-file', join(logs, 'agent.log')])
    expect(bad.code).toBe(2)
    const [file] = readdirSync(logs)
    const stopped = readFileSync(join(logs, file!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(
      stopped.some((l) => l.msg === 'invalid agent options' && /--server must be/.test(l.problems[0])),
    ).toBe(true)

    const server = await startTestServer()
    const runningLog = join(dir(), 'logs', 'agent.log')
    const agent = startAgent({
      server: server.url,
      token: createEnrollmentToken(server.ctx).token,
      name: 'logged-pc',
      extraArgs: ['--log-file', runningLog],
    })
    try {
      // stderr gets the lines (it leads somewhere here)…
      await agent.waitForLog((l) => l.msg === 'online')
      // …and the file the same ones, each a JSON line.
      const text = await eventually(async () => {
        const folder = join(runningLog, '..')
        const all = readdirSync(folder)
          .map((f) => readFileSync(join(folder, f), 'utf8'))
          .join('')
        return /"msg":"online"/.test(all) ? all : undefined
      })
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string })
      expect(lines.map((l) => l.msg)).toContain('enrolled; credential saved')
    } finally {
      await agent.cleanup()
      await server.close()
    }
  }, 40_000)
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Issue 9 item 16: the enrollment token need not be an argument (visible in `ps`).
let s: TestServer
const agents: AgentProcess[] = []
const dir = tempDir('deskhook-token-')
beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 200 })
})
afterAll(async () => {
  for (const a of agents) await a.cleanup()
  await s?.close()
  dir.remove()
})

const argvOf = (pid: number) => Bun.file(`/proc/${pid}/cmdline`).text()

describe('the agent takes its enrollment token without putting it on the command line', () => {
  test('--token-file: enrolls, and the token is not in the process arguments', async () => {
    const { token } = createEnrollmentToken(s.ctx)
    const file = join(dir.path, 'token')
    writeFileSync(file, `${token}\n`, { mode: 0o600 })
    const agent = startAgent({ server: s.url, name: 'file-token', extraArgs: ['--token-file', file] })
    agents.push(agent)
    expect((await agent.waitForLog((l) => l.msg === 'online', 30_000)).desktopId).toBeTruthy()
    expect(await argvOf(agent.proc.pid)).not.toContain(token)
  }, 40_000)

  test('DESKHOOK_TOKEN: enrolls, and the token is not in the process arguments', async () => {
    const { token } = createEnrollmentToken(s.ctx)
    const agent = startAgent({ server: s.url, name: 'env-token', env: { DESKHOOK_TOKEN: token } })
    agents.push(agent)
    expect((await agent.waitForLog((l) => l.msg === 'online', 30_000)).desktopId).toBeTruthy()
    expect(await argvOf(agent.proc.pid)).not.toContain(token)
  }, 40_000)

  test('an unreadable --token-file is a clear option error (exit 2)', async () => {
    const agent = startAgent({ server: s.url, extraArgs: ['--token-file', join(dir.path, 'missing')] })
    agents.push(agent)
    expect(await agent.exited).toBe(2)
    expect(agent.lines.join('\n')).toContain('--token-file')
  }, 20_000)
})

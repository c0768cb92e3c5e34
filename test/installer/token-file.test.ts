import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEnrollmentToken, enrollDesktop } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Issue 22 item 5: the installers start the agent with the same --token-file at every logon (the
// MSI's task, agent-installer/deskhook-agent.wxs); once the agent has its credential, deleting
// enroll-token.txt must not stop it starting.
let s: TestServer
const agents: AgentProcess[] = []
const dir = tempDir('deskhook-token-file-')
beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 1000 })
})
afterAll(async () => {
  for (const a of agents) await a.cleanup()
  await s?.close()
  dir.remove()
})

test('an enrolled agent starts and connects although its --token-file is gone', async () => {
  const { token } = createEnrollmentToken(s.ctx)
  const who = { name: 'front-desk', platform: 'linux', driver: 'browser', agentVersion: 'test' }
  const { desktop, secret } = enrollDesktop(s.ctx, token, who)
  const stateDir = join(dir.path, 'enrolled')
  mkdirSync(stateDir, { recursive: true })
  writeFileSync(
    join(stateDir, 'credential.json'),
    JSON.stringify({ server: s.url, desktopId: desktop.id, secret, name: desktop.name }),
  )
  const gone = join(dir.path, 'enroll-token.txt')
  expect(existsSync(gone)).toBe(false)
  const agent = startAgent({ server: s.url, stateDir, extraArgs: ['--token-file', gone] })
  agents.push(agent)
  expect((await agent.waitForLog((l) => l.msg === 'online', 30_000)).desktopId).toBe(desktop.id)
}, 40_000)

test('without a credential for that server, a missing --token-file is still an option error', async () => {
  const stateDir = join(dir.path, 'other-server')
  mkdirSync(stateDir, { recursive: true })
  // A credential for another server does not count.
  writeFileSync(
    join(stateDir, 'credential.json'),
    JSON.stringify({ server: 'http://elsewhere.lan:8080', desktopId: 'x', secret: 'dhd_x', name: 'x' }),
  )
  const agent = startAgent({
    server: s.url,
    stateDir,
    extraArgs: ['--token-file', join(dir.path, 'missing')],
  })
  agents.push(agent)
  expect(await agent.exited).toBe(2)
  expect(agent.lines.join('\n')).toContain('--token-file')
}, 20_000)

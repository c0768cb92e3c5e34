// One server and one real agent (Debian's Chromium) per gauntlet file, opened on the app under test.
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

export interface Rig {
  server: TestServer
  agent: AgentProcess
  stop(): Promise<void>
}

export async function startRig(startUrl: string, name = 'office-pc'): Promise<Rig> {
  const server = await startTestServer({ watchIntervalMs: 20 })
  const agent = startAgent({
    server: server.url,
    token: createEnrollmentToken(server.ctx).token,
    name,
    startUrl,
  })
  await agent.waitForLog((l) => l.msg === 'online', 60_000)
  return {
    server,
    agent,
    async stop() {
      await agent.cleanup()
      await server.close()
    },
  }
}

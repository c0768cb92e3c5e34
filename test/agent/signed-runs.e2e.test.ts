// P20: agents only run known automations. A real `deskhook agent` process runs what its server
// signed and refuses, logs and reports anything else: a run altered after signing, an unsigned
// run, a run signed with another key.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { ServerWebSocket } from 'bun'
import { listAudit } from '../../src/modules/audit/list.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { PROTOCOL_VERSION, type RunResult } from '../../src/protocol/messages.ts'
import { runSigningKey, type SignedRunFields, signRun } from '../../src/protocol/run-signature.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { eventually } from '../helpers/cli.ts'
import { liveJob } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

setDefaultTimeout(60_000)

/** Runs without touching an app: what matters here is whether the agent runs it at all. */
const empty: Automation = { version: 1, app: {}, steps: [], scenarios: [] }
const other: Automation = { ...empty, app: { url: 'https://elsewhere.example/' } }

const refusals = (agent: AgentProcess, runId: string) =>
  agent.waitForLog((l) => l.msg === 'run refused: not signed by the server' && l.runId === runId)

describe('an agent talking to a server that is not quite its own', () => {
  /** The desktop credential this "server" issues at enrollment; the agent derives its key from it. */
  const SECRET = 'dhd_signed-runs-test-credential-0123456789'
  let server: ReturnType<typeof Bun.serve>
  let agent: AgentProcess
  let socket: ServerWebSocket<unknown> | undefined
  const results = new Map<string, (r: RunResult) => void>()

  beforeAll(async () => {
    server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(request, srv) {
        if (new URL(request.url).pathname === '/_agent/ws' && srv.upgrade(request, { data: undefined }))
          return undefined
        return new Response('not found', { status: 404 })
      },
      websocket: {
        message(ws, data) {
          const msg = JSON.parse(String(data)) as { type: string; name?: string }
          if (msg.type === 'hello') {
            socket = ws
            ws.send(
              JSON.stringify({
                type: 'welcome',
                protocol: PROTOCOL_VERSION,
                desktopId: 'desk-1',
                name: msg.name,
                heartbeatIntervalMs: 60_000,
                credential: { desktopId: 'desk-1', secret: SECRET },
              }),
            )
          } else if (msg.type === 'heartbeat') ws.send(JSON.stringify({ type: 'heartbeat.ack' }))
          else if (msg.type === 'run.result') {
            const result = msg as RunResult
            ws.send(JSON.stringify({ type: 'run.ack', runId: result.runId }))
            results.get(result.runId)?.(result)
          }
        },
      },
    })
    agent = startAgent({ server: `http://127.0.0.1:${server.port}`, token: 'dhe_signed-runs-test-token' })
    await agent.waitForLog((l) => l.msg === 'online', 30_000)
  })

  afterAll(async () => {
    await agent?.cleanup()
    await server?.stop(true)
  })

  /** Sends a run (as built by `make`) and resolves with the agent's report of it. */
  let n = 0
  function send(
    make: (fields: SignedRunFields) => SignedRunFields & { signature?: string },
  ): Promise<RunResult> {
    const fields: SignedRunFields = {
      runId: `run-${++n}`,
      lease: `lease-${n}`,
      automation: empty,
      input: { customer: 'Ada' },
      timeoutMs: 30_000,
    }
    const reported = new Promise<RunResult>((resolve) => results.set(fields.runId, resolve))
    socket!.send(JSON.stringify({ type: 'run', ...make(fields) }))
    return reported
  }
  const key = runSigningKey(SECRET)

  test('a run signed with the key derived from its credential runs', async () => {
    const r = await send((f) => ({ ...f, signature: signRun(key, f) }))
    expect(r.outcome).toMatchObject({ status: 'succeeded' })
    expect(await agent.waitForLog((l) => l.msg === 'run started' && l.runId === r.runId)).toMatchObject({
      automationSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
  })

  test('an automation swapped after signing is refused, reported and logged', async () => {
    const r = await send((f) => ({ ...f, signature: signRun(key, f), automation: other }))
    expect(r.outcome).toMatchObject({ status: 'failed', error: { code: 'RUN_SIGNATURE_INVALID' } })
    expect(r.outcome.error?.message).toContain('does not match')
    expect(await refusals(agent, r.runId)).toMatchObject({
      reason: 'mismatch',
      code: 'RUN_SIGNATURE_INVALID',
    })
    // Refused before anything ran.
    expect(agent.lines.some((l) => l.includes('"run started"') && l.includes(`"${r.runId}"`))).toBe(false)
  })

  test('an input changed after signing is refused too', async () => {
    const r = await send((f) => ({ ...f, signature: signRun(key, f), input: { customer: 'Mallory' } }))
    expect(r.outcome.error?.code).toBe('RUN_SIGNATURE_INVALID')
    expect(await refusals(agent, r.runId)).toMatchObject({ reason: 'mismatch' })
  })

  test('a run without a signature is refused, reported and logged', async () => {
    const r = await send((f) => f)
    expect(r.outcome).toMatchObject({ status: 'failed', error: { code: 'RUN_SIGNATURE_INVALID' } })
    expect(r.outcome.error?.message).toContain('no signature')
    expect(await refusals(agent, r.runId)).toMatchObject({ reason: 'unsigned' })
  })

  test('a run signed with another key (someone without the credential) is refused', async () => {
    const forger = runSigningKey('dhd_a-guess-at-the-credential-000000000000')
    const r = await send((f) => ({ ...f, signature: signRun(forger, f) }))
    expect(r.outcome.error?.code).toBe('RUN_SIGNATURE_INVALID')
    expect(await refusals(agent, r.runId)).toMatchObject({ reason: 'mismatch' })
    // The agent is still there and still runs signed runs.
    const ok = await send((f) => ({ ...f, signature: signRun(key, f) }))
    expect(ok.outcome.status).toBe('succeeded')
  })
})

describe('with the real server', () => {
  let s: TestServer
  const state = tempDir('deskhook-agent-')
  let agent: AgentProcess | undefined

  beforeAll(async () => {
    s = await startTestServer({ heartbeatIntervalMs: 1000 })
    await liveJob(s, 'POST', '/signed', empty)
  })
  afterAll(async () => {
    await agent?.cleanup()
    await s?.close()
    state.remove()
  })

  async function online(token?: string) {
    const a = startAgent({ server: s.url, token, name: 'signed-desk', stateDir: state.path })
    const line = await a.waitForLog((l) => l.msg === 'online', 30_000)
    const desktopId = String(line.desktopId)
    await eventually(async () => s.hub.isOnline(desktopId))
    return a
  }

  /** A live call runs on the agent; its audit row holds the digest the agent logged for it. */
  async function callRuns(a: AgentProcess) {
    const before = listAudit(s.ctx, { action: 'execution.dispatched' }).length
    const res = await s.call('/signed', { method: 'POST', json: { customer: 'Ada' } })
    expect(res.status).toBe(200)
    // Calls go one at a time: the newest dispatch row is this call's.
    const dispatched = listAudit(s.ctx, { action: 'execution.dispatched' })
    expect(dispatched).toHaveLength(before + 1)
    const row = dispatched[0]!
    const started = await a.waitForLog((l) => l.msg === 'run started' && l.runId === row.target.id)
    expect(row.details.automationSha256).toBe(started.automationSha256)
  }

  test('runs signed by the hub run: after enrollment, and again after a restart on the credential', async () => {
    agent = await online(createEnrollmentToken(s.ctx).token)
    await callRuns(agent)
    await agent.kill()
    // No token now: the saved credential authenticates, and both ends derive the key from it.
    agent = await online()
    await callRuns(agent)
    expect(agent.lines.join('\n')).not.toContain('run refused')
  })
})

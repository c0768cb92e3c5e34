import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

/**
 * A job that signs in with stored secrets, run for real (server, agent process, Chromium) against
 * an app that echoes the password back: the value reaches the app, and nowhere else keeps it.
 */
const USER = 'opal-operator-7'
const PASSWORD = 'Zq8!vellum-Harbor-41'

const SIGN_IN_PAGE = `<!doctype html><html><head><title>Portal</title></head><body>
<main><h1>Portal</h1>
<form id="f"><label>User name <input id="u" name="u"></label>
<label>Password <input id="p" name="p" type="password"></label>
<button type="submit">Sign in</button></form>
<p id="out" role="status"></p></main>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault()
  const u = document.getElementById('u').value, p = document.getElementById('p').value
  document.getElementById('f').remove()
  document.getElementById('out').textContent = 'Welcome ' + u + ', your session key is ' + p + '-OK'
})
</script></body></html>`

let s: TestServer & { logs: string[] }
let app: ReturnType<typeof Bun.serve>
let agent: AgentProcess
let receiver: Receiver

const button = (name: string) => ({ fingerprints: [{ by: 'role' as const, role: 'button' as const, name }] })
const field = (name: string) => ({ fingerprints: [{ by: 'role' as const, role: 'textbox' as const, name }] })

function signIn(url: string): Automation {
  return {
    version: 1,
    app: { url },
    steps: [
      { kind: 'launch', name: 'Open the portal' },
      { kind: 'fill', name: 'Fill "User name"', target: field('User name'), value: '{{$secrets.username}}' },
      { kind: 'fill', name: 'Fill "Password"', target: field('Password'), value: '{{$secrets.password}}' },
      { kind: 'click', name: 'Click "Sign in"', target: button('Sign in') },
      {
        kind: 'wait',
        name: 'Wait for the welcome',
        until: { kind: 'text', text: 'Welcome', match: 'contains' },
      },
      {
        kind: 'read',
        name: 'Read the welcome',
        target: { fingerprints: [{ by: 'text', text: 'Welcome', match: 'contains' }] },
        into: 'greeting',
      },
    ],
    scenarios: [],
  }
}

/** Fails on a button named after the secrets: the error names the (rendered) selector. */
function failing(url: string): Automation {
  return {
    version: 1,
    app: { url },
    steps: [
      { kind: 'launch', name: 'Open the portal' },
      {
        kind: 'click',
        name: 'Click the account button',
        target: button('Continue as {{$secrets.username}} with {{$secrets.password}}'),
        timeoutMs: 1500,
      },
    ],
    scenarios: [],
  }
}

beforeAll(async () => {
  app = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response(SIGN_IN_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  })
  const url = `http://127.0.0.1:${app.port}/`
  receiver = startReceiver()
  s = await startTestServer({ callbackAllow: '127.0.0.1/32', logLevel: 'debug' })
  await liveJob(s, 'POST', '/portal/sign-in', signIn(url))
  await liveJob(s, 'POST', '/portal/broken', failing(url))
  for (const path of ['/portal/sign-in', '/portal/broken']) {
    setJobSecret(s.ctx, 'POST', path, 'username', USER)
    setJobSecret(s.ctx, 'POST', path, 'password', PASSWORD)
  }
  agent = startAgent({
    server: s.url,
    token: createEnrollmentToken(s.ctx).token,
    name: 'portal-pc',
    startUrl: url,
  })
  await agent.waitForLog((l) => l.msg === 'online', 30_000)
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
  await receiver?.stop()
  app?.stop(true)
})

/** Every file under the data dir (database, WAL, screenshots' names), as bytes. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
}

describe('a run that signs in with job secrets', () => {
  test('the app gets the values; results, replays, events, logs and the database never do', async () => {
    const ok = await s.call(`/portal/sign-in?callback_url=${encodeURIComponent(`${receiver.url}/ok`)}`, {
      method: 'POST',
      json: { ticket: 'T-1' },
    })
    const okBody = await ok.json()
    expect(ok.status).toBe(200)
    // The app saw the real values (it echoed them); the caller gets them masked.
    expect(okBody).toEqual({ greeting: 'Welcome •••, your session key is •••-OK' })

    const bad = await s.call(`/portal/broken?callback_url=${encodeURIComponent(`${receiver.url}/bad`)}`, {
      method: 'POST',
      json: {},
    })
    expect(bad.status).toBe(502)
    const badBody = await bad.json()
    expect(badBody.error.code).toBe('ELEMENT_NOT_FOUND')
    expect(badBody.error.message).toContain('Continue as ••• with •••')

    // Replays, as stored.
    for (const body of [okBody, badBody]) expect(JSON.stringify(body)).not.toContain(PASSWORD)
    const executions = s.ctx.db.$client.query<{ id: string }, []>('SELECT id FROM executions').all()
    expect(executions.length).toBe(2)
    for (const { id } of executions) {
      const replay = await (await s.call(`/_executions/${id}`)).text()
      expect(replay).not.toContain(PASSWORD)
      expect(replay).not.toContain(USER)
    }
    const steps = JSON.stringify(s.ctx.db.$client.query('SELECT result, error FROM execution_steps').all())
    expect(steps).toContain('•••')

    // Status events, as delivered.
    const events = await receiver.received(2 * 2 + 6 * 2 + 2, 15_000)
    expect(events.some((e) => e.body.includes('•••'))).toBe(true)
    for (const e of events) {
      expect(e.body).not.toContain(PASSWORD)
      expect(e.body).not.toContain(USER)
    }

    // Everything on disk: the database and its WAL (not checkpointed on purpose), screenshots.
    s.ctx.writes.flush()
    const hits = filesUnder(s.dataDir).filter((f) => {
      const bytes = readFileSync(f)
      return bytes.includes(Buffer.from(PASSWORD)) || bytes.includes(Buffer.from(USER))
    })
    expect(hits).toEqual([])
    expect(filesUnder(s.dataDir).some((f) => f.endsWith('deskhook.db-wal'))).toBe(true)

    // The server's logs (debug level) and the agent's.
    const logs = [...s.logs, ...agent.lines].join('\n')
    expect(logs.length).toBeGreaterThan(0)
    expect(logs).not.toContain(PASSWORD)
    expect(logs).not.toContain(USER)
  }, 90_000)
})

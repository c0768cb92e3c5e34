import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import jpeg from 'jpeg-js'
import type { DesktopPort } from '../../src/builder/contract.ts'
import { redactScreenshot } from '../../src/lib/redact-screenshot.ts'
import { runInputSecretTexts } from '../../src/lib/scrub-secrets.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { exportJob } from '../../src/modules/jobs/export-import.ts'
import { formatJobFile } from '../../src/modules/jobs/job-file.ts'
import { addJobVersion, getJob, promoteJob } from '../../src/modules/jobs/service.ts'
import {
  hasMaskedSecretInput,
  restoreSecretInputs,
  splitSecretInputs,
} from '../../src/modules/secrets/secret-inputs.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { watchSecretFills } from '../../src/runtime/build-worker/secret-fills.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

/**
 * A job whose `password` input is secret (taught with `deskhook.secrets`), run for real (server,
 * agent process, Chromium) against a sign-in page that echoes the password back: the app gets it,
 * and no record, log, event, export, journal or screenshot keeps it.
 */
const SAMPLE_PASSWORD = 'Sample-Pw-taught-1'
const PASSWORD = 'Kv3#larch-Meadow-88'

const SIGN_IN_PAGE = `<!doctype html><html><head><title>Portal</title>
<style>body{background:#fff;font:16px sans-serif} input{font-size:28px;width:420px;height:44px}</style></head><body>
<main><h1>Portal</h1>
<form id="f"><label>User name <input id="u" name="u"></label><br>
<label>Password <input id="p" name="p" type="password"></label><br>
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

const signIn = (url: string): Automation => ({
  version: 1,
  app: { url },
  steps: [
    { kind: 'launch', name: 'Open the portal' },
    { kind: 'fill', name: 'Fill "User name"', target: field('User name'), value: '{{user}}' },
    { kind: 'fill', name: 'Fill "Password"', target: field('Password'), value: '{{password}}' },
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
})

beforeAll(async () => {
  app = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response(SIGN_IN_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  })
  const url = `http://127.0.0.1:${app.port}/`
  receiver = startReceiver()
  s = await startTestServer({ callbackAllow: '127.0.0.1/32', logLevel: 'debug' })
  // Taught with its password marked secret; the builder's part is stood in for by a version.
  const taught = await s.call('/portal/sign-in', {
    method: 'POST',
    json: teachBody(
      { prompt: 'Sign in to the portal', secrets: ['password'] },
      { user: 'ada', password: SAMPLE_PASSWORD },
    ),
  })
  expect(taught.status).toBe(202)
  const { jobId } = await taught.json()
  addJobVersion(s.ctx, jobId, signIn(url))
  promoteJob(s.ctx, 'POST', '/portal/sign-in')
  expect(getJob(s.ctx, jobId)?.secretInputs).toEqual(['password'])
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

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
}

/** Mean and spread of a box's pixels (RGB averaged), inset so the box's own edge is left out. */
function boxStats(image: jpeg.UintArrRet, box: { x: number; y: number; width: number; height: number }) {
  let n = 0
  let sum = 0
  let min = 255
  let max = 0
  for (let y = Math.ceil(box.y) + 2; y < Math.floor(box.y + box.height) - 2; y++)
    for (let x = Math.ceil(box.x) + 2; x < Math.floor(box.x + box.width) - 2; x++) {
      const i = (y * image.width + x) * 4
      const v = (image.data[i]! + image.data[i + 1]! + image.data[i + 2]!) / 3
      n++
      sum += v
      min = Math.min(min, v)
      max = Math.max(max, v)
    }
  return { n, mean: sum / n, min, max }
}

describe('a secret input', () => {
  test('reaches the app and nothing else: records, events, logs, journal, export, screenshots', async () => {
    const res = await s.call(`/portal/sign-in?callback_url=${encodeURIComponent(`${receiver.url}/ok`)}`, {
      method: 'POST',
      json: { user: 'grace', password: PASSWORD },
    })
    const body = await res.json()
    expect(res.status).toBe(200)
    // The app saw the real value (it echoed it); the caller gets it masked.
    expect(body).toEqual({ greeting: 'Welcome grace, your session key is •••-OK' })
    const id = res.headers.get('x-job-execution-id')!

    // The execution record: input stored masked, replay without the value.
    const row = s.ctx.db.$client
      .query<{ input: string }, [string]>('SELECT input FROM executions WHERE id = ?')
      .get(id)!
    expect(JSON.parse(row.input)).toMatchObject({ user: 'grace', password: '•••' })
    const replay = await (await s.call(`/_executions/${id}`)).text()
    expect(replay).not.toContain(PASSWORD)

    // Status events, as delivered.
    const events = await receiver.received(2 + 6 * 2, 15_000)
    expect(events.length).toBeGreaterThan(0)
    for (const e of events) expect(e.body).not.toContain(PASSWORD)

    // The export names the secret input and masks the sample's value.
    const exported = formatJobFile(exportJob(s.ctx, 'POST', '/portal/sign-in'))
    expect(JSON.parse(exported).secretInputs).toEqual(['password'])
    expect(exported).not.toContain(SAMPLE_PASSWORD)
    expect(exported).not.toContain(PASSWORD)

    // Everything on disk: the database and its WAL, screenshots; the agent's state (journal).
    s.ctx.writes.flush()
    const files = [...filesUnder(s.dataDir), ...filesUnder(agent.stateDir)]
    expect(files.some((f) => f.endsWith('deskhook.db-wal'))).toBe(true)
    expect(files.filter((f) => readFileSync(f).includes(Buffer.from(PASSWORD)))).toEqual([])

    // The server's logs (debug level) and the agent's.
    const logs = [...s.logs, ...agent.lines].join('\n')
    expect(logs.length).toBeGreaterThan(0)
    expect(logs).not.toContain(PASSWORD)

    // The screenshot after the password was typed: the field is solid black, the page is not.
    const step = s.ctx.db.$client
      .query<{ screenshot: string | null; target: string | null }, [string]>(
        `SELECT s.screenshot, s.target FROM execution_steps s JOIN executions e ON e.seq = s.execution_seq
         WHERE e.id = ? AND s.flow_name = 'Fill "Password"'`,
      )
      .get(id)!
    expect(step.screenshot).toBeTruthy()
    const box = JSON.parse(step.target!)
    const image = jpeg.decode(readFileSync(join(s.dataDir, 'screenshots', id, step.screenshot!)), {
      useTArray: true,
      formatAsRGBA: true,
    })
    const field = boxStats(image, box)
    expect(field.n).toBeGreaterThan(100)
    expect(field.max).toBeLessThan(40)
    const page = boxStats(image, { x: 0, y: 0, width: image.width, height: image.height })
    expect(page.mean).toBeGreaterThan(150)
  }, 90_000)
})

describe('secret input pieces', () => {
  test('split masks the paths and restore puts the values back', () => {
    const input = {
      user: 'ada',
      password: 'pw-1234',
      login: { pin: 4321, other: 'x' },
      _http: { method: 'POST' },
    }
    const { masked, values } = splitSecretInputs(input, ['password', 'login.pin', 'absent', 'user.deeper'])
    expect(masked).toEqual({
      user: 'ada',
      password: '•••',
      login: { pin: '•••', other: 'x' },
      _http: { method: 'POST' },
    })
    expect(values).toEqual({ password: 'pw-1234', 'login.pin': 4321 })
    expect(input.password).toBe('pw-1234')
    expect(restoreSecretInputs(masked, values)).toEqual(input)
    expect(hasMaskedSecretInput(masked, ['login.pin'])).toBe(true)
    expect(hasMaskedSecretInput(input, ['login.pin'])).toBe(false)
    expect(splitSecretInputs(input, []).masked).toBe(input)
  })

  test('the agent finds the texts to hide in its run input', () => {
    expect(
      runInputSecretTexts({
        password: 'pw-1234',
        pin: 'ab',
        $secrets: { token: 'tok-9' },
        $secretInputs: ['password', 'pin'],
      }),
    ).toEqual(['tok-9', 'pw-1234'])
  })

  test('a redacted screenshot is black inside the box and untouched without one', () => {
    const width = 64
    const height = 32
    const data = new Uint8Array(width * height * 4).fill(255)
    const white = new Uint8Array(jpeg.encode({ width, height, data }, 90).data)
    expect(redactScreenshot(white, [])).toBe(white)
    expect(redactScreenshot(white, [{ x: 500, y: 500, width: 10, height: 10 }])).toBe(white)
    const out = jpeg.decode(redactScreenshot(white, [{ x: 10, y: 8, width: 30, height: 12 }]), {
      useTArray: true,
      formatAsRGBA: true,
    })
    expect(boxStats(out, { x: 10, y: 8, width: 30, height: 12 }).max).toBeLessThan(20)
    expect(boxStats(out, { x: 46, y: 0, width: 18, height: 32 }).min).toBeGreaterThan(230)
  })

  test('the builder typing a sample member into a password field makes it a secret input', async () => {
    const element = (ref: string, name: string, inputType?: string) => ({
      ref,
      role: 'textbox' as const,
      name,
      states: [],
      children: [],
      ...(inputType ? { inputType } : {}),
    })
    const acted: string[] = []
    const port = {
      name: 'fake',
      snapshot: async () => ({
        root: {
          ...element('r0', 'Portal'),
          role: 'window' as const,
          children: [element('r1', 'User'), element('r2', 'Password', 'password')],
        },
      }),
      act: async (_w: string, a: { kind: string; ref?: string }) => {
        acted.push(a.ref ?? '')
        return {}
      },
    } as unknown as DesktopPort
    const masking: Record<string, string> = {}
    const watched = watchSecretFills(
      port,
      { user: 'ada', creds: { pw: 'hunter-22' }, _http: { path: '/x' } },
      masking,
    )
    await watched.port.snapshot('w')
    await watched.port.act('w', { kind: 'fill', ref: 'r1', value: 'ada' })
    await watched.port.act('w', { kind: 'fill', ref: 'r2', value: 'hunter-22' })
    expect(acted).toEqual(['r1', 'r2'])
    expect(watched.found()).toEqual(['creds.pw'])
    expect(Object.values(masking)).toEqual(['hunter-22'])
  })

  test('a later teaching call adds secret inputs and never removes one', async () => {
    const teach = (secrets: string[] | undefined, path = '/portal/secret-merge') =>
      s.call(path, {
        method: 'POST',
        json: teachBody({ prompt: 'Merge', ...(secrets ? { secrets } : {}) }, { password: 'p', otp: '1' }),
      })
    const first = await (await teach(['password'])).json()
    await teach(['otp'])
    await teach(undefined)
    expect(getJob(s.ctx, first.jobId)?.secretInputs).toEqual(['password', 'otp'])
    const bad = await teach(['not a path!'])
    expect(bad.status).toBe(400)
  })
})

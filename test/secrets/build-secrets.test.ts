import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { getBuild } from '../../src/modules/builds/service.ts'
import { jobSecretNames, jobSecretValues, setJobSecret } from '../../src/modules/secrets/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { buildIO, withJobSecrets } from '../../src/runtime/build-worker/build-io.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/** The builder's side of secrets: verification runs get them, and nothing it says keeps them. */
const PASSWORD = 'Quill-Meadow-93!'
const USER = 'build-operator-2'

const PAGE = `<!doctype html><html><head><title>Portal</title></head><body>
<form id="f"><label>User name <input id="u"></label><label>Password <input id="p" type="password"></label>
<button type="submit">Sign in</button></form><p id="out" role="status"></p>
<script>document.getElementById('f').addEventListener('submit', (e) => { e.preventDefault()
document.getElementById('out').textContent = 'Hello ' + document.getElementById('u').value + ' / ' + document.getElementById('p').value
})</script></body></html>`

let s: TestServer
let app: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let jobId: string
let buildId: string

beforeAll(async () => {
  s = await startTestServer()
  app = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response(PAGE, { headers: { 'content-type': 'text/html' } }),
  })
  const res = await s.call('/portal/report', {
    method: 'POST',
    json: teachBody({ prompt: 'Get the report' }),
  })
  ;({ jobId, buildId } = await res.json())
  setJobSecret(s.ctx, 'POST', '/portal/report', 'password', PASSWORD)
  setJobSecret(s.ctx, 'POST', '/portal/report', 'username', USER)
  driver = new BrowserDriver()
  await driver.start()
}, 60_000)

afterAll(async () => {
  await driver?.stop()
  app?.stop(true)
  await s?.close()
})

describe('secrets in a build', () => {
  test('the builder is told the names; progress and questions are stored masked', async () => {
    expect(jobSecretNames(s.ctx, jobId)).toEqual(['password', 'username'])
    const io = buildIO(s.ctx, buildId, new AbortController().signal, jobSecretValues(s.ctx, jobId))
    io.progress('explore', `Filled “Password” with ${PASSWORD}`, { typed: PASSWORD, as: USER })
    void io.ask({
      kind: 'free_text',
      text: `Is ${USER} the right account?`,
      options: [{ value: PASSWORD, label: `Use ${PASSWORD}` }],
      multiple: false,
    })
    const build = getBuild(s.ctx, buildId)
    expect(build.progress.find((p) => p.stage === 'explore')).toMatchObject({
      message: 'Filled “Password” with •••',
      data: { typed: '•••', as: '•••' },
    })
    expect(build.question).toMatchObject({
      text: 'Is ••• the right account?',
      options: [{ value: '•••', label: 'Use •••' }],
    })
    const stored = JSON.stringify(s.ctx.db.$client.query('SELECT * FROM builds').all())
    expect(stored).not.toContain(PASSWORD)
    expect(stored).not.toContain(USER)
  })

  test('a verification run gets the values in its input and reports them masked', async () => {
    const automation: Automation = {
      version: 1,
      app: { url: `http://127.0.0.1:${app.port}/` },
      steps: [
        { kind: 'launch', name: 'Open' },
        {
          kind: 'fill',
          name: 'User',
          target: { fingerprints: [{ by: 'role', role: 'textbox', name: 'User name' }] },
          value: '{{$secrets.username}}',
        },
        {
          kind: 'fill',
          name: 'Password',
          target: { fingerprints: [{ by: 'role', role: 'textbox', name: 'Password' }] },
          value: '{{$secrets.password}}',
        },
        {
          kind: 'click',
          name: 'Sign in',
          target: { fingerprints: [{ by: 'role', role: 'button', name: 'Sign in' }] },
        },
        {
          kind: 'read',
          name: 'Read',
          target: { fingerprints: [{ by: 'text', text: 'Hello', match: 'contains' }] },
          into: 'hello',
        },
      ],
      scenarios: [],
    }
    const plain = localDesktop(driver)
    const port = withJobSecrets(plain, jobSecretValues(s.ctx, jobId))
    const outcome = await port.run(automation, { report: 'weekly' })
    expect(outcome.status).toBe('succeeded')
    // The app got the real values (it printed them); the builder sees them masked.
    expect(outcome.result).toEqual({ hello: 'Hello ••• / •••' })
    expect(JSON.stringify(outcome)).not.toContain(PASSWORD)
    // Without secrets the run has no $secrets to fill from: proof the wrapper supplied them.
    const bare = await plain.run(automation, { report: 'weekly' })
    expect(bare.status).toBe('failed')
    expect(bare.error?.code).toBe('INPUT_MISSING')
  }, 60_000)
})

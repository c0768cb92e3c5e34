import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { type Backoffice, startBackoffice } from '../../fixtures/backoffice/server.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { scriptedIO } from '../scripted-io.ts'

// Credentials stored just after the first teaching call reach a build that has already begun on a
// signed-in browser: the build still learns the sign-in (signing out before it composes), so the
// job's runs get past the form once the app's sessions end (real Chromium, the back office).
let app: Backoffice
let driver: BrowserDriver

beforeAll(async () => {
  app = startBackoffice({ today: '2026-11-23' })
  driver = new BrowserDriver()
  await driver.start()
}, 60_000)

afterAll(async () => {
  await driver?.stop()
  await app?.stop()
})

/** A person signing the desktop's browser in by hand (an earlier build's session, still alive). */
async function signInByHand(): Promise<void> {
  const window = await driver.launch({ url: app.url })
  const { root } = await driver.snapshot(window.id)
  const all: UiElement[] = []
  const visit = (e: UiElement) => {
    all.push(e)
    e.children.forEach(visit)
  }
  visit(root)
  const ref = (role: string, name: string) => all.find((e) => e.role === role && e.name === name)!.ref
  await driver.act(window.id, { kind: 'fill', ref: ref('textbox', 'User name'), value: app.username })
  await driver.act(window.id, { kind: 'fill', ref: ref('textbox', 'Password'), value: app.password })
  await driver.act(window.id, { kind: 'click', ref: ref('button', 'Sign in') })
}

describe('credentials that arrive while the build runs', () => {
  test('the build signs out before composing and keeps the sign-in as the prelude; runs sign in again', async () => {
    await signInByHand()
    // The build's request carries the job's live secrets, filled in place when they are stored.
    const secretNames: string[] = []
    const secrets: Record<string, string> = {}
    const desktop = localDesktop(driver)
    const port = {
      ...desktop,
      // Stored once the build has located the app (it began signed in, with no credentials).
      launch: async (spec: Parameters<typeof desktop.launch>[0]) => {
        if (!secretNames.length) {
          secretNames.push('username', 'password')
          Object.assign(secrets, { username: app.username, password: app.password })
        }
        return desktop.launch(spec)
      },
    }
    const script = scriptedIO()
    const built = await buildAutomation(port, script.io, {
      previous: [],
      secretNames,
      secrets,
      prompt: 'Register leave for an employee',
      sample: {
        id: 's1',
        input: {
          employee: 'Ada Lovelace',
          firstDay: '2026-12-21',
          lastDay: '2026-12-24',
          paid: true,
          halfDay: false,
        },
      },
    })
    if (!built.ok) throw new Error(`${built.code}: ${built.message}\n${script.lines.join('\n')}`)
    expect(script.lines.join('\n')).toContain('arrived after the build began signed in')
    expect(built.automation.signIn?.steps.map((s) => s.name)).toEqual([
      'Sign in: fill “User name”',
      'Sign in: fill “Password”',
      'Sign in: click “Sign in”',
    ])
    app.expireSessions()
    const before = app.signIns()
    const run = await desktop.run(built.automation, {
      employee: 'Alan Turing',
      firstDay: '2027-02-01',
      lastDay: '2027-02-05',
      paid: true,
      halfDay: false,
      $secrets: { ...secrets },
    })
    if (run.status !== 'succeeded') throw new Error(JSON.stringify(run, null, 1))
    expect(app.signIns()).toBe(before + 1)
  }, 240_000)
})

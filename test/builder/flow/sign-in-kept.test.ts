import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { runAutomation } from '../../../src/automation/index.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import type { Automation } from '../../../src/protocol/automation.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { type Backoffice, startBackoffice } from '../../fixtures/backoffice/server.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { scriptedIO } from '../scripted-io.ts'

// Sign-in is part of the job (issue 21, item 3), with real Chromium and the back office's real
// sessions: a build of a job with credentials on a browser that is still signed in signs it out
// first and keeps the sign-in as the automation's prelude; runs sign in again after the app's
// sessions end, before the first step or between two steps; a run without credentials says so.
let app: Backoffice
let driver: BrowserDriver
let automation: Automation

const secrets = () => ({ username: app.username, password: app.password })
const leave = {
  employee: 'Alan Turing',
  firstDay: '2027-02-01',
  lastDay: '2027-02-05',
  paid: true,
  halfDay: false,
}

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

beforeAll(async () => {
  app = startBackoffice({ today: '2026-11-23' })
  driver = new BrowserDriver()
  await driver.start()
  await signInByHand()
  const script = scriptedIO()
  const built = await buildAutomation(localDesktop(driver), script.io, {
    previous: [],
    secretNames: ['username', 'password'],
    secrets: secrets(),
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
  expect(script.lines.join('\n')).toContain('signed out of')
  automation = built.automation
}, 240_000)

afterAll(async () => {
  await driver?.stop()
  await app?.stop()
})

const names = (run: { steps: { flowName: string; status: string }[] }) =>
  run.steps.map((s) => `${s.status} ${s.flowName}`)

describe('sign-in kept in the job (back office, real Chromium)', () => {
  test('a build on a signed-in browser still learns the sign-in, as a prelude holding secret names only', () => {
    expect(app.data.leaves).toHaveLength(1)
    expect(automation.signIn?.steps.map((s) => s.name)).toEqual([
      'Sign in: fill “User name”',
      'Sign in: fill “Password”',
      'Sign in: click “Sign in”',
    ])
    expect(automation.signIn?.when.kind).toBe('appears')
    expect(automation.steps.some((s) => s.name.startsWith('Sign in'))).toBe(false)
    const json = JSON.stringify(automation)
    expect(json).toContain('{{$secrets.password}}')
    expect(json).toContain('{{$secrets.username}}')
    expect(json).not.toContain(app.password)
  })

  test('after the app’s sessions end, a run signs in before its first step and succeeds', async () => {
    app.expireSessions()
    const before = app.signIns()
    const run = await localDesktop(driver).run(automation, { ...leave, $secrets: secrets() })
    if (run.status !== 'succeeded') throw new Error(JSON.stringify(run, null, 1))
    expect(app.signIns()).toBe(before + 1)
    expect(names(run).slice(1, 4)).toEqual([
      'SUCCESS Sign in: fill “User name”',
      'SUCCESS Sign in: fill “Password”',
      'SUCCESS Sign in: click “Sign in”',
    ])
    expect(app.data.leaves.at(-1)).toMatchObject({
      employee: 'Alan Turing',
      from: '2027-02-01',
      to: '2027-02-05',
    })
  }, 60_000)

  test('a session that ends between two steps: the run signs in again mid-way and succeeds', async () => {
    const before = app.signIns()
    const count = app.data.leaves.length
    // The app ends its sessions just after the run opened it (the run looked: still signed in).
    const run = await runAutomation(
      driver,
      automation,
      { ...leave, employee: 'Grace Hopper', $secrets: secrets() },
      {
        onStepFinished: (step) => {
          if (step.executionOrder === 1) app.expireSessions()
        },
      },
      { screenshots: false },
    )
    if (run.status !== 'succeeded')
      throw new Error(JSON.stringify({ error: run.error, steps: names(run) }, null, 1))
    expect(app.signIns()).toBe(before + 1)
    const trail = names(run)
    const skipped = trail.findIndex((s) => s.startsWith('SKIPPED'))
    expect(skipped).toBeGreaterThan(1)
    expect(trail.slice(skipped + 1, skipped + 4)).toEqual([
      'SUCCESS Sign in: fill “User name”',
      'SUCCESS Sign in: fill “Password”',
      'SUCCESS Sign in: click “Sign in”',
    ])
    expect(run.steps[skipped]?.result).toEqual({ skipped: expect.stringContaining('sign-in form') })
    expect(app.data.leaves).toHaveLength(count + 1)
    expect(app.data.leaves.at(-1)).toMatchObject({ employee: 'Grace Hopper' })
  }, 60_000)

  test('without the job’s credentials a run meeting the sign-in form fails SIGN_IN_REQUIRED', async () => {
    app.expireSessions()
    const count = app.data.leaves.length
    const run = await localDesktop(driver).run(automation, { ...leave })
    expect(run.status).toBe('failed')
    expect(run.error?.code).toBe('SIGN_IN_REQUIRED')
    expect(run.error?.message).toContain('deskhook jobs secret set')
    expect(app.data.leaves).toHaveLength(count)
  }, 60_000)
})

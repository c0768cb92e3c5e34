import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { Agent } from '../../../src/agent/agent.ts'
import { HelperHost } from '../../../src/agent/drivers/native/helper-host.ts'
import { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import { UIA_PROFILE } from '../../../src/agent/drivers/windows/roles.ts'
import { StateStore } from '../../../src/agent/state-store.ts'
import { runAutomation } from '../../../src/automation/runner.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import { createEnrollmentToken } from '../../../src/modules/desktops/service.ts'
import type { Automation, Fingerprint } from '../../../src/protocol/automation.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import { eventually } from '../../helpers/cli.ts'
import { signIn } from '../../helpers/dashboard.ts'
import { FAKE_SESSION_COMMAND, FAKE_UIA_HELPER } from '../../helpers/fake-uia-helper.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { startTestServer } from '../../helpers/test-server.ts'

// A locked, disconnected or secure-desktop Windows session (docs/windows.md). The fake helper
// stands for Windows and its UI Automation helper, which cannot run here: told a state with its
// `fake.session` knob, it answers the commands that need the desktop as helper/Desktop.cs does
// (ACCESS_DENIED with the reason) and reports the state to `session`. Everything else is real:
// the helper host, the native driver, the runner, the agent and the server.

const quiet = { write: () => true } as unknown as NodeJS.WritableStream
const log = createLogger({ level: 'warn', format: 'json', destination: quiet })
const CUSTOMER_DESK = '0x50E42@6024'
const app = { executable: 'C:\\Program Files\\CustomerDesk\\CustomerDesk.exe' }

const running: NativeDriver[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()))
})

function windowsDriver() {
  const host = new HelperHost({ command: [...FAKE_UIA_HELPER], log, callTimeoutMs: 5_000 })
  const driver = new NativeDriver({ kind: 'windows', host, profile: UIA_PROFILE, log, callTimeoutMs: 5_000 })
  running.push(driver)
  let asked = 0
  const desktopState = driver.desktopState.bind(driver)
  // Counts the runner's looks at the session, so a test can act once the run is waiting.
  driver.desktopState = () => {
    asked++
    return desktopState()
  }
  const session = (state: string) => host.request(FAKE_SESSION_COMMAND, { state })
  return { driver, session, asked: () => asked }
}

const selector = (...fingerprints: Fingerprint[]) => ({ fingerprints })
const saveCustomer: Automation = {
  version: 1,
  app,
  scenarios: [],
  steps: [
    { kind: 'launch', name: 'Open CustomerDesk', app },
    {
      kind: 'fill',
      name: 'Email',
      target: selector({ by: 'automationId', ids: ['tabPageContact', 'textBox2'] }),
      value: '{{email}}',
    },
    { kind: 'click', name: 'Save', target: selector({ by: 'role', role: 'button', name: 'Save' }) },
    {
      kind: 'read',
      name: 'Number',
      target: selector({ by: 'automationId', ids: ['textBoxNumber'] }),
      into: 'number',
    },
  ],
}

describe('a locked Windows session', () => {
  test('the driver calls it DESKTOP_LOCKED and says the state; an elevated window stays ACCESS_DENIED', async () => {
    const { driver, session } = windowsDriver()
    expect(await driver.desktopState()).toBe('active')
    const { root } = await driver.snapshot(CUSTOMER_DESK)
    const save = JSON.stringify(root).includes('"Save"')
    expect(save).toBe(true)
    for (const state of ['locked', 'disconnected', 'secure_desktop'] as const) {
      await session(state)
      expect(await driver.desktopState()).toBe(state)
      const error = await driver.screenshot(CUSTOMER_DESK).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(DriverError)
      expect((error as DriverError).code).toBe('DESKTOP_LOCKED')
    }
    await session('active')
    expect(await driver.desktopState()).toBe('active')
    const elevated = await driver.snapshot('0x90C14@2288').then(
      () => undefined,
      (e: unknown) => e,
    )
    expect((elevated as DriverError).code).toBe('ACCESS_DENIED')
  })

  test('a run waits for the session to come back, then goes on from the step it stopped at', async () => {
    const { driver, session, asked } = windowsDriver()
    await session('locked')
    const steps: string[] = []
    const run = runAutomation(
      driver,
      saveCustomer,
      { email: 'anna@example.com' },
      { onStepFinished: (s) => void steps.push(`${s.flowName}:${s.status}`) },
      { screenshots: false, recheckMs: 50 },
    )
    // The run looked at the session (it met the lock) and is waiting: someone unlocks the PC.
    await eventually(async () => asked() >= 2)
    expect(steps).toEqual([])
    await session('active')
    const result = await run
    expect(result.error).toBeUndefined()
    expect(result.status).toBe('succeeded')
    expect(result.result).toEqual({ number: 'C-10442' })
    expect(steps).toEqual(['Open CustomerDesk:SUCCESS', 'Email:SUCCESS', 'Save:SUCCESS', 'Number:SUCCESS'])
  })

  test("a session that does not come back within the run's timeout fails DESKTOP_LOCKED, saying it waited", async () => {
    const { driver, session } = windowsDriver()
    await session('disconnected')
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(new Error('run timed out after 1500 ms')), 1500)
    const result = await runAutomation(
      driver,
      saveCustomer,
      { email: 'anna@example.com' },
      {},
      { screenshots: false, recheckMs: 50, signal: abort.signal },
    ).finally(() => clearTimeout(timer))
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('DESKTOP_LOCKED')
    expect(result.error?.step).toBe('Open CustomerDesk')
    expect(result.error?.message).toContain('disconnected')
    expect(result.error?.message).toMatch(/the run waited \d+ s for the session to come back/)
  })
})

describe('the agent reports the session; the server and the dashboard show it', () => {
  const dirs: { remove(): void }[] = []
  afterAll(() => {
    for (const dir of dirs) dir.remove()
  })

  test('locked, then back: the desktop list, `desktops list` data and the desktops page follow', async () => {
    const server = await startTestServer()
    const state = tempDir('deskhook-session-')
    dirs.push(state)
    const { driver, session } = windowsDriver()
    const agent = new Agent({
      server: server.url,
      token: createEnrollmentToken(server.ctx).token,
      name: 'front-desk-pc',
      driver,
      runAutomation,
      state: new StateStore(state.path),
      log,
      version: 'test',
      sessionPollMs: 50,
      onFatal: (reason) => {
        throw new Error(reason)
      },
    })
    try {
      agent.start()
      const sessionOf = async () => {
        const { desktops } = (await (await server.call('/_desktops')).json()) as {
          desktops: { name: string; status: string; sessionState: string | null }[]
        }
        return desktops.find((d) => d.name === 'front-desk-pc')?.sessionState
      }
      expect(await eventually(async () => (await sessionOf()) === 'active')).toBe(true)

      await session('locked')
      expect(await eventually(async () => (await sessionOf()) === 'locked', 10_000)).toBe(true)
      const admin = await signIn(server)
      const page = await (await admin.get('/_/desktops')).text()
      expect(page).toContain('data-session="locked"')
      expect(page).toContain('runs wait for someone to unlock it')

      await session('active')
      expect(await eventually(async () => (await sessionOf()) === 'active', 10_000)).toBe(true)
      const after = await (await admin.get('/_/desktops')).text()
      expect(after).not.toContain('data-session=')
    } finally {
      await agent.stop()
      await server.close()
    }
  })
})

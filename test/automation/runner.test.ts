// Runner behaviour that needs no browser: a scripted driver replays the recorded CRM snapshots
// (clicking an element with a known id moves to the next recording).
import { describe, expect, test } from 'bun:test'
import { runAutomation } from '../../src/automation/index.ts'
import type { Automation, Fingerprint, Selector, Step } from '../../src/protocol/automation.ts'
import type { ChangeResult, Driver } from '../../src/protocol/driver.ts'
import type {
  ActionResult,
  ElementAction,
  Snapshot,
  UiElement,
  WindowInfo,
} from '../../src/protocol/elements.ts'
import { all, type Recorded, recorded } from './recorded.ts'

class ScriptedDriver implements Driver {
  readonly kind = 'browser'
  readonly actions: string[] = []
  private screen!: Snapshot

  constructor(
    private readonly start_: Recorded,
    private readonly transitions: Record<string, Recorded>,
  ) {}

  async start() {
    this.screen = await recorded(this.start_)
  }
  async stop() {}
  async listWindows(): Promise<WindowInfo[]> {
    return [this.screen.window]
  }
  async launch(): Promise<WindowInfo> {
    return this.screen.window
  }
  async navigate(): Promise<WindowInfo> {
    return this.screen.window
  }
  async focusWindow() {}
  async snapshot(): Promise<Snapshot> {
    return this.screen
  }
  async act(_windowId: string, action: ElementAction): Promise<ActionResult> {
    const element = all(this.screen.root).find((e) => e.ref === action.ref) as UiElement
    this.actions.push(`${action.kind} ${element.automationId ?? element.name}`)
    const next = element.automationId && this.transitions[element.automationId]
    if (action.kind === 'click' && next) this.screen = await recorded(next)
    return action.kind === 'read' ? { text: element.name, value: element.value } : {}
  }
  async screenshot(): Promise<Uint8Array> {
    return new Uint8Array([0xff, 0xd8, 0xff, 0xd9])
  }
  waitForChange(_windowId: string, timeoutMs: number): Promise<ChangeResult> {
    // Recordings never change by themselves: a wait always runs out.
    return new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs))
  }
}

const sel = (...fingerprints: Fingerprint[]): Selector => ({ fingerprints })
const id = (value: string) => sel({ by: 'automationId', ids: [value] })

function automation(steps: Step[], extra: Partial<Automation> = {}): Automation {
  return { version: 1, app: { url: 'http://fixtures/crm/' }, steps, scenarios: [], ...extra }
}

async function driverAt(start: Recorded, transitions: Record<string, Recorded> = {}) {
  const driver = new ScriptedDriver(start, transitions)
  await driver.start()
  return driver
}

describe('runAutomation (scripted driver)', () => {
  test('a branch to a failure scenario ends the run failed with FAILURE_SCENARIO', async () => {
    const driver = await driverAt('crm-new-customer', { 'save-customer': 'crm-email-required' })
    const run = await runAutomation(
      driver,
      automation(
        [
          { kind: 'click', name: 'Save', target: id('save-customer') },
          { kind: 'branch', name: 'Invalid?', scenario: 'invalid email' },
          { kind: 'read', name: 'Never', target: id('created-id'), into: 'id' },
        ],
        {
          scenarios: [
            {
              name: 'invalid email',
              outcome: 'failure',
              when: { kind: 'text', text: 'Email is required' },
              steps: [{ kind: 'read', name: 'Read the problem', target: id('email-error'), into: 'problem' }],
            },
          ],
        },
      ),
      {},
    )
    expect(run).toMatchObject({ status: 'failed', scenario: 'invalid email', outcome: 'failure' })
    expect(run.error?.code).toBe('FAILURE_SCENARIO')
    expect(run.result).toEqual({ problem: 'Email is required' })
    expect(run.steps.map((s) => `${s.executionOrder}/${s.totalSteps} ${s.status}`)).toEqual([
      '1/3 SUCCESS',
      '2/3 SUCCESS',
      '3/3 SUCCESS',
    ])
  })

  test('an invalid automation fails before touching the desktop', async () => {
    const driver = await driverAt('crm-customers')
    const run = await runAutomation(
      driver,
      automation([
        { kind: 'branch', name: 'Go', scenario: 'nowhere' },
        { kind: 'read', name: 'Bad regex', target: id('x'), into: 'x', extract: '(' },
        { kind: 'read', name: 'Rows of nothing', source: 'rows', into: 'rows' },
        { kind: 'read', name: 'The address', source: 'url', into: 'url' },
        { kind: 'read', name: 'Split rows', source: 'rows', target: id('x'), into: 'r', split: ',' },
      ]),
      {},
    )
    expect(run.status).toBe('failed')
    expect(run.error?.code).toBe('INVALID_AUTOMATION')
    expect(run.error?.message).toContain('unknown scenario "nowhere"')
    expect(run.error?.message).toContain('Invalid regular expression')
    expect(run.error?.message).toContain('"Rows of nothing" reads rows but has no target')
    expect(run.error?.message).not.toContain('The address')
    expect(run.error?.message).toContain('"Split rows": split reads an element\'s text, not rows')
    expect(run.steps).toEqual([])
    expect(driver.actions).toEqual([])
  })

  test('wait and assert report what they saw when their deadline passes', async () => {
    const driver = await driverAt('crm-customers')
    const wait = await runAutomation(
      driver,
      automation([
        {
          kind: 'wait',
          name: 'Wait for the form',
          timeoutMs: 50,
          until: { kind: 'appears', target: id('email') },
        },
      ]),
      {},
    )
    expect(wait.error).toMatchObject({ code: 'WAIT_TIMEOUT', step: 'Wait for the form' })
    expect(wait.error?.message).toContain('#email is absent')
    const assert = await runAutomation(
      driver,
      automation([
        {
          kind: 'assert',
          name: 'No dialog',
          timeoutMs: 50,
          that: { kind: 'dialog' },
          message: 'Expected a dialog',
        },
      ]),
      {},
    )
    expect(assert.error).toMatchObject({
      code: 'ASSERTION_FAILED',
      message: 'Expected a dialog (no dialog is open)',
    })
  })

  test('a cancelled run stops at the current step', async () => {
    const driver = await driverAt('crm-customers')
    const controller = new AbortController()
    controller.abort('run timed out')
    const run = await runAutomation(
      driver,
      automation([{ kind: 'click', name: 'New', target: id('new-customer') }]),
      {},
      {},
      { signal: controller.signal },
    )
    expect(run.error).toMatchObject({ code: 'CANCELLED', step: 'New' })
    expect(driver.actions).toEqual([])
  })

  test('a hook that throws does not change the run', async () => {
    const driver = await driverAt('crm-customers', { 'new-customer': 'crm-new-customer' })
    const run = await runAutomation(
      driver,
      automation([{ kind: 'click', name: 'New', target: id('new-customer') }], { outputs: { done: 'yes' } }),
      {},
      {
        onStepStarted: () => {
          throw new Error('event socket closed')
        },
      },
    )
    expect(run).toMatchObject({ status: 'succeeded', scenario: 'main', result: { done: 'yes' } })
    expect(driver.actions).toEqual(['click new-customer'])
  })
})

// "Show me" against the fixture CRM in real Chromium: a task worded so that no button of the
// CRM shares its words ("Enroll a patron"), so exploring cannot reach the form. The build asks
// `demonstrate`; the test does the task through the driver the way a person would (with a
// detour, a click into a field, a typo corrected, a look at the result afterwards), recording
// the screens before and after each action, and the build turns that into a verified automation.
import { describe, expect, test } from 'bun:test'
import type { Question } from '../../../src/builder/contract.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import type { Step } from '../../../src/protocol/automation.ts'
import type { ElementAction, Snapshot, UiElement, UiRole } from '../../../src/protocol/elements.ts'
import type { InputEvent, RecordedAction, Recording } from '../../../src/protocol/recording.ts'
import { all } from '../../automation/recorded.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { CREATE_PROMPT, crmBrowser } from '../crm-harness.ts'
import { demonstrate, scriptedIO } from '../scripted-io.ts'
import { targetIn } from './recording-kit.ts'

const crm = crmBrowser()
/** No word of it is on a CRM button ("New customer", "Find customer"). */
const PROMPT = 'Enroll a patron and return the id'
const EXPECT = { id: { $type: 'string' } }

/** Acts on the window through the driver and records each action with the screens around it. */
class Demonstrator {
  private readonly snapshots: Snapshot[] = []
  private readonly actions: RecordedAction[] = []
  private readonly started = performance.now()

  constructor(private readonly windowId: string) {}

  async begin(): Promise<this> {
    this.snapshots.push(await this.settled())
    return this
  }

  private get screen(): Snapshot {
    return this.snapshots.at(-1)!
  }

  private find(role: UiRole, name: string): UiElement {
    const found = all(this.screen.root).filter((e) => e.role === role && e.name === name)
    if (found.length !== 1)
      throw new Error(`${role} “${name}”: ${found.length} on “${this.screen.window.title}”`)
    return found[0]!
  }

  /** Records the event on the current screen, performs it, and records the screen it led to. */
  private async perform(
    event: InputEvent,
    action?: (ref: string) => ElementAction,
    role?: UiRole,
    name?: string,
  ) {
    const target = role && name !== undefined ? targetIn(this.screen, role, name) : undefined
    const ref = role && name !== undefined ? this.find(role, name).ref : ''
    this.actions.push({
      ...event,
      ...(target ? { target } : {}),
      seq: this.actions.length + 1,
      atMs: Math.round(performance.now() - this.started),
      before: this.snapshots.length - 1,
    })
    if (action) await crm.driver().act(this.windowId, action(ref))
    this.snapshots.push(await this.settled())
  }

  click(role: UiRole, name: string) {
    return this.perform({ kind: 'click' }, (ref) => ({ kind: 'click', ref }), role, name)
  }

  type(name: string, value: string) {
    return this.perform({ kind: 'input', value }, (ref) => ({ kind: 'fill', ref, value }), 'textbox', name)
  }

  choose(name: string, option: string) {
    return this.perform(
      { kind: 'select', value: option },
      (ref) => ({ kind: 'select', ref, values: [option] }),
      'combobox',
      name,
    )
  }

  check(name: string, checked: boolean) {
    return this.perform(
      { kind: 'check', value: String(checked) },
      (ref) => ({ kind: 'check', ref, checked }),
      'checkbox',
      name,
    )
  }

  recording(): Recording {
    return {
      window: this.snapshots[0]!.window,
      startedAt: new Date().toISOString(),
      endedAt: new Date().toISOString(),
      actions: this.actions,
      snapshots: this.snapshots,
    }
  }

  /** The window once it has been quiet for a moment (the CRM saves through its API). */
  private async settled(): Promise<Snapshot> {
    const driver = crm.driver()
    for (let i = 0; i < 20 && (await driver.waitForChange(this.windowId, 300)) === 'changed'; i++) {}
    return driver.snapshot(this.windowId)
  }
}

/** What a person does when asked: the task, with the detours people take. */
async function enroll(question: Question, who: { firstName: string; email: string }): Promise<Recording> {
  const { firstName, email } = who
  const person = await new Demonstrator(question.windowId!).begin()
  await person.click('button', 'Find customer')
  await person.click('button', 'Back to customers')
  await person.click('button', 'New customer')
  await person.click('textbox', 'First name')
  await person.type('First name', firstName.slice(0, 1))
  await person.type('First name', firstName)
  await person.type('Email', email.replace('example', 'exmaple'))
  await person.type('Email', email)
  await person.choose('Country', 'France')
  await person.check('VIP customer', true)
  await person.click('button', 'Save')
  // A look at the list afterwards: not part of the task.
  await person.click('button', 'Back to customers')
  return person.recording()
}

const kinds = (steps: Step[]) => steps.map((s) => s.kind)

describe('a build that is shown how', () => {
  test('without a way to receive a recording, a task exploring cannot place fails as before', async () => {
    const script = scriptedIO()
    const result = await buildAutomation(localDesktop(crm.driver()), script.io, {
      prompt: PROMPT,
      sample: { id: 's0', input: { firstName: 'Ada', email: 'ada0@example.com' }, expect: EXPECT },
      previous: [],
    })
    expect(result).toMatchObject({ ok: false, code: 'NO_FORM_FOUND' })
    expect(script.questions).toEqual([])
  }, 60_000)

  test('exploring finds no form: the build asks to be shown, learns the steps and verifies them', async () => {
    const input = { firstName: 'Ada', email: 'ada.lovelace@example.com', country: 'France', vip: true }
    const script = scriptedIO([demonstrate((q) => enroll(q, input))])
    const { result } = await crm.build(
      { prompt: PROMPT, sample: { id: 's1', input, expect: EXPECT }, previous: [] },
      script,
    )

    const [asked] = script.questions
    expect(asked!.question).toMatchObject({ kind: 'demonstrate', options: [], multiple: false })
    expect(asked!.question.text).toBe(
      'I could not find where this is done in the app. Show me how to enroll a patron and return the id with this sample: ' +
        'firstName “Ada”, email “ada.lovelace@example.com”, country “France”, vip true. ' +
        'Start recording, do it once on test-desktop, then press Done. ' +
        'Or show me just the way: open the form, press Done, and I fill it in and send it myself.',
    )
    const [window] = (await crm.driver().listWindows()).filter((w) => w.url?.includes('/crm/'))
    expect(asked!.question.windowId).toBe(window!.id)

    const { automation } = result
    expect(kinds(automation.steps)).toEqual([
      'launch',
      'click',
      'fill',
      'fill',
      'select',
      'check',
      'click',
      'wait',
      'read',
    ])
    expect(automation.steps.slice(2, 6)).toMatchObject([
      { name: 'Fill “First name”', value: '{{firstName}}' },
      { name: 'Fill “Email”', value: '{{email}}' },
      { name: 'Choose “Country”', value: '{{country}}' },
      { name: 'Set “VIP customer”', checked: '{{vip}}' },
    ])
    expect(result).toMatchObject({ outcome: 'success', reverified: [] })
    const said = script.lines.join('\n')
    expect(said).toContain(
      '[explore] From the demonstration: 12 actions → 6 steps (left out: a click that only put the cursor in “First name”; ' +
        'a detour through “Find customer” and back; corrections in “Email” (its last value counts))',
    )
    expect(said).toContain('[map] “Ada” typed into “First name” is the sample’s firstName')
    expect(said).toContain('[submit] “Save” sends the form; the 1 action after it only looked at the result')
    expect(said).toContain('[verify] The new sample ends in')

    // The person's own Save created Ada once; verifying did not save her again.
    const emails = crm
      .fixtures()
      .crm.customers()
      .map((c) => c.email)
    expect(emails.filter((e) => e === input.email)).toHaveLength(1)
    expect(
      crm
        .fixtures()
        .crm.customers()
        .find((c) => c.email === input.email),
    ).toMatchObject({
      firstName: 'Ada',
      country: 'FR',
      vip: true,
    })

    // A later sample that fits the demonstrated path needs no new demonstration.
    const annie = { firstName: 'Annie', email: 'annie.easley@example.com', country: 'Germany', vip: false }
    const later = scriptedIO([
      demonstrate((q) => enroll(q, { firstName: 'Never', email: 'never@example.com' })),
    ])
    const extended = await crm.build(
      {
        prompt: PROMPT,
        sample: { id: 's2', input: annie, expect: EXPECT },
        previous: [{ id: 's1', input, expect: EXPECT, scenario: result.scenario }],
        automation,
      },
      later,
    )
    expect(later.questions).toEqual([])
    expect(extended.result.automation).toEqual(automation)
    expect(later.lines).toContain(
      `[verify] The sample already ends in “${result.scenario}”; the automation needs no change`,
    )
    expect(
      crm
        .fixtures()
        .crm.customers()
        .find((c) => c.email === annie.email),
    ).toMatchObject({
      firstName: 'Annie',
      country: 'DE',
      vip: false,
    })
  }, 120_000)

  test('shown just the way to the form: the builder fills it in, sends it, reads and verifies by itself', async () => {
    const input = { firstName: 'Grace', email: 'grace.shown-the-way@example.com' }
    const script = scriptedIO([
      demonstrate(async (q) => {
        const person = await new Demonstrator(q.windowId!).begin()
        await person.click('button', 'New customer')
        return person.recording()
      }),
    ])
    const { result } = await crm.build(
      { prompt: PROMPT, sample: { id: 's4', input, expect: EXPECT }, previous: [] },
      script,
    )
    expect(script.questions.map((q) => q.question.kind)).toEqual(['demonstrate'])
    expect(result.outcome, script.lines.join('\n')).toBe('success')
    const steps = result.automation.steps
    expect(steps.slice(0, 4)).toMatchObject([
      { kind: 'launch' },
      { kind: 'click', name: 'Click “New customer”' },
      { kind: 'fill', value: '{{firstName}}' },
      { kind: 'fill', value: '{{email}}' },
    ])
    expect(steps.some((s) => s.kind === 'read')).toBe(true)
    const said = script.lines.join('\n')
    expect(said).toContain(
      '[explore] The demonstration shows the way to the form (“Click “New customer””); the builder fills it in and sends it',
    )
    // The builder's own submit was the sample's one; verifying did not save Grace again.
    const saved = crm
      .fixtures()
      .crm.customers()
      .filter((c) => c.email === input.email)
    expect(saved).toHaveLength(1)
    expect(saved[0]).toMatchObject({ firstName: 'Grace' })
  }, 120_000)

  test('a teach call that asks to be shown is asked first, before any exploring', async () => {
    const input = { firstName: 'Mary', email: 'mary.jackson@example.com', country: 'France', vip: true }
    const script = scriptedIO([demonstrate((q) => enroll(q, input))])
    const { result } = await crm.build(
      { prompt: CREATE_PROMPT, sample: { id: 's3', input, expect: EXPECT }, previous: [], demonstrate: true },
      script,
    )
    expect(script.questions.map((q) => q.question.kind)).toEqual(['demonstrate'])
    expect(script.questions[0]!.question.text).toStartWith('Show me how to create a customer in the CRM')
    expect(script.lines.some((l) => l.startsWith('[explore] Tried'))).toBe(false)
    expect(result.outcome).toBe('success')
  }, 120_000)
})

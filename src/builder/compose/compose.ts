// Step 7 of a build: the automation's shape, and the way back from an automation to that shape
// when a later sample extends it. The shape is always
//   launch → navigation → fills → submit → wait(anyOf every known ending) → branches → reads
// so a new ending is one more condition in the wait, one more branch and one more scenario.
import { evaluateCondition, type TemplateScope } from '../../automation/index.ts'
import {
  type AppSpec,
  type Automation,
  type Condition,
  DEFAULT_MAIN_SCENARIO,
  type Scenario,
  type SignIn,
  type Step,
} from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { generaliseText } from '../generalise.ts'
import type { Ending } from '../observe/classify.ts'
import { designSelector, designTextSelector } from '../selector-design.ts'

export interface Plan {
  app: AppSpec
  /** The guarded sign-in prelude, run by the runner whenever the app shows its sign-in form. */
  signIn?: SignIn
  /** Launch, navigation and fills: everything before the submit. */
  prefix: Step[]
  /**
   * What must hold just before the submit for its ending to be evidence (a save needs unsaved
   * changes: finish-build.ts), placed right before it whatever is added to the prefix later.
   */
  guard?: Step
  submit: Step
  wait: { name: string; timeoutMs?: number }
  /** Conditions of the main path's ending (empty until a sample has succeeded). */
  success: Condition[]
  branches: Step[]
  /** Main-path steps after the branches: reads, closing a success dialog. */
  tail: Step[]
  /** The screen the tail's click opened (the record found, open-record.ts), for verifying reads there. */
  opened?: Snapshot
  scenarios: Scenario[]
  mainScenario: string
  outputs?: Record<string, string>
}

/** Where the plan's submit lands among the composed steps (after the prefix and its guard). */
export function submitIndexOf(plan: Plan): number {
  return plan.prefix.length + (plan.guard ? 1 : 0)
}

export function compose(plan: Plan): Automation {
  const endings = [...plan.success, ...plan.scenarios.flatMap((s) => (s.when ? [s.when] : []))]
  const wait: Step = {
    kind: 'wait',
    name: plan.wait.name,
    until: { kind: 'anyOf', conditions: endings },
    ...(plan.wait.timeoutMs ? { timeoutMs: plan.wait.timeoutMs } : {}),
  }
  const automation: Automation = {
    version: 1,
    app: plan.app,
    ...(plan.signIn ? { signIn: plan.signIn } : {}),
    mainScenario: plan.mainScenario,
    steps: [
      ...plan.prefix,
      ...(plan.guard ? [plan.guard] : []),
      plan.submit,
      ...(endings.length ? [wait] : []),
      ...plan.branches,
      ...plan.tail,
    ],
    scenarios: plan.scenarios,
  }
  if (plan.outputs) automation.outputs = plan.outputs
  return automation
}

/** Reads an automation back into its parts; undefined when it has no wait after a submit. */
export function decompose(automation: Automation): Plan | undefined {
  const at = automation.steps.findIndex((s) => s.kind === 'wait')
  const wait = automation.steps[at]
  if (at < 1 || !wait || wait.kind !== 'wait') return undefined
  const rest = automation.steps.slice(at + 1)
  const firstOther = rest.findIndex((s) => s.kind !== 'branch')
  const branches = firstOther < 0 ? rest : rest.slice(0, firstOther)
  const scenarioWhens = automation.scenarios.flatMap((s) => (s.when ? [JSON.stringify(s.when)] : []))
  const conditions = wait.until.kind === 'anyOf' ? wait.until.conditions : [wait.until]
  const before = automation.steps.slice(0, at - 1)
  const guard = before.at(-1)?.kind === 'assert' ? before.pop() : undefined
  return {
    app: automation.app,
    ...(automation.signIn ? { signIn: automation.signIn } : {}),
    prefix: before,
    ...(guard ? { guard } : {}),
    submit: automation.steps[at - 1]!,
    wait: { name: wait.name, ...(wait.timeoutMs ? { timeoutMs: wait.timeoutMs } : {}) },
    success: conditions.filter((c) => !scenarioWhens.includes(JSON.stringify(c))),
    branches,
    tail: firstOther < 0 ? [] : rest.slice(firstOther),
    scenarios: automation.scenarios,
    mainScenario: automation.mainScenario ?? DEFAULT_MAIN_SCENARIO,
    ...(automation.outputs ? { outputs: automation.outputs } : {}),
  }
}

/** Which known ending a screen shows: a scenario (by its branch's condition) or the main path. */
export function knownEnding(
  plan: Plan,
  root: UiElement,
  scope: TemplateScope,
): Scenario | 'main' | undefined {
  for (const branch of plan.branches) {
    if (branch.kind !== 'branch') continue
    const scenario = plan.scenarios.find((s) => s.name === branch.scenario)
    const condition = branch.when ?? scenario?.when
    if (scenario && condition && evaluateCondition(root, condition, scope).holds) return scenario
  }
  return plan.success.some((c) => evaluateCondition(root, c, scope).holds) ? 'main' : undefined
}

export function branchStep(scenario: Scenario): Step {
  return { kind: 'branch', name: `If “${scenario.name}”`, scenario: scenario.name }
}

/** A scenario for an ending: read its message into `message`, then close its dialog. */
export function scenarioFor(
  ending: Ending,
  after: UiElement,
  name: string,
  outcome: Scenario['outcome'],
  inputs: string[],
  reads: Step[] = [],
): Scenario {
  const steps: Step[] = [...reads]
  const scenario: Scenario = { name, outcome, when: ending.condition, steps }
  const element = ending.messageElement
  if (element && element !== after && element !== ending.dialog) {
    const { pattern, match } = generaliseText(ending.message, inputs, { lead: true })
    const text = { pattern, match: match === 'contains' ? ('exact' as const) : match }
    steps.push({
      kind: 'read',
      name: 'Read the message',
      target: designTextSelector(after, element, text, `the message “${ending.message}”`),
      into: 'message',
    })
  } else if (!reads.length) {
    // The message only lives in a description or a title: return it as written.
    scenario.outputs = { message: ending.message.replace(/\{\{|\}\}/g, '') }
  }
  const dismiss = dismissStep(ending, after)
  if (dismiss) steps.push(dismiss)
  return scenario
}

const CLOSERS = /^(ok|okay|close|dismiss|got it|continue|cancel)$/i

/** Closes the ending's dialog with its OK/Close button (or its only button); undefined if none fits. */
export function dismissStep(ending: Ending, after: UiElement): Step | undefined {
  if (!ending.dialog) return undefined
  const buttons: UiElement[] = []
  const visit = (e: UiElement) => {
    if (e.role === 'button' && e.name) buttons.push(e)
    e.children.forEach(visit)
  }
  visit(ending.dialog)
  const button =
    buttons.find((b) => CLOSERS.test(b.name.trim())) ?? (buttons.length === 1 ? buttons[0] : undefined)
  if (!button) return undefined
  return {
    kind: 'click',
    name: `Close the message with “${button.name}”`,
    target: designSelector(after, button, `the “${button.name}” button of the message`),
  }
}

/** A name not yet taken by another scenario (or the main path). */
export function uniqueName(name: string, plan: Pick<Plan, 'scenarios' | 'mainScenario'>): string {
  const taken = new Set([plan.mainScenario, ...plan.scenarios.map((s) => s.name)])
  if (!taken.has(name)) return name
  for (let n = 2; ; n++) if (!taken.has(`${name} (${n})`)) return `${name} (${n})`
}

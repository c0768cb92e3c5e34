// The end of a first build, however its steps were found (explored, or shown by a person): the
// ending the submit led to becomes the main path or a scenario, the outputs are read from it,
// the automation is composed, and verified on the sample and every earlier one (DESIGN §4, 5–7).
import type { AppSpec, Automation, Step } from '../../protocol/automation.ts'
import type { UiElement, WindowInfo } from '../../protocol/elements.ts'
import type { BuildResult } from '../contract.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import type { Ending } from '../observe/classify.ts'
import type { Observation } from '../observe/observe.ts'
import { outputsOrScenario } from '../outputs/outputs-or-scenario.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { learnLateSignIn, splitSignIn } from '../sign-in/sign-in.ts'
import { verifyBuild } from '../verify/verify-build.ts'
import { compose, type Plan } from './compose.ts'

export interface Finish {
  window: WindowInfo
  app: AppSpec
  /** Every step between the launch and the submit: sign-in, the way to the form, the fills. */
  prefix: Step[]
  submit: Step
  /** Where the sample's send began (before a confirmation or a preview's send). */
  firstSend: Step
  /** The send is an action in the record's own row: replays stop before it. */
  sendsInRow: boolean
  /** The screens before and after the submit; how long the app took, when the builder timed it. */
  observed: Omit<Observation, 'elapsedMs'> & { elapsedMs?: number }
  ending: Ending
  reading: PromptReading
  inputs: string[]
  leaves: InputLeaf[]
  submitLabel: string
}

/**
 * Outputs, compose, verify: the end of a first build, in the order pipeline.ts shows it, for a
 * build whose steps a person showed (demonstrated-build.ts).
 */
export async function finishBuild(session: BuildSession, f: Finish): Promise<BuildResult> {
  reportEnding(session, f.ending, f.observed.elapsedMs)
  refuseOwnCollision(session, f.ending)
  const plan = await planAutomation(session, f)
  const target = await outputsOrScenario(session, f, plan)
  const automation = composeAutomation(session, plan)
  return verifyBuild(session, automation, f, plan, target)
}

/** The automation's frame: launch, the guarded sign-in, the way and fills, the submit and its wait. */
export async function planAutomation(session: BuildSession, f: Finish): Promise<Plan> {
  const launch: Step = { kind: 'launch', name: `Open “${f.window.title}”` }
  await learnLateSignIn(session, f.app, f.observed.after.window.url)
  // The sign-in steps leave the path for the guarded prelude the runner performs on demand.
  const { signIn, steps: prefix } = splitSignIn(session, f.prefix)
  return {
    app: f.app,
    ...(signIn ? { signIn } : {}),
    prefix: [launch, ...prefix],
    ...(f.ending.precondition ? { guard: guardStep(f.ending.precondition) } : {}),
    submit: f.submit,
    wait: { name: 'Wait for the outcome', ...waitBudget(f.observed.elapsedMs ?? 0) },
    success: [],
    branches: [],
    tail: [],
    scenarios: [],
    mainScenario: 'main',
  }
}

/** The ending's precondition, checked just before the submit (a save needs unsaved changes). */
export function guardStep({ name, that, message }: NonNullable<Ending['precondition']>): Step {
  return { kind: 'assert', name, that, message, timeoutMs: 3_000 }
}

export function composeAutomation(session: BuildSession, plan: Plan): Automation {
  const automation = compose(plan)
  session.progress('compose', `Composed ${automation.steps.length} steps; main path “${plan.mainScenario}”`, {
    steps: automation.steps.map((s) => s.name),
    scenarios: automation.scenarios.map((s) => s.name),
  })
  return automation
}

/**
 * A sample an earlier build of this job already submitted: the app now holds its record, so a
 * complaint ("already exists") is the builder's own doing and never becomes a scenario.
 */
export function refuseOwnCollision(session: BuildSession, ending: Ending): void {
  if (!session.request.sample.submittedBefore || ending.kind === 'screen') return
  throw new BuildFailure(
    'ALREADY_SUBMITTED',
    `The app answered “${ending.message}”, but an earlier build of this job already submitted this very sample, ` +
      'so the app now holds its record and the complaint is about that. Teach again with new values ' +
      '(or remove the sample with `deskhook jobs remove-sample`), or say `"resettable": true` in the envelope if the app is reset between runs.',
  )
}

/** Says what the submit led to; `elapsedMs` is left out when nobody timed it (a demonstration). */
export function reportEnding(session: BuildSession, ending: Ending, elapsedMs?: number): void {
  const kinds = { dialog: 'a dialog', validation: 'a validation message', screen: 'a new screen state' }
  session.progress(
    'observe',
    `The submit led to ${kinds[ending.kind]}: “${ending.message}”` +
      (elapsedMs === undefined ? '' : ` (settled after ${elapsedMs} ms)`),
    {
      kind: ending.kind,
      message: ending.message,
      signature: ending.signature,
      appeared: ending.appeared.slice(0, 12).map((e: UiElement) => `${e.role} “${e.name}”`),
    },
  )
}

/** Apps that took long to answer get a proportionally longer wait than the runner's 10 s default. */
export function waitBudget(elapsedMs: number): { timeoutMs?: number } {
  const budget = Math.ceil((elapsedMs * 5) / 1000) * 1000
  return budget > 10_000 ? { timeoutMs: Math.min(budget, 120_000) } : {}
}

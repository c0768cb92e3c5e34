// The automation runner: used by the agent for live runs and by the builder for its verification
// run. It walks the main steps, switches to a scenario when a branch's condition holds, reports
// every step through hooks (with a screenshot for the replay), and returns one final result.

import { redactScreenshot } from '../lib/redact-screenshot.ts'
import {
  type Automation,
  type Condition,
  DEFAULT_MAIN_SCENARIO,
  type Outcome,
  parseAutomation,
  type RunError,
  type Scenario,
  type Step,
} from '../protocol/automation.ts'
import type { Driver } from '../protocol/driver.ts'
import type { Bounds } from '../protocol/elements.ts'
import { inView } from './act-on-target.ts'
import { evaluateCondition } from './conditions.ts'
import { stillLocked, untilDesktopBack } from './desktop-lock.ts'
import { currentWindow, type RunContext, scopeOf, toRunError, untilQuiet } from './run-context.ts'
import type { RunHooks, RunOptions, RunResult, StepResult, StepStarted } from './run-types.ts'
import { secretFieldBoxes, watchSecretFields } from './secret-fields.ts'
import {
  actsOnApp,
  credentialsMissing,
  foreignSignInForm,
  guardedStepWithoutSecrets,
  lastNavigate,
  MAX_SIGN_INS,
  missedTarget,
  missingSecrets,
  noSignInSteps,
  secretNames,
  signedOutAgain,
  signInGone,
  signInRefused,
  signInShown,
} from './sign-in-prelude.ts'
import { executeStep, type StepOutcome, waitUntil } from './step-executor.ts'
import { resolveTemplate } from './templates.ts'
import { compilePattern } from './text-match.ts'

export async function runAutomation(
  driver: Driver,
  automation: Automation,
  input: Record<string, unknown>,
  hooks: RunHooks = {},
  options: RunOptions = {},
): Promise<RunResult> {
  const now = options.now ?? (() => new Date())
  const steps: StepResult[] = []
  const invalid = validate(automation)
  if (invalid) return finish('failed', DEFAULT_MAIN_SCENARIO, 'success', {}, steps, invalid)

  const secretFields = watchSecretFields(driver)
  const ctx: RunContext = {
    driver: secretFields.driver,
    automation,
    input,
    vars: {},
    defaultStepTimeoutMs: options.defaultStepTimeoutMs ?? 10_000,
    recheckMs: options.recheckMs ?? 1_000,
    signal: options.signal,
  }
  let scenario: Pick<Scenario, 'name' | 'outcome' | 'outputs'> = {
    name: automation.mainScenario ?? DEFAULT_MAIN_SCENARIO,
    outcome: 'success',
    outputs: automation.outputs,
  }
  let list: Step[] = automation.steps
  let totalSteps = list.length
  let order = 0
  const entered = new Set<string>()

  const begin = async (step: Step): Promise<StepStarted> => {
    const started: StepStarted = {
      flowName: step.name,
      executionOrder: ++order,
      totalSteps,
      startedAt: iso(now),
    }
    await notify(() => hooks.onStepStarted?.(started))
    ctx.target = undefined
    return started
  }
  const end = async (started: StepStarted, tried: Attempt): Promise<void> => {
    const { outcome, error } = tried
    const result: StepResult = {
      ...started,
      status: outcome ? outcome.status : 'FAILED',
      result: outcome ? outcome.result : null,
      finishedAt: iso(now),
      screenshot: options.screenshots === false ? undefined : await screenshot(ctx, secretFields.seen()),
    }
    if (error) result.error = error
    if (!result.screenshot) delete result.screenshot
    else {
      const target = await targetInScreenshot(ctx)
      if (target) result.target = target
    }
    steps.push(result)
    await notify(() => hooks.onStepFinished?.(result))
  }
  /** One step, started and finished in the events. */
  const perform = async (step: Step): Promise<Attempt> => {
    const started = await begin(step)
    const tried = await attempt(ctx, step)
    await end(started, tried)
    return tried
  }
  const stop = async (at: number, error: RunError): Promise<RunResult> => {
    // The rest of the path is reported as skipped, so the replay shows where the run stopped.
    for (const skipped of list.slice(at + 1)) {
      const moment = iso(now)
      const entry: StepResult = {
        flowName: skipped.name,
        executionOrder: ++order,
        totalSteps,
        startedAt: moment,
        status: 'SKIPPED',
        result: null,
        finishedAt: moment,
      }
      steps.push(entry)
      await notify(() => hooks.onStepFinished?.(entry))
    }
    return finish('failed', scenario.name, scenario.outcome, { ...ctx.vars }, steps, error)
  }

  // The sign-in prelude: run whenever the app shows its sign-in form (sign-in-prelude.ts).
  const signIn = automation.signIn
  let signIns = 0
  let lookedForSignIn = false
  const signInNow = async (): Promise<RunError | undefined> => {
    if (!signIn) return undefined
    const first = signIn.steps[0]!.name
    const missing = missingSecrets(signIn.steps, input)
    if (missing.length) return credentialsMissing(missing, first)
    signIns++
    totalSteps += signIn.steps.length
    for (const step of signIn.steps) {
      // A guarded step (a sign-in in two steps) is judged once the screen before it has arrived.
      if (step.onlyIf) await untilQuiet(ctx, performance.now() + ctx.defaultStepTimeoutMs)
      const tried = await perform(step)
      if (tried.error) return tried.error
    }
    return (await signInGone(ctx, signIn)) ? undefined : signInRefused(secretNames(signIn.steps), first)
  }

  for (let i = 0; i < list.length; i++) {
    const step = list[i]!
    if (signIn && !lookedForSignIn && actsOnApp(step)) {
      lookedForSignIn = true
      const problem = (await signInShown(ctx, signIn)) ? await signInNow() : undefined
      if (problem) return stop(i - 1, problem)
    }
    let started = await begin(step)
    let tried = await attempt(ctx, step)
    // A session that expired on the way: sign in, go back to the last address opened, try again.
    while (
      signIn &&
      tried.error &&
      missedTarget(tried.error) &&
      signIns < MAX_SIGN_INS &&
      missingSecrets(signIn.steps, input).length === 0 &&
      (await signInShown(ctx, signIn))
    ) {
      await end(started, { outcome: { status: 'SKIPPED', result: { skipped: SIGNED_OUT } } })
      const problem = await signInNow()
      if (problem) return stop(i, problem)
      const back = lastNavigate(list, i)
      if (back) {
        totalSteps++
        const reopened = await perform(back)
        if (reopened.error) return stop(i, reopened.error)
      }
      totalSteps++
      started = await begin(step)
      tried = await attempt(ctx, step)
    }
    if (tried.error) tried = { error: await explainSignIn(ctx, step, tried.error) }
    await end(started, tried)
    const { outcome, error } = tried
    if (error) return stop(i, error)
    if (outcome?.branchTo) {
      if (entered.has(outcome.branchTo.name)) {
        const loop: RunError = {
          code: 'INVALID_AUTOMATION',
          message: `Scenario "${outcome.branchTo.name}" was entered twice (branch loop)`,
          step: step.name,
        }
        return finish('failed', scenario.name, scenario.outcome, { ...ctx.vars }, steps, loop)
      }
      entered.add(outcome.branchTo.name)
      scenario = outcome.branchTo
      list = outcome.branchTo.steps
      totalSteps = order + list.length
      i = -1
    }
  }

  let outputs: Record<string, unknown>
  try {
    outputs = { ...ctx.vars, ...renderOutputs(scenario.outputs, ctx) }
  } catch (thrown) {
    return finish('failed', scenario.name, scenario.outcome, { ...ctx.vars }, steps, toRunError(thrown))
  }
  if (scenario.outcome === 'failure') {
    const error: RunError = {
      code: 'FAILURE_SCENARIO',
      message: `The run ended in failure scenario "${scenario.name}"`,
    }
    return finish('failed', scenario.name, scenario.outcome, outputs, steps, error)
  }
  return finish(
    scenario.outcome === 'success' ? 'succeeded' : 'partial',
    scenario.name,
    scenario.outcome,
    outputs,
    steps,
  )
}

function finish(
  status: RunResult['status'],
  scenario: string,
  outcome: Outcome,
  result: Record<string, unknown>,
  steps: StepResult[],
  error?: RunError,
): RunResult {
  return error
    ? { status, scenario, outcome, result, steps, error }
    : { status, scenario, outcome, result, steps }
}

function renderOutputs(
  outputs: Record<string, string> | undefined,
  ctx: RunContext,
): Record<string, unknown> {
  const scope = scopeOf(ctx)
  return Object.fromEntries(
    Object.entries(outputs ?? {}).map(([key, template]) => [key, resolveTemplate(template, scope)]),
  )
}

/** Problems the data itself has, caught before touching the desktop. */
function validate(automation: Automation): RunError | undefined {
  const parsed = parseAutomation(automation)
  if (!parsed.ok) return { code: 'INVALID_AUTOMATION', message: parsed.errors.join('; ') }
  const names = new Set(automation.scenarios.map((s) => s.name))
  const problems: string[] = []
  const visit = (steps: Step[], where: string) => {
    for (const step of steps) {
      if (step.kind === 'branch') {
        const target = automation.scenarios.find((s) => s.name === step.scenario)
        if (!names.has(step.scenario))
          problems.push(`${where} "${step.name}" branches to unknown scenario "${step.scenario}"`)
        else if (!step.when && !target?.when)
          problems.push(`${where} "${step.name}" has no condition (nor has its scenario)`)
      }
      if (step.kind === 'read' && (step.source ?? 'element') !== 'url' && !step.target)
        problems.push(
          `${where} "${step.name}" reads ${step.source === 'rows' ? 'rows' : 'an element'} but has no target`,
        )
      if (step.kind === 'read' && step.split !== undefined && (step.source ?? 'element') !== 'element')
        problems.push(
          `${where} "${step.name}": split reads an element's text, not ${step.source === 'url' ? 'the address' : 'rows'}`,
        )
      if (step.kind === 'read' && step.extract !== undefined) {
        try {
          compilePattern(step.extract)
        } catch (error) {
          problems.push(`${where} "${step.name}": ${(error as Error).message}`)
        }
      }
    }
  }
  visit(automation.steps, 'step')
  for (const scenario of automation.scenarios) visit(scenario.steps, `scenario "${scenario.name}" step`)
  return problems.length ? { code: 'INVALID_AUTOMATION', message: problems.join('; ') } : undefined
}

async function screenshot(ctx: RunContext, secretFieldsSeen: boolean): Promise<Uint8Array | undefined> {
  const windowId = ctx.windowId
  if (!windowId) return undefined
  // Best effort: a native dialog freezes the page, and a missing picture must not fail the step.
  const image = await ctx.driver.screenshot(windowId).catch(() => undefined)
  if (!image || !secretFieldsSeen) return image
  // Secret fields are blacked out here, on the machine that took the picture; when that cannot be
  // done (no snapshot now), the step has no picture rather than one that may show a password.
  try {
    const snapshot = await ctx.driver.snapshot(windowId)
    return redactScreenshot(image, secretFieldBoxes(snapshot.root))
  } catch {
    return undefined
  }
}

/**
 * The step's element in the screenshot just taken. Drivers give bounds and screenshots in the same
 * pixels (the browser's device pixels, scrolled viewport; checked at device scale factors 1 and 2),
 * so an element that was wholly in view is where it was found. Acting on one that was not scrolled
 * it into view: one more look finds where it is now; none when it is gone or off screen.
 */
async function targetInScreenshot(ctx: RunContext): Promise<Bounds | undefined> {
  const seen = ctx.target
  if (!seen?.bounds || !ctx.windowId) return undefined
  if (seen.inView) return seen.bounds
  try {
    const snapshot = await ctx.driver.snapshot(ctx.windowId)
    const box = seen.find(snapshot.root)?.bounds
    return box && box.width > 0 && box.height > 0 && inView(box, snapshot.root, 'part') ? box : undefined
  } catch {
    return undefined
  }
}

/** A hook that throws (e.g. a dropped event socket) must not change the run's course. */
async function notify(call: () => void | Promise<void> | undefined): Promise<void> {
  try {
    await call()
  } catch {}
}

function iso(now: () => Date): string {
  return now().toISOString()
}

/** What a step that was skipped for a sign-in says. */
const SIGNED_OUT = 'the app showed its sign-in form (the session had ended): signing in, then trying again'

interface Attempt {
  outcome?: StepOutcome
  error?: RunError
}

/**
 * Executes one step (or skips it when its `onlyIf` does not hold), never throwing. A step the
 * locked session stopped is tried again once the session is back (desktop-lock.ts).
 */
async function attempt(ctx: RunContext, step: Step): Promise<Attempt> {
  const since = performance.now()
  for (;;) {
    const tried = await attemptOnce(ctx, step)
    if (tried.error?.code !== 'DESKTOP_LOCKED') return tried
    if (!(await untilDesktopBack(ctx))) return { error: stillLocked(tried.error, performance.now() - since) }
  }
}

async function attemptOnce(ctx: RunContext, step: Step): Promise<Attempt> {
  try {
    // "Only while X is not shown" is judged once the step's own control shows and the window has
    // been quiet a moment: on a screen still drawing, X is absent too (a folded section's field,
    // not yet drawn, would be taken as folded and its toggle pressed shut). Bounded by the step's
    // timeout; then judged as the screen is.
    if (step.onlyIf?.kind === 'disappears' && 'target' in step && step.target) {
      const deadline = performance.now() + (step.timeoutMs ?? ctx.defaultStepTimeoutMs)
      await waitUntil(ctx, { kind: 'appears', target: step.target }, deadline)
      // The section around the control may still be drawing what it holds: judged once quiet.
      await untilQuiet(ctx, deadline)
    }
    return {
      outcome:
        step.onlyIf && !(await holdsNow(ctx, step.onlyIf))
          ? { status: 'SKIPPED', result: { skipped: 'its condition does not hold on this screen' } }
          : await executeStep(ctx, step),
    }
  } catch (thrown) {
    return { error: { ...toRunError(thrown), step: step.name } }
  }
}

/**
 * A failure whose cause is a sign-in form the run cannot get past says so (SIGN_IN_REQUIRED),
 * rather than that a control was missing: an old job's guarded sign-in step without `$secrets`,
 * a sign-in prelude without them, or a sign-in form a job without sign-in steps meets.
 */
async function explainSignIn(ctx: RunContext, step: Step, error: RunError): Promise<RunError> {
  const signIn = ctx.automation.signIn
  if (guardedStepWithoutSecrets(step, error)) return credentialsMissing(secretNames([step]), step.name)
  if (!missedTarget(error)) return error
  if (signIn) {
    if (!(await signInShown(ctx, signIn))) return error
    const missing = missingSecrets(signIn.steps, ctx.input)
    return missing.length ? credentialsMissing(missing, step.name) : signedOutAgain(step.name)
  }
  try {
    const snapshot = await ctx.driver.snapshot(await currentWindow(ctx))
    const field = foreignSignInForm(snapshot.root, ctx.automation, scopeOf(ctx))
    if (!field) return error
    const guarded = [...ctx.automation.steps].filter((s) => s.onlyIf)
    const missing = missingSecrets(guarded, ctx.input)
    return missing.length ? credentialsMissing(missing, step.name) : noSignInSteps(field, step.name)
  } catch {
    return error
  }
}

/** One look at the window as it is now. */
async function holdsNow(ctx: RunContext, condition: Condition): Promise<boolean> {
  const snapshot = await ctx.driver.snapshot(await currentWindow(ctx))
  return evaluateCondition(snapshot.root, condition, scopeOf(ctx)).holds
}

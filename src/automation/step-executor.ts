// Executes one step. Every wait is "re-check after each UI change until the step's deadline".
import type { Condition, Scenario, Step } from '../protocol/automation.ts'
import type { ActionResult } from '../protocol/elements.ts'
import { actOn } from './act-on-target.ts'
import { type ConditionResult, evaluateCondition } from './conditions.ts'
import {
  checkCancelled,
  currentWindow,
  fail,
  findWindow,
  type RunContext,
  scopeOf,
  waitForChange,
} from './run-context.ts'
import { renderTemplate, resolveTemplate, TemplateError, toBoolean } from './templates.ts'
import { compilePattern } from './text-match.ts'

export interface StepOutcome {
  status: 'SUCCESS' | 'SKIPPED'
  result: unknown
  /** Set by a branch whose condition held: the run continues with this scenario. */
  branchTo?: Scenario
}

export async function executeStep(ctx: RunContext, step: Step): Promise<StepOutcome> {
  checkCancelled(ctx)
  const deadline = performance.now() + (step.timeoutMs ?? ctx.defaultStepTimeoutMs)
  const scope = () => scopeOf(ctx)
  switch (step.kind) {
    case 'launch': {
      const app = step.app ?? ctx.automation.app
      const render = (template: string | undefined) => template && renderTemplate(template, scope())
      const window = await ctx.driver.launch({
        ...app,
        url: render(app.url),
        titleContains: render(app.titleContains),
      })
      ctx.windowId = window.id
      return done({ window: window.title })
    }
    case 'focus': {
      if (step.target) return done(await actOn(ctx, step.target, { kind: 'focus' }, deadline))
      const window = await findWindow(ctx, step.window ?? ctx.automation.app)
      await ctx.driver.focusWindow(window.id)
      ctx.windowId = window.id
      return done({ window: window.title })
    }
    case 'click':
      await actOn(
        ctx,
        step.target,
        { kind: 'click', button: step.button, clickCount: step.clickCount },
        deadline,
      )
      return done(null)
    case 'fill':
      return withInput(
        step,
        () => valueText(resolveTemplate(step.value, scope())),
        async (value) => done(await actOn(ctx, step.target, { kind: 'fill', value }, deadline)),
      )
    case 'select':
      return withInput(
        step,
        () => toList(resolveTemplate(step.value, scope())),
        async (values) => done(await actOn(ctx, step.target, { kind: 'select', values }, deadline)),
      )
    case 'check':
      return withInput(
        step,
        () =>
          typeof step.checked === 'boolean'
            ? step.checked
            : toBoolean(resolveTemplate(step.checked, scope()), step.checked),
        async (checked) => done(await actOn(ctx, step.target, { kind: 'check', checked }, deadline)),
      )
    case 'keys':
      if (step.target) await actOn(ctx, step.target, { kind: 'keys', keys: step.keys }, deadline)
      else await ctx.driver.act(await currentWindow(ctx), { kind: 'keys', keys: step.keys })
      return done(null)
    case 'read':
      return done(await read(ctx, step, deadline))
    case 'wait': {
      const seen = await waitUntil(ctx, step.until, deadline)
      if (!seen.holds)
        throw fail(
          'WAIT_TIMEOUT',
          `Waited ${step.timeoutMs ?? ctx.defaultStepTimeoutMs} ms but ${seen.detail}`,
        )
      return done({ seen: seen.detail })
    }
    case 'assert': {
      const seen = await waitUntil(ctx, step.that, deadline)
      if (!seen.holds)
        throw fail('ASSERTION_FAILED', step.message ? `${step.message} (${seen.detail})` : seen.detail)
      return done({ seen: seen.detail })
    }
    case 'branch': {
      const scenario = ctx.automation.scenarios.find((s) => s.name === step.scenario)
      const condition = step.when ?? scenario?.when
      if (!scenario || !condition)
        throw fail('UNKNOWN_SCENARIO', `Branch to unknown scenario "${step.scenario}"`)
      // Without its own timeout a branch looks once: the preceding wait decided the UI is ready.
      const seen =
        step.timeoutMs === undefined ? await check(ctx, condition) : await waitUntil(ctx, condition, deadline)
      if (!seen.holds) return done({ taken: false, scenario: scenario.name, seen: seen.detail })
      return {
        status: 'SUCCESS',
        result: { taken: true, scenario: scenario.name, seen: seen.detail },
        branchTo: scenario,
      }
    }
  }
}

function done(result: unknown): StepOutcome {
  return { status: 'SUCCESS', result }
}

/** Computes a step's input value; an optional step whose input is missing is skipped instead of failing. */
async function withInput<T>(
  step: { optional?: boolean },
  value: () => T,
  run: (value: T) => Promise<StepOutcome>,
): Promise<StepOutcome> {
  let computed: T
  try {
    computed = value()
  } catch (error) {
    if (step.optional && error instanceof TemplateError && error.code === 'INPUT_MISSING') {
      return { status: 'SKIPPED', result: { skipped: error.message } }
    }
    throw error
  }
  return run(computed)
}

function valueText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)
}

function toList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(valueText) : [valueText(value)]
}

async function check(ctx: RunContext, condition: Condition): Promise<ConditionResult> {
  const snapshot = await ctx.driver.snapshot(await currentWindow(ctx))
  return evaluateCondition(snapshot.root, condition, scopeOf(ctx))
}

/** Re-checks the condition on every UI change until it holds or the deadline passes. */
async function waitUntil(ctx: RunContext, condition: Condition, deadline: number): Promise<ConditionResult> {
  const windowId = await currentWindow(ctx)
  for (;;) {
    const seen = await check(ctx, condition)
    if (seen.holds || !(await waitForChange(ctx, windowId, deadline))) return seen
  }
}

/** Reads text/value; with `extract`, keeps reading after UI changes until the pattern matches. */
async function read(ctx: RunContext, step: Extract<Step, { kind: 'read' }>, deadline: number) {
  const pattern = step.extract === undefined ? undefined : compilePattern(step.extract)
  const pick = (result: ActionResult) => {
    const property = step.property ?? 'auto'
    if (property === 'text') return result.text ?? ''
    if (property === 'value') return result.value ?? ''
    return result.value ?? result.text ?? ''
  }
  const result = await actOn(ctx, step.target, { kind: 'read' }, deadline, (r) =>
    !pattern || pattern.test(pick(r))
      ? undefined
      : fail('EXTRACT_NO_MATCH', `"${pick(r)}" does not match /${step.extract}/`, { selector: step.target }),
  )
  const text = pick(result)
  const match = pattern?.exec(text)
  const value = match ? (match[1] ?? match[0]) : text
  ctx.vars[step.into] = value
  return { [step.into]: value }
}

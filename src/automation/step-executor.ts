// Executes one step. Every wait is "re-check after each UI change until the step's deadline".
import type { Condition, Scenario, Selector, Step } from '../protocol/automation.ts'
import type { ActionResult, UiElement } from '../protocol/elements.ts'
import { actOn, onTarget } from './act-on-target.ts'
import { type ConditionResult, evaluateCondition } from './conditions.ts'
import { indexTree } from './element-tree.ts'
import { RowsError, readRows } from './read-rows.ts'
import {
  checkCancelled,
  currentWindow,
  fail,
  findWindow,
  type RunContext,
  scopeOf,
  untilQuiet,
  waitForChange,
} from './run-context.ts'
import { renderTemplate, resolveTemplate, TemplateError, toBoolean } from './templates.ts'
import { compilePattern, foldText, mapWord } from './text-match.ts'

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
      return done(window.notice ? { window: window.title, notice: window.notice } : { window: window.title })
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
        undefined,
        step.pageWith ? { nextPage: step.pageWith } : {},
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
        // The caller's words become the app's options; the driver then matches them by value or
        // label without case or accents.
        () => toList(resolveTemplate(step.value, scope())).map((v) => mapWord(v, step.valueMap)),
        async (values) => done(await actOn(ctx, step.target, { kind: 'select', values }, deadline)),
      )
    case 'check':
      return withInput(
        step,
        () =>
          typeof step.checked === 'boolean'
            ? step.checked
            : toBoolean(resolveTemplate(step.checked, scope()), step.checked),
        async (checked) =>
          done(
            await actOn(ctx, step.target, { kind: 'check', checked }, deadline, undefined, {
              // A radio picked by the input ("{{answer}}"): the caller's word names the app's radio.
              mapValue: (word) => mapWord(word, step.valueMap),
              fallback: toggleByMeaning,
            }),
          ),
      )
    case 'navigate': {
      const windowId = await currentWindow(ctx)
      const rendered = renderTemplate(step.url, scope())
      const here = (await ctx.driver.listWindows()).find((w) => w.id === windowId)?.url
      let url: string
      try {
        url = new URL(rendered, here && /^https?:|^file:/.test(here) ? here : undefined).href
      } catch {
        throw fail('TEMPLATE_INVALID', `"${rendered}" is not a URL (nor a path relative to the current page)`)
      }
      await ctx.driver.navigate(windowId, url)
      return done({ url })
    }
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
export async function waitUntil(
  ctx: RunContext,
  condition: Condition,
  deadline: number,
): Promise<ConditionResult> {
  const windowId = await currentWindow(ctx)
  for (;;) {
    const seen = await check(ctx, condition)
    if (seen.holds || !(await waitForChange(ctx, windowId, deadline))) return seen
  }
}

/** Reads text/value; with `extract`, keeps reading after UI changes until the pattern matches. */
async function read(ctx: RunContext, step: Extract<Step, { kind: 'read' }>, deadline: number) {
  const value = await readValue(ctx, step, deadline)
  ctx.vars[step.into] = value
  return { [step.into]: value }
}

/** How long an empty read waits for the window to rest before reading again. */
const EMPTY_READ_WAIT_MS = 3_000

async function readValue(
  ctx: RunContext,
  step: Extract<Step, { kind: 'read' }>,
  deadline: number,
): Promise<unknown> {
  const pattern = step.extract === undefined ? undefined : compilePattern(step.extract)
  const extracted = (text: string) => {
    const match = pattern?.exec(text)
    return match ? (match[1] ?? match[0]) : text
  }
  const source = step.source ?? 'element'
  if (source === 'url') return extracted(await readUrl(ctx, pattern, deadline))
  if (!step.target)
    throw fail('INVALID_AUTOMATION', `A read of ${source === 'rows' ? 'rows' : 'an element'} needs a target`)
  if (source === 'rows') {
    return onTarget(ctx, step.target, deadline, async (element) => {
      try {
        return readRows(element, step.columns, { parts: step.parts, cards: step.cards, pluck: step.pluck })
      } catch (error) {
        if (error instanceof RowsError) throw fail('ACTION_FAILED', error.message, { selector: step.target })
        throw error
      }
    })
  }
  const pick = (result: ActionResult) => {
    const property = step.property ?? 'auto'
    if (property === 'text') return result.text ?? ''
    if (property === 'value') return result.value ?? ''
    return result.value ?? result.text ?? ''
  }
  const readOnce = () =>
    actOn(ctx, step.target!, { kind: 'read' }, deadline, (r) =>
      !pattern || pattern.test(pick(r))
        ? undefined
        : fail('EXTRACT_NO_MATCH', `"${pick(r)}" does not match /${step.extract}/`, {
            selector: step.target,
          }),
    )
  let result = await readOnce()
  // A field the app fills by a later request (a record's form drawn before its values arrive)
  // reads empty at first: an empty read is read again once the window is quiet (a few seconds at
  // most: a page that never rests, a clock, must not hold a value that is really empty).
  if (pick(result) === '') {
    await untilQuiet(ctx, Math.min(deadline, performance.now() + EMPTY_READ_WAIT_MS))
    result = await readOnce()
  }
  const text = extracted(pick(result))
  if (step.split === undefined) return text
  return text
    .split(step.split)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** The window's address; with a pattern, keeps looking after UI changes (a redirect) until it matches. */
async function readUrl(ctx: RunContext, pattern: RegExp | undefined, deadline: number): Promise<string> {
  const windowId = await currentWindow(ctx)
  for (;;) {
    const url = (await ctx.driver.listWindows()).find((w) => w.id === windowId)?.url
    if (url === undefined) throw fail('WINDOW_NOT_FOUND', 'The window has no address (or is gone)')
    if (!pattern || pattern.test(url)) return url
    if (!(await waitForChange(ctx, windowId, deadline)))
      throw fail('EXTRACT_NO_MATCH', `The address "${url}" does not match /${pattern.source}/`)
  }
}

/** A radio, checkbox or switch whose name is the selector's name or label without case or accents. */
function toggleByMeaning(root: UiElement, selector: Selector): UiElement | undefined {
  const toggles = new Set(['radio', 'checkbox', 'switch'])
  for (const fingerprint of selector.fingerprints) {
    const wanted =
      fingerprint.by === 'role' && toggles.has(fingerprint.role)
        ? fingerprint.name
        : fingerprint.by === 'label' && (!fingerprint.role || toggles.has(fingerprint.role))
          ? fingerprint.label
          : undefined
    if (wanted === undefined) continue
    const folded = foldText(wanted).replace(/[\s:*]+$/, '')
    const matches = indexTree(root).all.filter((e) => toggles.has(e.role) && foldText(e.name) === folded)
    if (matches.length === 1) return matches[0]
  }
  return undefined
}

// Acting on a selector's element: re-found in a fresh snapshot on every attempt, never cached.
import { DriverError } from '../agent/drivers/driver.ts'
import type { Selector } from '../protocol/automation.ts'
import type { ActionResult, ElementAction, UiElement } from '../protocol/elements.ts'
import {
  currentWindow,
  fail,
  type RunContext,
  type RunFailure,
  scopeOf,
  toRunError,
  waitForChange,
} from './run-context.ts'
import { describeCandidates, describeSelector, renderSelector, resolveSelector } from './selectors.ts'

/** An element action before its target is known (the ref comes from the fresh snapshot). */
export type TargetAction = ElementAction extends infer A
  ? A extends ElementAction
    ? Omit<A, 'ref'>
    : never
  : never

/**
 * Finds the selector's single element in a fresh snapshot and performs the action, retrying
 * after UI changes while the element is missing, disabled, covered or replaced mid-action, or
 * while `accept` refuses the result. Ambiguity fails at once: waiting will not make two matches one.
 */
export async function actOn(
  ctx: RunContext,
  selector: Selector,
  action: TargetAction,
  deadline: number,
  accept?: (result: ActionResult) => RunFailure | undefined,
): Promise<ActionResult> {
  const windowId = await currentWindow(ctx)
  const rendered = renderSelector(selector, scopeOf(ctx))
  const what = describeSelector(rendered)
  const needsEnabled = action.kind !== 'read' && action.kind !== 'focus'
  for (;;) {
    let problem: RunFailure
    const snapshot = await ctx.driver.snapshot(windowId)
    const resolution = resolveSelector(snapshot.root, rendered)
    if (resolution.status === 'ambiguous') {
      const candidates = describeCandidates(snapshot.root, resolution.matches)
      const list = candidates.map((c) => c.text).join('; ')
      throw fail('AMBIGUOUS_SELECTOR', `${what} matches ${candidates.length} elements: ${list}`, {
        selector: rendered,
        candidates,
      })
    }
    if (resolution.status === 'not-found') {
      const candidates = describeCandidates(snapshot.root, nearMisses(snapshot.root, rendered))
      problem = fail('ELEMENT_NOT_FOUND', `No element matches ${what}`, {
        selector: rendered,
        ...(candidates.length ? { candidates } : {}),
      })
    } else if (needsEnabled && resolution.element.states.includes('disabled')) {
      problem = fail('ELEMENT_DISABLED', `${what} is disabled`, { selector: rendered })
    } else {
      try {
        const result = await ctx.driver.act(windowId, {
          ...action,
          ref: resolution.element.ref,
        } as ElementAction)
        const refusal = accept?.(result)
        if (!refusal) return result
        problem = refusal
      } catch (error) {
        if (!(error instanceof DriverError)) throw error
        problem = fail(toRunError(error).code, `${what}: ${error.message}`, { selector: rendered })
        // Unsupported actions, missing options or a lost browser will not heal by waiting.
        if (!error.retryable) throw problem
      }
    }
    if (!(await waitForChange(ctx, windowId, deadline))) throw problem
  }
}

/** Elements of the role the selector looks for: helps a person see what the window offered instead. */
function nearMisses(root: UiElement, selector: Selector): UiElement[] {
  const roles = new Set(selector.fingerprints.flatMap((f) => ('role' in f && f.role ? [f.role] : [])))
  if (roles.size === 0) return []
  const out: UiElement[] = []
  const visit = (e: UiElement) => {
    if (roles.has(e.role) && out.length < 10) out.push(e)
    for (const child of e.children) visit(child)
  }
  visit(root)
  return out
}

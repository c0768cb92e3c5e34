// Acting on a selector's element: re-found in a fresh snapshot on every attempt, never cached.
import type { Selector } from '../protocol/automation.ts'
import { DriverError } from '../protocol/driver.ts'
import type { ActionResult, Bounds, ElementAction, UiElement } from '../protocol/elements.ts'
import {
  currentWindow,
  fail,
  type RunContext,
  RunFailure,
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
  options: TargetOptions = {},
): Promise<ActionResult> {
  const needsEnabled = action.kind !== 'read' && action.kind !== 'focus'
  return onTarget(
    ctx,
    selector,
    deadline,
    async (element, windowId) => {
      const result = await ctx.driver.act(windowId, { ...action, ref: element.ref } as ElementAction)
      const refusal = accept?.(result)
      if (refusal) throw refusal
      return result
    },
    { ...options, needsEnabled },
  )
}

export interface TargetOptions {
  /** Maps each rendered template of the selector (a caller's word → the app's word). */
  mapValue?: (rendered: string) => string
  /** A second look when the selector finds nothing (e.g. names compared without case or accents). */
  fallback?: (root: UiElement, selector: Selector) => UiElement | undefined
  needsEnabled?: boolean
  /** The control that shows the next page of a paged list, clicked while the target is not shown. */
  nextPage?: Selector
}

/** Pages a run turns through looking for its target before it gives up. */
const MAX_PAGES = 100

/**
 * Finds the selector's single element in a fresh snapshot and hands it to `use`, retrying after
 * UI changes while it is missing, disabled or `use` fails in a way waiting can cure (a retryable
 * driver error, or a RunFailure it throws, which is reported if the deadline passes).
 */
export async function onTarget<T>(
  ctx: RunContext,
  selector: Selector,
  deadline: number,
  use: (element: UiElement, windowId: string) => Promise<T>,
  options: TargetOptions = {},
): Promise<T> {
  const windowId = await currentWindow(ctx)
  const rendered = renderSelector(selector, scopeOf(ctx), options.mapValue)
  const what = describeSelector(rendered)
  const pager = options.nextPage && renderSelector(options.nextPage, scopeOf(ctx))
  let pages = 0
  for (;;) {
    let problem: RunFailure
    const snapshot = await ctx.driver.snapshot(windowId)
    let resolution = resolveSelector(snapshot.root, rendered)
    if (resolution.status === 'not-found' && options.fallback) {
      const found = options.fallback(snapshot.root, rendered)
      if (found) resolution = { status: 'found', element: found, fingerprint: -1 }
    }
    if (resolution.status === 'found') noteTarget(ctx, resolution.element, snapshot.root, rendered, options)
    if (resolution.status === 'ambiguous') {
      const candidates = describeCandidates(snapshot.root, resolution.matches)
      const list = candidates.map((c) => c.text).join('; ')
      throw fail('AMBIGUOUS_SELECTOR', `${what} matches ${candidates.length} elements: ${list}`, {
        selector: rendered,
        candidates,
      })
    }
    if (resolution.status === 'not-found' && pager && pages < MAX_PAGES) {
      // Not on this page of the list: show the next one, if there is one.
      const next = resolveSelector(snapshot.root, pager)
      if (next.status === 'found' && !next.element.states.includes('disabled')) {
        pages++
        await ctx.driver.act(windowId, { kind: 'click', ref: next.element.ref })
        continue
      }
    }
    if (resolution.status === 'not-found') {
      const candidates = describeCandidates(snapshot.root, nearMisses(snapshot.root, rendered))
      problem = fail('ELEMENT_NOT_FOUND', `No element matches ${what}`, {
        selector: rendered,
        ...(candidates.length ? { candidates } : {}),
      })
    } else if (options.needsEnabled && resolution.element.states.includes('disabled')) {
      problem = fail('ELEMENT_DISABLED', `${what} is disabled`, { selector: rendered })
    } else {
      try {
        return await use(resolution.element, windowId)
      } catch (error) {
        if (error instanceof RunFailure) problem = error
        else if (!(error instanceof DriverError)) throw error
        else {
          problem = fail(toRunError(error).code, `${what}: ${error.message}`, { selector: rendered })
          // Unsupported actions, missing options or a lost browser will not heal by waiting.
          if (!error.retryable) throw problem
        }
      }
    }
    if (!(await waitForChange(ctx, windowId, deadline))) throw problem
  }
}

/** Remembers the step's element for the replay's outline (see targetInScreenshot in runner.ts). */
function noteTarget(
  ctx: RunContext,
  element: UiElement,
  root: UiElement,
  selector: Selector,
  options: TargetOptions,
): void {
  const box = element.bounds
  ctx.target = {
    bounds: box,
    inView: !!box && inView(box, root, 'whole'),
    find: (later) => {
      const again = resolveSelector(later, selector)
      if (again.status === 'found') return again.element
      return again.status === 'not-found' ? options.fallback?.(later, selector) : undefined
    },
  }
}

/**
 * Whether a box (window pixels) is shown in the window: wholly, or at least in part. The visible
 * area starts at 0,0 and has the root's size (the browser driver reports the root's box moved by
 * the page's scrolling, so only its size is to be trusted). Without a root box, it is assumed shown.
 */
export function inView(box: Bounds, root: UiElement, how: 'whole' | 'part'): boolean {
  const view = root.bounds
  if (!view) return true
  return how === 'whole'
    ? box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width && box.y + box.height <= view.height
    : box.x < view.width && box.y < view.height && box.x + box.width > 0 && box.y + box.height > 0
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

// State shared by the steps of one run, and the two waiting primitives every step uses:
// "find my window" and "wait for the next UI change, but not past my deadline".
import type {
  AppSpec,
  Automation,
  Candidate,
  RunError,
  RunErrorCode,
  Selector,
} from '../protocol/automation.ts'
import { type Driver, DriverError } from '../protocol/driver.ts'
import type { Bounds, UiElement, WindowInfo } from '../protocol/elements.ts'
import { renderTemplate, TemplateError, type TemplateScope } from './templates.ts'
import { PatternError } from './text-match.ts'
import { describeWindowSpec, matchWindows } from './window-match.ts'

export interface RunContext {
  driver: Driver
  automation: Automation
  input: Record<string, unknown>
  /** Values stored by `read` steps: outputs, and template variables for later steps. */
  vars: Record<string, unknown>
  windowId?: string
  defaultStepTimeoutMs: number
  recheckMs: number
  signal?: AbortSignal
  /** The element the current step acted on or read (the latest one found), for the replay's outline. */
  target?: SeenTarget
}

export interface SeenTarget {
  /** Its box in the snapshot it was found in (window pixels, as the driver's screenshots). */
  bounds?: Bounds
  /** Wholly inside the window's visible area then, so acting on it scrolled nothing. */
  inView: boolean
  /** Finds it again in a later snapshot (the same selector and fallback). */
  find(root: UiElement): UiElement | undefined
}

/** Ends the current step (and the run) with a RunError. */
export class RunFailure extends Error {
  override readonly name = 'RunFailure'
  constructor(readonly error: RunError) {
    super(error.message)
  }
}

export function fail(
  code: RunErrorCode,
  message: string,
  extra: { selector?: Selector; candidates?: Candidate[] } = {},
): RunFailure {
  return new RunFailure({ code, message, ...extra })
}

/** Maps anything a step threw onto the run's error vocabulary. */
export function toRunError(error: unknown): RunError {
  if (error instanceof RunFailure) return error.error
  if (error instanceof TemplateError) return { code: error.code, message: error.message }
  if (error instanceof PatternError) return { code: 'INVALID_AUTOMATION', message: error.message }
  if (error instanceof DriverError) {
    switch (error.code) {
      case 'ELEMENT_DISABLED':
      case 'ELEMENT_OBSCURED':
      case 'WINDOW_NOT_FOUND':
        return { code: error.code, message: error.message }
      case 'STALE_REF':
        return { code: 'ELEMENT_NOT_FOUND', message: error.message }
      case 'OPTION_NOT_FOUND':
      case 'NAVIGATION_BLOCKED':
      case 'LAUNCH_FAILED':
      case 'DESKTOP_LOCKED':
        return { code: error.code, message: error.message }
      case 'UNSUPPORTED_ACTION':
      case 'BLOCKED_BY_DIALOG':
        return { code: 'ACTION_FAILED', message: error.message }
      default:
        return { code: 'DRIVER_ERROR', message: `${error.code}: ${error.message}` }
    }
  }
  return { code: 'DRIVER_ERROR', message: error instanceof Error ? error.message : String(error) }
}

export function scopeOf(ctx: RunContext): TemplateScope {
  return { ...ctx.input, ...ctx.vars }
}

export function checkCancelled(ctx: RunContext): void {
  if (ctx.signal?.aborted)
    throw fail('CANCELLED', `The run was cancelled: ${String(ctx.signal.reason ?? 'no reason')}`)
}

/** Waits for the next change in the window, at most until the deadline (and recheckMs); false once the deadline passed. */
export async function waitForChange(ctx: RunContext, windowId: string, deadline: number): Promise<boolean> {
  checkCancelled(ctx)
  const remaining = deadline - performance.now()
  if (remaining <= 0) return false
  await ctx.driver.waitForChange(windowId, Math.min(remaining, ctx.recheckMs))
  checkCancelled(ctx)
  return true
}

/** The window steps act on: the one launched or focused last, else the one the app spec names. */
export async function currentWindow(ctx: RunContext): Promise<string> {
  if (ctx.windowId) return ctx.windowId
  const window = await findWindow(ctx, ctx.automation.app)
  ctx.windowId = window.id
  return window.id
}

export async function findWindow(ctx: RunContext, spec: AppSpec): Promise<WindowInfo> {
  const scope = scopeOf(ctx)
  const render = (template: string | undefined) =>
    template === undefined ? undefined : renderTemplate(template, scope)
  const rendered = { ...spec, url: render(spec.url), titleContains: render(spec.titleContains) }
  const windows = matchWindows(await ctx.driver.listWindows(), rendered)
  if (windows.length === 0)
    throw fail(
      'WINDOW_NOT_FOUND',
      `No window ${describeWindowSpec(rendered) || 'is open'}; add a launch step?`,
    )
  if (windows.length > 1) {
    const list = windows.map((w) => `"${w.title}"`).join(', ')
    throw fail('WINDOW_NOT_FOUND', `Several windows match (${list}); narrow the app spec with titleContains`)
  }
  return windows[0]!
}

/** How long a window stays unchanged before the screen an action led to counts as arrived. */
const QUIET_MS = 400

/**
 * Waits until the window has been quiet for a moment (a password box that slides in has arrived,
 * or the app went on without asking for it; a field filled by a later request), at most until the
 * deadline: a guarded step of a sign-in in two steps is judged on that screen, and an empty read
 * is read again there.
 */
export async function untilQuiet(ctx: RunContext, deadline: number): Promise<void> {
  const windowId = await currentWindow(ctx)
  while (performance.now() < deadline) {
    const left = deadline - performance.now()
    if ((await ctx.driver.waitForChange(windowId, Math.min(QUIET_MS, left))) === 'timeout') return
  }
}

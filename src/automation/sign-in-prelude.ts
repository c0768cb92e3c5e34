// The rules the runner follows around an app's sign-in form (automation.signIn): when to look
// for it, which failures it may explain, what a run without credentials says, and where to go
// back to after signing in. The runner (runner.ts) performs and reports the steps.
import type { Automation, RunError, SignIn, Step } from '../protocol/automation.ts'
import type { UiElement } from '../protocol/elements.ts'
import { evaluateCondition } from './conditions.ts'
import { currentWindow, type RunContext, scopeOf, waitForChange } from './run-context.ts'
import { renderSelector, resolveSelector } from './selectors.ts'
import { asksToSignIn, signInForm } from './sign-in-form.ts'
import { lookupPath } from './templates.ts'

/** Sign-ins one run may make: one at the start, one for a session that expires on the way. */
export const MAX_SIGN_INS = 2

/** Failures of a step that met another screen than it expects: the sign-in form, maybe. */
const MISSED = new Set<RunError['code']>([
  'ELEMENT_NOT_FOUND',
  'WAIT_TIMEOUT',
  'ASSERTION_FAILED',
  'EXTRACT_NO_MATCH',
])

export function missedTarget(error: RunError): boolean {
  return MISSED.has(error.code)
}

/** A step that acts on what the app shows (not the launch, not bringing a window forward). */
export function actsOnApp(step: Step): boolean {
  return step.kind !== 'launch' && !(step.kind === 'focus' && !step.target)
}

/** Whether the window shows the sign-in form now (one look; no window yet: no). */
export async function signInShown(ctx: RunContext, signIn: SignIn): Promise<boolean> {
  try {
    const snapshot = await ctx.driver.snapshot(await currentWindow(ctx))
    // The learnt password field, on a screen shaped like a sign-in: a new user's form has a
    // "Password" field too, and the job's own credentials never go into it.
    return evaluateCondition(snapshot.root, signIn.when, scopeOf(ctx)).holds && asksToSignIn(snapshot.root)
  } catch {
    return false
  }
}

/** Waits (up to the default step deadline) for the sign-in form to go; false when it stays. */
export async function signInGone(ctx: RunContext, signIn: SignIn): Promise<boolean> {
  const deadline = performance.now() + ctx.defaultStepTimeoutMs
  const windowId = await currentWindow(ctx)
  for (;;) {
    if (!(await signInShown(ctx, signIn))) return true
    if (!(await waitForChange(ctx, windowId, deadline))) return false
  }
}

/** `{{$secrets.NAME}}` names the steps use. */
export function secretNames(steps: Step[]): string[] {
  const names = [...JSON.stringify(steps).matchAll(/\{\{\s*\$secrets\.([\w-]+)/g)].map((m) => m[1]!)
  return [...new Set(names)]
}

/** The secrets the steps need that the run's input lacks. */
export function missingSecrets(steps: Step[], input: Record<string, unknown>): string[] {
  return secretNames(steps).filter((name) => {
    const value = lookupPath(input, `$secrets.${name}`)
    return value === undefined || value === null || value === ''
  })
}

// The server puts the job's own method and path in place of `<METHOD> <path>` (the agent knows neither).
const STORE =
  'Store them for the job with `deskhook jobs secret set <METHOD> <path> <name>` (the value is prompted for, or read from stdin)'

/** The run cannot sign in: the job's credentials are not stored (or not sent with this run). */
export function credentialsMissing(names: string[], step?: string): RunError {
  const listed = names.map((n) => `“${n}”`).join(', ')
  return {
    code: 'SIGN_IN_REQUIRED',
    message:
      `The app shows its sign-in form, and this run has no credentials for it: the job’s secret${names.length > 1 ? 's' : ''} ${listed} ${names.length > 1 ? 'are' : 'is'} not set. ` +
      `${STORE}, for each of ${listed}, then call again.`,
    ...(step ? { step } : {}),
  }
}

/** The app shows a sign-in form that the job never learned (it was taught on a signed-in desktop). */
export function noSignInSteps(field: string, step?: string): RunError {
  return {
    code: 'SIGN_IN_REQUIRED',
    message:
      `The app shows a sign-in form (a “${field}” field), and the job has no sign-in steps. ` +
      `${STORE} (e.g. username and password), then teach the job again: a build of a job with credentials signs the desktop’s browser out of the app first, so it learns the sign-in.`,
    ...(step ? { step } : {}),
  }
}

/** Signing in with the stored credentials left the sign-in form on the screen. */
export function signInRefused(names: string[], step?: string): RunError {
  return {
    code: 'SIGN_IN_REQUIRED',
    message:
      `Signing in with the job’s stored ${names.map((n) => `“${n}”`).join(', ') || 'credentials'} did not get past the sign-in form: ` +
      `check them. ${STORE}.`,
    ...(step ? { step } : {}),
  }
}

/** The app kept ending the session: it showed its sign-in form again after every sign-in allowed. */
export function signedOutAgain(step?: string): RunError {
  return {
    code: 'SIGN_IN_REQUIRED',
    message: `The app showed its sign-in form again after ${MAX_SIGN_INS} sign-ins in this run: its sessions end too soon (or another sign-in elsewhere ends them).`,
    ...(step ? { step } : {}),
  }
}

/**
 * A sign-in form on the screen that is none of the job's own fields: the reason a job without
 * sign-in steps missed its target. A form the job itself fills (a "change password" page) is not.
 */
export function foreignSignInForm(
  root: UiElement,
  automation: Automation,
  scope: Record<string, unknown>,
): string | undefined {
  const form = signInForm(root)
  if (!form) return undefined
  const steps = [...automation.steps, ...automation.scenarios.flatMap((s) => s.steps)]
  // A job that uses its credentials in its own path (unguarded) signs in there itself.
  if (secretNames(steps.filter((s) => !s.onlyIf)).length) return undefined
  const own = steps.some((step) => {
    if (!('target' in step) || !step.target || step.onlyIf) return false
    try {
      const found = resolveSelector(root, renderSelector(step.target, scope))
      return found.status === 'found' && found.element === form.password
    } catch {
      return false
    }
  })
  return own ? undefined : form.password.name || 'password'
}

/** The last `navigate` before the step at `index`: where to go back to after signing in. */
export function lastNavigate(steps: Step[], index: number): Step | undefined {
  return steps.slice(0, index).findLast((s) => s.kind === 'navigate')
}

/** A failure of an old job's guarded sign-in step (`onlyIf`) for want of `$secrets`. */
export function guardedStepWithoutSecrets(step: Step, error: RunError): boolean {
  return (
    error.code === 'INPUT_MISSING' && step.onlyIf !== undefined && /"\$secrets\.[\w-]+"/.test(error.message)
  )
}

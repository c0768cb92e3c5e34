// A sign-in screen in front of the app. The builder signs in with the job's stored credentials
// (`deskhook jobs secret set … username|password`: values live in memory only, the automation
// holds `{{$secrets.password}}`), and keeps the steps as the automation's guarded `signIn`
// prelude, which the runner performs whenever the form shows (at the start, or when a session
// ends mid-run). So that the form shows at all, a build of a job with credentials first signs the
// desktop's browser out of the app. Without credentials the build stops and says how to give it
// a way in.

import { evaluateCondition } from '../../automation/conditions.ts'
import {
  asksToSignIn,
  identifierFirst,
  type SignInForm,
  signInForm,
  USER,
} from '../../automation/sign-in-form.ts'
import { renderTemplate } from '../../automation/templates.ts'
import type { AppSpec, Automation, Condition, Selector, SignIn, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../protocol/elements.ts'
import { performStep } from '../observe/observe.ts'
import { designSelector } from '../selector-design.ts'
import { BuildFailure, type BuildSession } from '../session.ts'

export { type SignInForm, signInForm }

/** The sign-in each build learnt, by session: it becomes the automation's `signIn` prelude. */
const learnt = new WeakMap<BuildSession, SignIn>()

/** The sign-in prelude this build learnt (none when the app never asked). */
export function learntSignIn(session: BuildSession): SignIn | undefined {
  return learnt.get(session)
}

function pick(names: string[], pattern: RegExp): string | undefined {
  return names.find((n) => pattern.test(n))
}

/**
 * Signs in when the screen asks to; returns the steps (each only when the form is shown) and the
 * screen after. Undefined when the screen is no sign-in.
 */
export async function signIn(
  session: BuildSession,
  screen: Snapshot,
): Promise<{ steps: Step[]; screen: Snapshot } | undefined> {
  const form = signInForm(screen.root)
  if (!form) {
    const first = identifierFirst(screen.root)
    return first ? twoStepSignIn(session, screen, first) : undefined
  }
  const { userName, passwordName } = credentials(session, screen, form.password.name, !!form.user)
  const shown: Condition = {
    kind: 'appears',
    target: designSelector(screen.root, form.password, 'the password field'),
  }
  const steps: Step[] = []
  if (form.user)
    steps.push({
      kind: 'fill',
      name: `Sign in: fill “${form.user.name || 'user name'}”`,
      target: designSelector(screen.root, form.user, `the “${form.user.name || 'user'}” field`),
      value: `{{$secrets.${userName}}}`,
      onlyIf: shown,
    })
  steps.push({
    kind: 'fill',
    name: `Sign in: fill “${form.password.name || 'password'}”`,
    target: designSelector(screen.root, form.password, 'the password field'),
    value: `{{$secrets.${passwordName}}}`,
    onlyIf: shown,
  })
  steps.push(
    form.button
      ? {
          kind: 'click',
          name: `Sign in: click “${form.button.name}”`,
          target: designSelector(screen.root, form.button, `the “${form.button.name}” button`),
          onlyIf: shown,
        }
      : {
          kind: 'keys',
          name: 'Sign in: press Enter',
          target: designSelector(screen.root, form.password, 'the password field'),
          keys: 'Enter',
          onlyIf: shown,
        },
  )
  session.progress(
    'explore',
    `“${screen.window.title}” asks to sign in; signing in with the job’s stored ${userName ? `“${userName}” and ` : ''}“${passwordName}” (the steps run only when the form shows)`,
  )
  const after = await replaySignIn(session, steps, screen)
  if (asksToSignIn(after.root)) refused(session, screen, passwordName)
  // The prelude as a whole is guarded by the form; its steps need no guard of their own.
  learnt.set(session, { when: shown, steps: steps.map(unguarded) })
  return { steps, screen: after }
}

const unguarded = ({ onlyIf: _, ...step }: Step) => step as Step

/** The job's secrets that sign in (their names), or the failure that says how to give them. */
function credentials(
  session: BuildSession,
  screen: Snapshot,
  field: string,
  needsUser: boolean,
): { userName?: string; passwordName: string } {
  const names = session.request.secretNames ?? []
  const passwordName = pick(names, /pass/i)
  const userName =
    pick(
      names.filter((n) => n !== passwordName),
      USER,
    ) ?? names.find((n) => n !== passwordName)
  const { method, path } = session.request.route ?? { method: 'METHOD', path: '/path' }
  if (!passwordName || (needsUser && !userName))
    throw new BuildFailure(
      'SIGN_IN_REQUIRED',
      `“${screen.window.title}” asks to sign in first (a “${field || 'password'}” field), and the job has no credentials for it. ` +
        'Either keep the desktop’s browser signed in to the app (start the agent with --profile-dir, sign in once, or attach it to your own browser with --devtools-url), ' +
        `or store credentials for the job: deskhook jobs secret set ${method} ${path} username, then … password; and teach again.`,
    )
  return { ...(userName ? { userName } : {}), passwordName }
}

function refused(session: BuildSession, screen: Snapshot, passwordName: string): never {
  const { method, path } = session.request.route ?? { method: 'METHOD', path: '/path' }
  throw new BuildFailure(
    'SIGN_IN_REQUIRED',
    `Signing in to “${screen.window.title}” with the job’s stored credentials did not get past the sign-in form. ` +
      `Check them with deskhook jobs secret set ${method} ${path} ${passwordName}.`,
  )
}

/** A sign-in box found by its name or id: by its place, the other screen's box would be taken for it. */
function byNameOrId(selector: Selector): Selector {
  const named = selector.fingerprints.filter((f) => f.by !== 'path')
  return named.length ? { ...selector, fingerprints: named } : selector
}

/**
 * A sign-in in two steps: the user name alone, then (on the next screen) the password. The user
 * name's steps run only while its box shows, as an app that remembers who signed in asks only
 * for the password when the session ends; the prelude runs when either screen shows.
 */
async function twoStepSignIn(
  session: BuildSession,
  screen: Snapshot,
  first: { user: UiElement; button?: UiElement },
): Promise<{ steps: Step[]; screen: Snapshot }> {
  const { userName, passwordName } = credentials(session, screen, first.user.name, true)
  const userShown: Condition = {
    kind: 'appears',
    target: byNameOrId(designSelector(screen.root, first.user, `the “${first.user.name || 'user'}” field`)),
  }
  const userSteps: Step[] = [
    {
      kind: 'fill',
      name: `Sign in: fill “${first.user.name || 'user name'}”`,
      target: userShown.target,
      value: `{{$secrets.${userName}}}`,
      onlyIf: userShown,
    },
    first.button
      ? {
          kind: 'click',
          name: `Sign in: click “${first.button.name}”`,
          target: designSelector(screen.root, first.button, `the “${first.button.name}” button`),
          onlyIf: userShown,
        }
      : {
          kind: 'keys',
          name: 'Sign in: press Enter',
          target: userShown.target,
          keys: 'Enter',
          onlyIf: userShown,
        },
  ]
  session.progress(
    'explore',
    `“${screen.window.title}” asks to sign in in two steps (the user name first); signing in with the job’s stored “${userName}” and “${passwordName}” (the steps run only when the form shows)`,
  )
  const scope = session.scope(session.request.sample.input)
  for (const step of userSteps) await performStep(session, step, scope)
  const next = await session.settle(screen.root)
  const form = signInForm(next.root)
  if (!form) {
    // The app remembered the session and went on without the password: signed in. The steps
    // learnt when it did ask (an earlier sign-in of this build) stay the prelude.
    const known = learnt.get(session)
    if (known && !asksToSignIn(next.root) && !identifierFirst(next.root))
      return { steps: known.steps, screen: next }
    refused(session, screen, passwordName)
  }
  const passwordShown: Condition = {
    kind: 'appears',
    target: byNameOrId(designSelector(next.root, form.password, 'the password field')),
  }
  const passwordSteps: Step[] = [
    {
      kind: 'fill',
      name: `Sign in: fill “${form.password.name || 'password'}”`,
      target: passwordShown.target,
      value: `{{$secrets.${passwordName}}}`,
      onlyIf: passwordShown,
    },
    form.button
      ? {
          kind: 'click',
          name: `Sign in: click “${form.button.name}”`,
          target: designSelector(next.root, form.button, `the “${form.button.name}” button`),
          onlyIf: passwordShown,
        }
      : {
          kind: 'keys',
          name: 'Sign in: press Enter',
          target: passwordShown.target,
          keys: 'Enter',
          onlyIf: passwordShown,
        },
  ]
  for (const step of passwordSteps) await performStep(session, step, scope)
  const after = await session.settle(next.root)
  if (asksToSignIn(after.root)) refused(session, screen, passwordName)
  // Each screen's steps keep their guard: an app whose session is still alive goes on after the
  // user name without asking for the password (the runner judges each guard once the screen
  // before it has arrived).
  learnt.set(session, {
    when: { kind: 'anyOf', conditions: [userShown, passwordShown] },
    steps: [...userSteps, ...passwordSteps],
  })
  return { steps: [...userSteps, ...passwordSteps], screen: after }
}

/**
 * A job with credentials starts its build signed out of the app, the way a fresh desktop (an
 * agent restarted, a session expired) meets it, so its sign-in is always learnt. Only the app's
 * own origin in the agent's own browser is cleared; native apps keep nothing to clear.
 */
export async function signOutFirst(session: BuildSession, window: WindowInfo): Promise<void> {
  if (!session.request.secretNames?.length || !session.port.clearSession || !window.url) return
  let origin: string
  try {
    origin = new URL(window.url).origin
  } catch {
    return
  }
  if (origin === 'null') return
  signedOut.add(session)
  const cleared = await session
    .desktop('Signing out of the app', () => session.port.clearSession!(window.id))
    .catch(() => false)
  session.progress(
    'locate',
    cleared
      ? `The job signs in with its credentials: the desktop’s browser was signed out of ${origin} first (its cookies and stored data), so the build learns the sign-in`
      : `The job signs in with its credentials, but the desktop did not sign its browser out of ${origin} (a browser the agent attached to is left as it is): the build learns a sign-in only if the app asks for one`,
  )
}

/** Builds whose browser was signed out of the app at their start (or that tried to). */
const signedOut = new WeakSet<BuildSession>()

/**
 * A job whose credentials arrived while its build ran (stored just after the teaching call) began
 * signed in and learnt no sign-in: before composing, it signs the browser out of the app and
 * learns the sign-in now, so that its runs get past the form too.
 */
export async function learnLateSignIn(session: BuildSession, app: AppSpec, returnTo?: string): Promise<void> {
  if (learnt.has(session) || signedOut.has(session)) return
  if (!session.request.secretNames?.length || !session.port.clearSession || !app.url) return
  session.progress(
    'locate',
    'The job’s credentials arrived after the build began signed in; signing out to learn the sign-in',
  )
  await signOutFirst(session, await session.launch(app))
  await session.launch(app)
  await signIn(session, await session.settle())
  // A question about the outcome is asked on the screen it was read from: the page the sample
  // ended on is opened again (an address the app itself showed, opened as a person would).
  if (returnTo && sameOrigin(returnTo, app.url)) {
    await session.navigate(returnTo)
    await session.settle()
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

/**
 * An existing job's automation, with the sign-in prelude this build learnt when it has none (it
 * was taught on a signed-in desktop): the old guarded sign-in steps make way for it.
 */
export function withLearntSignIn(session: BuildSession, automation: Automation): Automation {
  if (automation.signIn) return automation
  const { signIn, steps } = splitSignIn(session, automation.steps)
  return signIn ? { ...automation, signIn, steps } : automation
}

/** The steps without the guarded sign-in steps this build learnt, and the prelude they become. */
export function splitSignIn(session: BuildSession, steps: Step[]): { signIn?: SignIn; steps: Step[] } {
  const signIn = learnt.get(session)
  if (!signIn) return { steps }
  const names = new Set(signIn.steps.map((s) => s.name))
  return { signIn, steps: steps.filter((s) => !(s.onlyIf && names.has(s.name))) }
}

/** Performs the sign-in steps if the form is on screen; returns the settled screen after. */
export async function replaySignIn(
  session: BuildSession,
  steps: Step[],
  screen?: Snapshot,
): Promise<Snapshot> {
  const now = screen ?? (await session.settle())
  if (steps.length === 0 || !asksToSignIn(now.root)) return now
  const scope = session.scope(session.request.sample.input)
  for (const step of steps) {
    // A two-step sign-in's user name steps run only while its box shows (twoStepSignIn).
    if (step.onlyIf && !evaluateCondition((await session.snapshot()).root, step.onlyIf, scope).holds) continue
    await performStep(session, step, scope)
    // A click may bring the next screen of the sign-in (the password after the user name).
    if (step.kind === 'click' || step.kind === 'keys') await session.settle()
  }
  return session.settle(now.root)
}

/**
 * Before a later sample of a job with credentials: sign the browser out of the app, and learn the
 * sign-in the job lacks (one taught on a signed-in desktop). A job with a prelude is left to it:
 * the probe run signs in the way live runs do.
 */
export async function signInBeforeExtending(
  session: BuildSession,
  automation: Automation,
): Promise<Automation> {
  if (!session.request.secretNames?.length || !session.port.clearSession || !automation.app.url)
    return automation
  const scope = session.scope(session.request.sample.input)
  let app: Automation['app']
  try {
    app = { ...automation.app, url: renderTemplate(automation.app.url, scope) }
  } catch {
    return automation
  }
  await signOutFirst(session, await session.launch(app))
  if (automation.signIn) return automation
  await session.launch(app)
  await signIn(session, await session.settle())
  return withLearntSignIn(session, automation)
}

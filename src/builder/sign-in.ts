// A sign-in screen in front of the app. The builder signs in with the job's stored credentials
// (`deskhook jobs secret set … username|password`: values live in memory only, the automation
// holds `{{$secrets.password}}`), and the steps run only when the form is there, so a desktop
// whose browser stays signed in skips them. Without credentials the build stops and says how
// to give it a way in.
import { indexTree } from '../automation/index.ts'
import type { Condition, Step } from '../protocol/automation.ts'
import type { Snapshot, UiElement } from '../protocol/elements.ts'
import { performStep } from './observe.ts'
import { designSelector } from './selector-design.ts'
import { BuildFailure, type BuildSession } from './session.ts'

const PASSWORD = /pass(word|phrase|code)?|passwort|mot de passe|contraseña|pin\b/i
const USER = /user|login|e-?mail|account|name|id\b|benutzer|identifiant/i
const SIGN_IN = /^(sign|log)\s*-?\s*in$|^login$|^continue$|^submit$|^enter$|^anmelden$|^connexion$/i

export interface SignInForm {
  user?: UiElement
  password: UiElement
  button?: UiElement
}

/** The screen's sign-in form: a password box, the box before it, and the button that sends them. */
export function signInForm(root: UiElement): SignInForm | undefined {
  const all = indexTree(root).all
  const boxes = all.filter((e) => e.role === 'textbox' && !e.states.includes('disabled'))
  const password = boxes.find(
    (e) =>
      e.inputType === 'password' || PASSWORD.test(`${e.name} ${e.placeholder ?? ''} ${e.automationId ?? ''}`),
  )
  if (!password) return undefined
  // A form with many fields and a password (a sign-up, a settings page) is not a sign-in.
  if (boxes.length > 3) return undefined
  const before = boxes.slice(0, boxes.indexOf(password))
  const user =
    before.findLast((e) => USER.test(`${e.name} ${e.placeholder ?? ''} ${e.automationId ?? ''}`)) ??
    before.at(-1)
  const buttons = all.filter((e) => e.role === 'button' && e.name.trim() !== '')
  const button =
    buttons.find((b) => SIGN_IN.test(b.name.trim())) ?? (buttons.length === 1 ? buttons[0] : undefined)
  return { ...(user ? { user } : {}), password, ...(button ? { button } : {}) }
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
  if (!form) return undefined
  const names = session.request.secretNames ?? []
  const passwordName = pick(names, /pass/i)
  const userName =
    pick(
      names.filter((n) => n !== passwordName),
      USER,
    ) ?? names.find((n) => n !== passwordName)
  const { method, path } = session.request.route ?? { method: 'METHOD', path: '/path' }
  if (!passwordName || (form.user && !userName))
    throw new BuildFailure(
      'SIGN_IN_REQUIRED',
      `“${screen.window.title}” asks to sign in first (a “${form.password.name || 'password'}” field), and the job has no credentials for it. ` +
        'Either keep the desktop’s browser signed in to the app (start the agent with --profile-dir, sign in once, or attach it to your own browser with --devtools-url), ' +
        `or store credentials for the job: deskhook jobs secret set ${method} ${path} username, then … password; and teach again.`,
    )
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
  if (signInForm(after.root))
    throw new BuildFailure(
      'SIGN_IN_REQUIRED',
      `Signing in to “${screen.window.title}” with the job’s stored credentials did not get past the sign-in form. ` +
        `Check them with deskhook jobs secret set ${method} ${path} ${passwordName}.`,
    )
  return { steps, screen: after }
}

/** Performs the sign-in steps if the form is on screen; returns the settled screen after. */
export async function replaySignIn(
  session: BuildSession,
  steps: Step[],
  screen?: Snapshot,
): Promise<Snapshot> {
  const now = screen ?? (await session.settle())
  if (steps.length === 0 || !signInForm(now.root)) return now
  const scope = session.scope(session.request.sample.input)
  for (const step of steps) await performStep(session, step, scope)
  return session.settle(now.root)
}

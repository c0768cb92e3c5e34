// What a sign-in form looks like, in UI terms: a password box, at most two other text boxes (the
// user name before it), and the button that sends them; or the first screen of a sign-in in two
// steps, a user name (or e-mail) box alone under words that say sign in, whose password is asked
// on the next screen. The builder learns a job's sign-in from it; the runner uses it to tell "the
// app asks to sign in" from "the control is missing".
import type { UiElement } from '../protocol/elements.ts'
import { indexTree } from './element-tree.ts'

const PASSWORD = /pass(word|phrase|code)?|passwort|mot de passe|contraseña|pin\b/i
export const USER = /user|login|e-?mail|account|name|id\b|benutzer|identifiant/i
const SIGN_IN = /^(sign|log)\s*-?\s*in$|^login$|^unlock$|^continue$|^submit$|^enter$|^anmelden$|^connexion$/i
/** Words that say two secret boxes set a password (typed twice, or the current one and a new one). */
const AGAIN =
  /\b(confirm\w*|again|repeat\w*|re-?type|re-?enter|verify|verification|new|current|old|bestätig\w*|wiederhol\w*)\b/i

/** Controls a person acts with, whose names are commands rather than words about a form. */
const ACTING_ROLES = new Set<UiElement['role']>([
  'button',
  'link',
  'menuitem',
  'tab',
  'option',
  'checkbox',
  'radio',
])

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
  // A form with many fields and a password (a sign-up, a settings page) is not a sign-in, nor is
  // one that asks for a password twice (a new account's, a changed one's: "Password confirmation").
  if (boxes.length > 3) return undefined
  // Two secret boxes are a sign-in only when nothing says they set a password (typed twice, or
  // the current one and a new one): an unlock screen's optional key file is a second secret box.
  // The words are the form's own (its texts, its boxes' names and hints), not a control's: a
  // toolbar's "New Entry…" beside an unlock screen says nothing about its boxes.
  const says = (e: UiElement) =>
    (e.role === 'textbox' || !ACTING_ROLES.has(e.role)) && AGAIN.test(`${e.name} ${e.placeholder ?? ''}`)
  if (boxes.filter((e) => e.inputType === 'password').length > 1 && all.some(says)) return undefined
  const before = boxes.slice(0, boxes.indexOf(password))
  const user =
    before.findLast((e) => USER.test(`${e.name} ${e.placeholder ?? ''} ${e.automationId ?? ''}`)) ??
    before.at(-1)
  const buttons = all.filter((e) => e.role === 'button' && e.name.trim() !== '')
  const button =
    buttons.find((b) => SIGN_IN.test(b.name.trim())) ?? (buttons.length === 1 ? buttons[0] : undefined)
  return { ...(user ? { user } : {}), password, ...(button ? { button } : {}) }
}

/** Words of a screen (its title, a heading, a dialog, a button) that say it signs people in. */
const SAYS_SIGN_IN = /\b(sign|log)\s*-?\s*in\b|\blogin\b|\banmelden\b|\bconnexion\b/i
/** A box for who signs in: a user name, a login, an e-mail or account (a bare "Name" is not one). */
const WHO = /user|login|e-?mail|account|identifier|benutzer|identifiant/i
const NEXT = /^(next|continue|weiter|suivant)$/i

/**
 * The first screen of a sign-in in two steps (the user name first, the password on the next
 * screen): one text box for who signs in, no password box, and words on the screen that say
 * sign in. Undefined for any other screen.
 */
export function identifierFirst(root: UiElement): { user: UiElement; button?: UiElement } | undefined {
  const all = indexTree(root).all
  // Boxes to type in: a read-only one shows something (the database signed in to), asks nothing.
  const boxes = all.filter(
    (e) => e.role === 'textbox' && !e.states.includes('disabled') && !e.states.includes('readonly'),
  )
  const says = (e: UiElement) => `${e.name} ${e.placeholder ?? ''} ${e.automationId ?? ''}`
  if (boxes.length !== 1 || boxes.some((e) => e.inputType === 'password' || PASSWORD.test(says(e))))
    return undefined
  const user = boxes[0]!
  if (!WHO.test(says(user))) return undefined
  const signs = [root, ...all].some(
    (e) =>
      (e === root || e.role === 'heading' || e.role === 'dialog' || e.role === 'button') &&
      SAYS_SIGN_IN.test(e.name),
  )
  if (!signs) return undefined
  const buttons = all.filter((e) => e.role === 'button' && e.name.trim() !== '')
  const button =
    buttons.find((b) => SIGN_IN.test(b.name.trim()) || NEXT.test(b.name.trim())) ??
    (buttons.length === 1 ? buttons[0] : undefined)
  return { user, ...(button ? { button } : {}) }
}

/** The screen asks to sign in: a whole sign-in form, or the first screen of one in two steps. */
export function asksToSignIn(root: UiElement): boolean {
  return signInForm(root) !== undefined || identifierFirst(root) !== undefined
}

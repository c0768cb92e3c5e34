// What a sign-in form is, on a desktop app's unlock screen (issue 24: a password manager's unlock
// screen has a second secret box for an optional key file, and "Unlock" sends it).
import { describe, expect, test } from 'bun:test'
import { signInForm } from '../../src/automation/sign-in-form.ts'
import type { UiElement } from '../../src/protocol/elements.ts'

let refs = 0
const el = (
  role: UiElement['role'],
  name: string,
  extra: Partial<UiElement> = {},
  children: UiElement[] = [],
) => ({ ref: `e${++refs}`, role, name, states: [], children, ...extra }) as UiElement

describe('a sign-in form', () => {
  test('an unlock screen: the first secret box is the password, a key file’s secret box beside it is optional, “Unlock” sends', () => {
    const password = el('textbox', '', { inputType: 'password', value: '' })
    const unlock = el('button', 'Unlock')
    const root = el('window', 'Passwords.kdbx [Locked]', {}, [
      // The main window's tool bar beside it: its commands say nothing about the form's boxes.
      el('toolbar', '', {}, [
        el('button', 'New Entry…', { states: ['disabled'] }),
        el('menuitem', 'Change Password'),
      ]),
      el('textbox', '', { states: ['disabled'], value: '' }),
      el('text', 'Enter Password:'),
      el('generic', 'Password field', {}, [password]),
      el('text', 'Key File:'),
      el('generic', 'Key file to unlock the database', {}, [
        el('textbox', '', { inputType: 'password', value: '' }),
      ]),
      el('button', 'Browse for key file'),
      unlock,
      el('button', 'Close'),
    ])
    expect(signInForm(root)).toEqual({ password, button: unlock })
  })

  test('two secret boxes the screen says set a password (typed twice, or current and new) are no sign-in', () => {
    const root = el('window', 'New database', {}, [
      el('text', 'Password:'),
      el('textbox', '', { inputType: 'password', value: '' }),
      el('text', 'Repeat password:'),
      el('textbox', '', { inputType: 'password', value: '' }),
      el('button', 'Done'),
    ])
    expect(signInForm(root)).toBeUndefined()
    const change = el('window', 'Account', {}, [
      el('textbox', 'Current password', { inputType: 'password', value: '' }),
      el('textbox', 'New password', { inputType: 'password', value: '' }),
      el('button', 'Change'),
    ])
    expect(signInForm(change)).toBeUndefined()
  })
})

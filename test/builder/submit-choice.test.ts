// Which button sends a native dialog's form: a disabled button never wins over an enabled one,
// and a button that opens a chooser (a colour, a font, a file) never sends a form at all (issue
// 24: a greyed-out toolbar "New Entry…" and a colour button "Pick a Color" were taken as the
// submit). The screens are written out here as an accessibility tree reads them; no desktop needed.
import { describe, expect, test } from 'bun:test'
import { readPrompt } from '../../src/builder/locate/prompt.ts'
import { chooseSubmit, opensChooser } from '../../src/builder/submit/submit.ts'
import type { UiElement, UiState } from '../../src/protocol/elements.ts'
import { offlineSession } from './scripted-io.ts'

let refs = 0
const el = (role: UiElement['role'], name: string, children: UiElement[] = [], states: UiState[] = []) =>
  ({ ref: `e${++refs}`, role, name, states, children }) as UiElement

/**
 * An entry editor laid out in the main window (not a dialog, no form around it): the window's
 * toolbar buttons share the fields' scope, and its "Add Entry" is greyed out while the editor is open.
 */
function entryScreen(addStates: UiState[] = ['disabled']) {
  const title = el('textbox', 'Title')
  const user = el('textbox', 'Username')
  const root = el('window', 'Passwords', [
    el('button', 'Add Entry', [], addStates),
    el('button', 'Lock Database'),
    el('text', 'Title'),
    title,
    el('text', 'Username'),
    user,
    el('button', 'Pick a Color'),
    el('button', 'Cancel'),
    el('button', 'Save'),
  ])
  return { root, fields: [title, user] }
}

describe('choosing the submit of a native form', () => {
  test('buttons that open a chooser are known by their words', () => {
    for (const name of ['Pick a Color', 'Select Font…', 'Browse…', 'Choose a file', 'Colour', 'Set Date'])
      expect(opensChooser(name), name).toBe(true)
    for (const name of ['OK', 'Save', 'Select', 'Add entry', 'Change password', 'Apply', 'Set'])
      expect(opensChooser(name), name).toBe(false)
  })

  test('the editor’s Save sends it: the greyed-out “Add Entry” is not taken, the colour button never sends', async () => {
    const { root, fields } = entryScreen()
    const reading = readPrompt('Add an entry in the password manager and return its title')
    const { session, script } = offlineSession(reading.text)
    const choice = await chooseSubmit(session, root, fields, reading)
    expect(choice.label).toBe('Save')
    expect(script.questions).toEqual([])
    expect(script.lines.join('\n')).toMatch(/“Pick a Color”.* never/)
  })

  test('the same button enabled names the task better than “Save” and wins: only its state counted', async () => {
    const { root, fields } = entryScreen([])
    const reading = readPrompt('Add an entry in the password manager and return its title')
    const { session } = offlineSession(reading.text)
    expect((await chooseSubmit(session, root, fields, reading)).label).toBe('Add Entry')
  })

  test('an entry page with OK beside Cancel: OK sends it; the tool bar’s “Open Database…” and “Save Database” never do', async () => {
    const title = el('textbox', 'Title')
    const user = el('textbox', 'Username')
    const root = el('window', 'Passwords.kdbx - KeePassXC', [
      el('toolbar', '', [
        el('button', 'Open Database…'),
        el('button', 'Save Database'),
        el('button', 'New Entry…', [], ['disabled']),
        el('button', 'URL'),
      ]),
      el('generic', 'Edit entry', [el('text', 'Title'), title, el('text', 'Username'), user]),
      el('generic', '', [el('button', 'OK'), el('button', 'Cancel')]),
    ])
    const reading = readPrompt('Add a new entry to my password database in KeePassXC and return its title')
    const { session, script } = offlineSession(reading.text)
    const choice = await chooseSubmit(session, root, [title, user], reading)
    expect(choice.label).toBe('OK')
    expect(script.questions).toEqual([])
  })
})

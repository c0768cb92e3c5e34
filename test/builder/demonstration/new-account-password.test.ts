// A demonstration that makes a new account behind the app's own sign-in: the person types the new
// account's password twice ("Change Password", "Confirm Password"), which the recorder never
// records. Those boxes take the caller's `password`, not the job's stored sign-in secret: giving
// every new account the admin's password would answer each call as if it had worked.
import { expect, test } from 'bun:test'
import type { BuildRequest } from '../../../src/builder/contract.ts'
import { readDemonstration } from '../../../src/builder/demonstrate/demonstration.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import { el } from '../../helpers/elements.ts'
import { RecordingKit } from './recording-kit.ts'

const screen = (title: string, children: UiElement[]): Snapshot => ({
  window: { id: 'w1', kind: 'tab', title, app: 'browser', url: 'http://davical.example/admin.php' },
  root: el('window', title, children),
  capturedAt: new Date().toISOString(),
})
const form = screen('Create Principal', [
  el('heading', 'Create Principal'),
  el('textbox', 'Username', [], { bounds: { x: 10, y: 10, width: 100, height: 20 } }),
  el('textbox', 'Change Password', [], {
    inputType: 'password',
    bounds: { x: 10, y: 40, width: 100, height: 20 },
  }),
  el('textbox', 'Confirm Password', [], {
    inputType: 'password',
    bounds: { x: 10, y: 70, width: 100, height: 20 },
  }),
  el('button', 'Create', [], { bounds: { x: 10, y: 100, width: 60, height: 20 } }),
])
const made = screen('Principal', [el('heading', 'Principal'), el('text', 'Principal ID: 1001')])

const request: BuildRequest = {
  prompt: 'Add a user account with this username and password',
  sample: { id: 's1', input: { username: 'priya', password: 'Lantern-Quiet-42' } },
  previous: [],
  secretNames: ['username', 'password'],
}

test('both password boxes of a new account take the caller’s password, not the stored sign-in secret', () => {
  const recording = new RecordingKit([form, made])
    .type(0, 'textbox', 'Username', 'priya')
    .typeSecret(0, 'textbox', 'Change Password')
    .typeSecret(0, 'textbox', 'Confirm Password')
    .click(0, 'button', 'Create')
    .recording()
  const demo = readDemonstration(recording, request)
  const fills = demo.path.filter((s) => s.kind === 'fill')
  expect(fills.map((s) => s.kind === 'fill' && s.value)).toEqual([
    '{{username}}',
    '{{password}}',
    '{{password}}',
  ])
  expect(JSON.stringify(demo.path)).not.toContain('$secrets')
  expect(demo.notes.map((n) => n.message)).toContain(
    '“Change Password” takes the caller’s “password”: a password typed into a form that is not a sign-in (what was typed there is never recorded)',
  )
})

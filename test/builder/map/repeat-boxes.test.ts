// A form that asks for a value twice ("Password" and "Password confirmation", "Email" and
// "Confirm email"): the builder types the value into both, as a person does, without asking
// where it goes or what the second box needs. Real Chromium on a page served here; the server
// refuses a pair that differs, as a real sign-up form does.
import { expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const FORM = `<!doctype html><html><head><title>Team accounts</title></head><body><main>
<h1>Add user</h1>
<form method="post" action="/users">
<p><label for="u">Username</label> <input id="u" name="username" required></p>
<p><label for="e">Email</label> <input id="e" name="email" type="email" required></p>
<p><label for="e2">Confirm email</label> <input id="e2" name="email2" type="email" required></p>
<p><label for="p1">Password</label> <input id="p1" name="password1" type="password" required></p>
<p><label for="p2">Password confirmation</label> <input id="p2" name="password2" type="password" required></p>
<button type="submit">Save</button>
</form></main></body></html>`

// A principal form of a groupware admin: the password box is named for changing it, its repeat
// for confirming it, and beside the fields sit permission buttons named by pairs of states.
const PRINCIPAL = `<!doctype html><html><head><title>Create Principal</title></head><body><main>
<h1>Create Principal</h1>
<form method="post" action="/principal">
<table>
<tr><th><label for="u">Username:</label></th><td><input id="u" name="username"></td></tr>
<tr><th><label for="p1">Change Password:</label></th><td><input id="p1" name="password1" type="password"></td></tr>
<tr><th><label for="p2">Confirm Password:</label></th><td><input id="p2" name="password2" type="password"></td></tr>
<tr><th>Privileges:</th><td><input type="checkbox" name="r" aria-label="read"> <input type="button" value="All"> <input type="button" value="Read/Write"> <input type="button" value="Free/Busy"></td></tr>
</table>
<input type="submit" value="Create">
</form></main></body></html>`

const users: { username: string; email: string; password: string }[] = []
const rig = pageRig(async (req) => {
  if (new URL(req.url).pathname.startsWith('/principal')) {
    if (req.method !== 'POST') return htmlPage(PRINCIPAL)
    const f = await req.formData()
    const [username, p1, p2] = ['username', 'password1', 'password2'].map((k) => String(f.get(k) ?? ''))
    if (p1 !== p2 || !p1)
      return htmlPage(PRINCIPAL.replace('<table>', '<p role="alert">Passwords do not match.</p><table>'))
    users.push({ username: username!, email: '', password: p1! })
    return htmlPage(
      `<!doctype html><title>Principal</title><main><p role="status">Principal ${username} created.</p></main>`,
    )
  }
  if (req.method !== 'POST') return htmlPage(FORM)
  const f = await req.formData()
  const [username, email, email2, p1, p2] = ['username', 'email', 'email2', 'password1', 'password2'].map(
    (k) => String(f.get(k) ?? ''),
  )
  if (p1 !== p2 || email !== email2 || !p1)
    return htmlPage(
      FORM.replace(
        '<h1>Add user</h1>',
        '<h1>Add user</h1><p role="alert">The two entries did not match.</p>',
      ),
    )
  users.push({ username: username!, email: email!, password: p1! })
  return htmlPage(
    `<!doctype html><title>Team accounts</title><main><p role="status">User ${username} was added.</p></main>`,
  )
})

test('a value asked for again goes into both boxes; nothing is asked', async () => {
  const window = await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt: 'Add a user account with this username, email and password',
    sample: { id: 's1', input: { username: 'ada', email: 'ada@example.com', password: 'Lamp-Orbit-77' } },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  expect(script.lines.join('\n')).toContain('“Password confirmation” asks for “Password” again')
  expect(script.lines.join('\n')).toContain('“Confirm email” asks for “Email” again')
  await rig.driver.navigate(window.id, rig.server.url.href)
  const run = await port.run(result.automation, {
    username: 'grace',
    email: 'grace@example.com',
    password: 'Moss-Kettle-12',
  })
  expect(run.status).toBe('succeeded')
  expect(users.at(-1)).toEqual({ username: 'grace', email: 'grace@example.com', password: 'Moss-Kettle-12' })
}, 60_000)

test('a password box named for changing it and its “Confirm” repeat, beside permission buttons “Read/Write”: nothing is asked', async () => {
  await rig.driver.launch({ url: `${rig.server.url.href}principal` })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt: 'Add a user account with this username and password',
    sample: { id: 's1', input: { username: 'priya', password: 'Lantern-Quiet-42' } },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  expect(script.lines.join('\n')).toContain('The form is sent with “Create”')
  expect(users.at(-1)).toEqual({ username: 'priya', email: '', password: 'Lantern-Quiet-42' })
}, 60_000)

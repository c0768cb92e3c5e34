// The way to a form behind a drop-down that opens on a click (aria-expanded="false", its items
// not on the page until then), in real Chromium: exploring opens the drop-downs to see what they
// hide, the item named like the task is reached through its drop-down, and a run opens it the
// same way. A drop-down whose only item would leave the session is looked into but never used.
import { describe, expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

interface Contact {
  id: number
  email: string
  name: string
}
const contacts: Contact[] = []
let signedOut = 0

const dropDown = (label: string, items: string) => `
  <div class="dropdown">
    <button type="button" aria-expanded="false" onclick="toggle(this)">${label} ▾</button>
    <ul hidden>${items}</ul>
  </div>`

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title>
<script>
  function toggle(b) {
    const open = b.getAttribute('aria-expanded') === 'true'
    b.setAttribute('aria-expanded', String(!open))
    b.nextElementSibling.hidden = open
  }
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return
    for (const b of document.querySelectorAll('[aria-expanded=true]')) toggle(b)
  })
</script></head><body>
<nav>
  ${dropDown('Companies', '<li><a href="/companies">Company list</a></li>')}
  ${dropDown('Contacts', '<li><a href="/contacts">Contact list</a></li><li><a href="/contacts/new">New contact</a></li>')}
  ${dropDown('sam@example.com', '<li><a href="/logout">Log out</a></li>')}
</nav>
<main>${body}</main></body></html>`

const home = page('Sales desk', '<h1>Overview</h1><p>2 companies, 14 contacts.</p>')
const form = page(
  'New contact',
  `<h1>New contact</h1><form method="post" action="/contacts">
   <label>Email <input name="email"></label>
   <label>Full name <input name="name"></label>
   <button type="submit">Create contact</button></form>`,
)
const created = (m: Contact) =>
  page('Contact created', `<h1>Contact created</h1><p>Contact ID: <span>${m.id}</span></p>`)

const rig = pageRig(async (req) => {
  const url = new URL(req.url)
  if (req.method === 'POST' && url.pathname === '/contacts') {
    const data = await req.formData()
    const m = {
      id: 40 + contacts.length,
      email: String(data.get('email')),
      name: String(data.get('name')),
    }
    contacts.push(m)
    return htmlPage(created(m))
  }
  if (url.pathname === '/contacts/new') return htmlPage(form)
  if (url.pathname === '/logout') signedOut++
  return htmlPage(home)
})

describe('a form behind a drop-down', () => {
  test('exploring opens the drop-downs, reaches “New contact” through its own, and a run does too', async () => {
    const window = await rig.driver.launch({ url: rig.server.url.href })
    const port = localDesktop(rig.driver)
    const script = scriptedIO()
    const result = await buildAutomation(port, script.io, {
      prompt: 'Create a contact with the given email and full name, and return its id',
      sample: {
        id: 's1',
        input: { email: 'ana@silva.example', fullName: 'Ana Silva' },
        expect: { id: { $type: 'string' } },
      },
      previous: [],
    })
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(contacts).toEqual([{ id: 40, email: 'ana@silva.example', name: 'Ana Silva' }])
    expect(signedOut).toBe(0)
    const opened = script.progress.find((p) => p.message.startsWith('Opened the menus'))
    expect(opened?.data?.menus).toMatchObject({ 'Contacts ▾': ['Contact list', 'New contact'] })

    await rig.driver.navigate(window.id, rig.server.url.href)
    const run = await port.run(result.automation, { email: 'li@wei.example', fullName: 'Li Wei' })
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ id: '41' })
    expect(contacts[1]).toEqual({ id: 41, email: 'li@wei.example', name: 'Li Wei' })
    expect(signedOut).toBe(0)
  }, 90_000)
})

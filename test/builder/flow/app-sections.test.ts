// An app whose words differ from the caller's, in real Chromium: nothing on its first screen is
// named like "add a member", so exploring looks through the app's sections (its navigation, in
// screen order) and the sections' own entries, and finds the form behind "Directory" →
// "Enrol someone". Its settings, whose form also has a Name and an Email, are never entered; a
// live call enrols another person the same way.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { scriptedIO } from '../scripted-io.ts'

interface Person {
  id: number
  name: string
  email: string
}
const people: Person[] = []
let settingsSeen = 0

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>
<nav><ul><li><a href="/">Overview</a></li><li><a href="/directory">Directory</a></li><li><a href="/settings">Settings</a></li></ul></nav>
<main>${body}</main></body></html>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const html = (title: string, body: string) =>
        new Response(page(title, body), { headers: { 'content-type': 'text/html; charset=utf-8' } })
      if (req.method === 'POST' && url.pathname === '/directory') {
        const data = await req.formData()
        const person = {
          id: 700 + people.length,
          name: String(data.get('name')),
          email: String(data.get('email')),
        }
        people.push(person)
        return html('Enrolled', `<h1>Enrolled</h1><p>Membership no. ${person.id}</p>`)
      }
      if (url.pathname === '/directory/enrol')
        return html(
          'Enrolment',
          `<h1>Enrolment</h1><form method="post" action="/directory">
           <label>Name <input name="name"></label><label>Email <input name="email"></label>
           <button type="submit">Enrol</button></form>`,
        )
      if (url.pathname === '/directory')
        return html(
          'Directory',
          `<h1>Directory</h1><ul><li><a href="/directory/enrol">Enrol someone</a></li></ul>
           <table><tr><th>Name</th></tr>${people.map((p) => `<tr><td>${p.name}</td></tr>`).join('')}</table>`,
        )
      if (url.pathname === '/settings') {
        settingsSeen++
        return html(
          'Settings',
          `<h1>Settings</h1><form method="post" action="/settings"><label>Name <input name="name"></label>
           <label>Email <input name="email"></label><button type="submit">Save</button></form>`,
        )
      }
      return html('Club', '<h1>Overview</h1><p>42 people enrolled.</p>')
    },
  })
  driver = new BrowserDriver()
  await driver.start()
})
afterAll(async () => {
  await driver?.stop()
  server?.stop(true)
})

describe('an app whose words differ from the caller’s', () => {
  test('exploring looks through the sections, finds the form, never enters the settings', async () => {
    const window = await driver.launch({ url: server.url.href })
    const port = localDesktop(driver)
    // "Enrol" is no word the builder knows for sending: it asks, and the person says so.
    const script = scriptedIO([
      { kind: 'choose_submit', answer: (q) => q.options.find((o) => o.label === 'Enrol')!.value },
    ])
    const result = await buildAutomation(port, script.io, {
      prompt: 'Add a new member with the given name and email, and return the membership number',
      sample: {
        id: 's1',
        input: { name: 'Ana Silva', email: 'ana@silva.example' },
        expect: { membershipNumber: { $type: 'string' } },
      },
      previous: [],
    })
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(people).toEqual([{ id: 700, name: 'Ana Silva', email: 'ana@silva.example' }])
    expect(settingsSeen).toBe(0)
    expect(script.lines.some((l) => l.includes('looking through the app’s'))).toBe(true)

    await driver.navigate(window.id, server.url.href)
    const run = await port.run(result.automation, { name: 'Li Wei', email: 'li@wei.example' })
    expect(run.status).toBe('succeeded')
    expect(run.result).toEqual({ membershipNumber: '701' })
    expect(settingsSeen).toBe(0)
  }, 120_000)
})

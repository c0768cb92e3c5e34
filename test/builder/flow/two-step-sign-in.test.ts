// A sign-in in two steps, as single-sign-on pages and many web clients ask it: the user name (or
// e-mail) first, then "Next" brings the password box in. An app that remembers who signed in asks
// only for the password when the session ends. The builder learns both steps as the job's
// sign-in prelude; runs sign in either way. Real Chromium on an app served here.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { BuildSession } from '../../../src/builder/session.ts'
import { signIn } from '../../../src/builder/sign-in/sign-in.ts'
import type { Automation } from '../../../src/protocol/automation.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

const USER = 'ada@office.example'
const PASSWORD = 'correct horse battery'
const sessions = new Set<string>()
const notes: { id: number; title: string; text: string }[] = []
let signIns = 0

const cookies = (req: Request) =>
  Object.fromEntries(
    (req.headers.get('cookie') ?? '')
      .split(';')
      .map((c) => c.trim().split('='))
      .filter((kv) => kv.length === 2),
  ) as Record<string, string>

const frame = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

/** The user name first; "Next" slides the password in. A remembered user is asked only the password. */
function signInPage(remembered: string | undefined, alive = false): string {
  const user = remembered
    ? `<input type="hidden" name="user" value="${remembered}"><p>Password for ${remembered}</p>`
    : // A read-only box shows what is signed in to (a database), as some clients do: nothing to type.
      `<div id="who"><input readonly value="office" aria-label="Database"><label for="user">Email or user name</label> <input id="user" name="user">
       <button type="button" id="next">Next</button></div>`
  return frame(
    'Office notes',
    `<main><h1>Sign in</h1><form method="post" action="/login">${user}
<div id="secret" ${remembered ? '' : 'hidden'}><label for="pw">Password</label> <input id="pw" name="password" type="password">
<button>Sign in</button></div></form></main>
<script>
  const next = document.getElementById('next')
  if (next) next.addEventListener('click', () => {
    if (!document.getElementById('user').value) return
    // A client that keeps its session goes on without the password while the session lives.
    if (${alive}) return location.assign('/?go=1')
    document.getElementById('who').hidden = true
    setTimeout(() => { document.getElementById('secret').hidden = false }, 300)
  })
</script>`,
  )
}

const notesPage = (message = '') =>
  frame(
    'Office notes',
    `<main><h1>Notes</h1>${message}<form method="post" action="/notes">
<label for="title">Title</label> <input id="title" name="title">
<label for="text">Text</label> <textarea id="text" name="text"></textarea>
<button>Save note</button></form></main>`,
  )

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let automation: Automation

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const jar = cookies(req)
      if (req.method === 'POST' && url.pathname === '/login') {
        const form = await req.formData()
        if (form.get('user') !== USER || form.get('password') !== PASSWORD)
          return htmlPage(signInPage(undefined))
        const sid = crypto.randomUUID()
        sessions.add(sid)
        signIns++
        return new Response(null, {
          status: 303,
          headers: [
            ['location', '/'],
            ['set-cookie', `sid=${sid}; Path=/`],
            ['set-cookie', `who=${USER}; Path=/`],
          ],
        })
      }
      if (!jar.sid || !sessions.has(jar.sid)) return htmlPage(signInPage(jar.who))
      // Opened afresh, the client asks who is there even while its session lives (?ask=1).
      if (url.searchParams.has('ask')) return htmlPage(signInPage(undefined, true))
      if (req.method === 'POST' && url.pathname === '/notes') {
        const form = await req.formData()
        const note = {
          id: 100 + notes.length,
          title: String(form.get('title')),
          text: String(form.get('text')),
        }
        notes.push(note)
        return htmlPage(notesPage(`<p role="status">Note #${note.id} saved</p>`))
      }
      return htmlPage(notesPage())
    },
  })
  driver = new BrowserDriver()
  await driver.start()
  await driver.launch({ url: server.url.href })
  const script = scriptedIO()
  const built = await buildAutomation(localDesktop(driver), script.io, {
    previous: [],
    secretNames: ['username', 'password'],
    secrets: { username: USER, password: PASSWORD },
    prompt: 'Write a note with the given title and text, and return its number',
    sample: {
      id: 's1',
      input: { title: 'Kitchen rota', text: 'Ada cleans on Mondays.' },
      expect: { noteNumber: { $type: 'string' } },
    },
  })
  if (!built.ok) throw new Error(`${built.code}: ${built.message}\n${script.lines.join('\n')}`)
  expect(script.unexpected).toEqual([])
  expect(script.lines.join('\n')).toContain('asks to sign in in two steps')
  automation = built.automation
}, 120_000)

afterAll(async () => {
  await driver?.stop()
  await server?.stop(true)
})

const trail = (run: { steps: { flowName: string; status: string }[] }) =>
  run.steps.map((s) => `${s.status} ${s.flowName}`)

describe('a sign-in in two steps', () => {
  test('the build signs in through both screens and keeps them as the prelude, with secret names only', () => {
    expect(notes).toEqual([{ id: 100, title: 'Kitchen rota', text: 'Ada cleans on Mondays.' }])
    expect(automation.signIn?.steps.map((s) => s.name)).toEqual([
      'Sign in: fill “Email or user name”',
      'Sign in: click “Next”',
      'Sign in: fill “Password”',
      'Sign in: click “Sign in”',
    ])
    expect(automation.steps.some((s) => s.name.startsWith('Sign in'))).toBe(false)
    const json = JSON.stringify(automation)
    expect(json).not.toContain(PASSWORD)
    expect(json).not.toContain(USER)
  })

  test('a session that ended while the app remembers the user: only the password is asked', async () => {
    sessions.clear()
    const before = signIns
    const run = await localDesktop(driver).run(automation, {
      title: 'Fire drill',
      text: 'Meet in the car park.',
      $secrets: { username: USER, password: PASSWORD },
    })
    if (run.status !== 'succeeded') throw new Error(JSON.stringify({ error: run.error, steps: trail(run) }))
    expect(signIns).toBe(before + 1)
    expect(trail(run)).toContain('SKIPPED Sign in: fill “Email or user name”')
    expect(run.result).toEqual({ noteNumber: '101' })
    expect(notes.at(-1)).toEqual({ id: 101, title: 'Fire drill', text: 'Meet in the car park.' })
  }, 60_000)

  test('signing in again in one build, to an app that went on after the user name: signed in, with the steps learnt first', async () => {
    const [window] = await driver.listWindows()
    await driver.clearSession(window!.id)
    const port = localDesktop(driver)
    const session = new BuildSession(port, scriptedIO().io, {
      previous: [],
      secretNames: ['username', 'password'],
      secrets: { username: USER, password: PASSWORD },
      prompt: 'Write a note',
      sample: { id: 's2', input: {} },
    })
    await session.launch({ url: server.url.href })
    const first = await signIn(session, await session.settle())
    expect(first?.steps).toHaveLength(4)
    // As a demonstration starts: the app opened afresh asks for the user name and then goes on.
    await session.launch({ url: `${server.url.href}?ask=1` })
    const again = await signIn(session, await session.settle())
    expect(again?.steps.map((s) => s.name)).toEqual(first!.steps.map((s) => s.name))
    expect(JSON.stringify(again?.screen.root)).toContain('Save note')
  }, 60_000)

  test('a browser that forgot everything: the user name, then the password', async () => {
    const [window] = await driver.listWindows()
    await driver.clearSession(window!.id)
    const before = signIns
    const run = await localDesktop(driver).run(automation, {
      title: 'Bike shed',
      text: 'Open again.',
      $secrets: { username: USER, password: PASSWORD },
    })
    if (run.status !== 'succeeded') throw new Error(JSON.stringify({ error: run.error, steps: trail(run) }))
    expect(signIns).toBe(before + 1)
    expect(trail(run)).toContain('SUCCESS Sign in: click “Next”')
    expect(notes.at(-1)).toEqual({ id: 102, title: 'Bike shed', text: 'Open again.' })
  }, 60_000)
})

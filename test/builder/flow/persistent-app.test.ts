import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import type { BuildRequest, BuildResult } from '../../../src/builder/contract.ts'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { scriptedIO } from '../scripted-io.ts'

/**
 * A small notes app written the way real web apps are: its data lives on its server (a reload
 * keeps it), a sign-in screen stands in front of it (classic form POST + cookie), a note is
 * created with a form POST and a redirect, and each note has its own address (/notes/1001).
 * The builder runs in-process against real Chromium.
 */
interface Note {
  id: number
  title: string
  body: string
}
const notes: Note[] = [{ id: 1001, title: 'Groceries', body: 'Milk' }]
const SESSION = 'sid=ok'
const page = (title: string, body: string) =>
  new Response(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`, {
    headers: { 'content-type': 'text/html; charset=utf-8' },
  })
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let base = ''

beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const signedIn = (req.headers.get('cookie') ?? '').includes(SESSION)
      if (url.pathname === '/login' && req.method === 'POST') {
        const form = await req.formData()
        if (form.get('username') === 'ada' && form.get('password') === 's3cret-pw')
          return new Response(null, {
            status: 303,
            headers: { location: '/', 'set-cookie': `${SESSION}; Path=/` },
          })
        return page('Notes – Sign in', '<p role="alert">Wrong user name or password</p>')
      }
      if (!signedIn)
        return page(
          'Notes – Sign in',
          `<h1>Sign in to Notes</h1><form method="post" action="/login">
            <label>User name <input name="username"></label>
            <label>Password <input name="password" type="password"></label>
            <button>Sign in</button></form>`,
        )
      if (url.pathname === '/')
        return page(
          'Notes',
          `<h1>Notes</h1><nav><a href="/notes/new">New note</a> <a href="/manage">Manage notes</a> <a href="https://example.org/">Help centre</a></nav>
           <form action="/search" role="search"><input name="q" type="search" placeholder="Search notes by title"></form>
           <ul>${notes.map((n) => `<li><a href="/notes/${n.id}">${esc(n.title)}</a></li>`).join('')}</ul>`,
        )
      if (url.pathname === '/notes/new')
        return page(
          'Notes – New note',
          `<h1>New note</h1><form method="post" action="/notes">
            <label>Title <input name="title" required></label>
            <label>Text <textarea name="body"></textarea></label>
            <button>Save note</button></form>`,
        )
      if (url.pathname === '/notes' && req.method === 'POST') {
        const form = await req.formData()
        const title = String(form.get('title') ?? '')
        if (notes.some((n) => n.title.toLowerCase() === title.toLowerCase()))
          return page(
            'Notes – New note',
            `<h1>New note</h1><p role="alert">A note with this title already exists</p>`,
          )
        const note = { id: 1001 + notes.length, title, body: String(form.get('body') ?? '') }
        notes.push(note)
        return new Response(null, { status: 303, headers: { location: `/notes/${note.id}` } })
      }
      if (url.pathname === '/search') {
        const q = (url.searchParams.get('q') ?? '').toLowerCase()
        const found = notes.filter((n) => n.title.toLowerCase().includes(q))
        return page(
          'Notes – Search',
          `<h1>Search results</h1><p>${found.length} note(s) found</p><ul>${found.map((n) => `<li><a href="/notes/${n.id}">${esc(n.title)}</a></li>`).join('')}</ul>`,
        )
      }
      if (url.pathname === '/manage')
        return page(
          'Notes – Manage',
          `<h1>Manage notes</h1><table><thead><tr><th>Title</th><th>Length</th><th>Actions</th></tr></thead><tbody>${notes
            .map(
              (n) =>
                `<tr><td>${esc(n.title)}</td><td>${n.body.length}</td><td><button type="button" onclick="location.href='/notes/${n.id}/edit'">Edit</button></td></tr>`,
            )
            .join('')}</tbody></table>`,
        )
      const edit = url.pathname.match(/^\/notes\/(\d+)\/edit$/)
      const editing = edit && notes.find((n) => n.id === Number(edit[1]))
      if (editing)
        return page(
          'Notes – Edit note',
          `<h1>Edit note</h1><form method="post" action="/notes/${editing.id}">
            <label>Title <input name="title" value="${esc(editing.title)}"></label>
            <label>Text <textarea name="body">${esc(editing.body)}</textarea></label>
            <button>Save changes</button></form>`,
        )
      const update = req.method === 'POST' && url.pathname.match(/^\/notes\/(\d+)$/)
      const updating = update && notes.find((n) => n.id === Number(update[1]))
      if (updating) {
        const form = await req.formData()
        updating.title = String(form.get('title') ?? updating.title)
        updating.body = String(form.get('body') ?? updating.body)
        return new Response(null, { status: 303, headers: { location: `/notes/${updating.id}?updated=1` } })
      }
      const m = url.pathname.match(/^\/notes\/(\d+)$/)
      const note = m && notes.find((n) => n.id === Number(m[1]))
      if (note)
        return page(
          `Note ${note.id}`,
          `${url.searchParams.has('updated') ? '<p role="status">Note updated</p>' : ''}<h1>Note ${note.id}</h1><dl><dt>Title</dt><dd>${esc(note.title)}</dd><dt>Text</dt><dd>${esc(note.body)}</dd></dl><a href="/">All notes</a>`,
        )
      return page('Not found', '<h1>Not found</h1><p>No such note</p>')
    },
  })
  base = `http://127.0.0.1:${server.port}/`
  driver = new BrowserDriver()
  await driver.start()
  await driver.launch({ url: base })
}, 60_000)

afterAll(async () => {
  await driver?.stop()
  server?.stop(true)
})

const secrets = { secretNames: ['username', 'password'], secrets: { username: 'ada', password: 's3cret-pw' } }
const count = (title: string) => notes.filter((n) => n.title === title).length

async function build(request: BuildRequest) {
  const script = scriptedIO()
  const port = localDesktop(driver)
  const result: BuildResult = await buildAutomation(port, script.io, request)
  return { result, script, port }
}

describe('an app that keeps its data, behind a sign-in', () => {
  test('without credentials the build stops and says how to sign in', async () => {
    const { result } = await build({
      prompt: 'Create a note and return its id',
      sample: { id: 's0', input: { title: 'Nope', text: 'x' } },
      previous: [],
      route: { method: 'POST', path: '/notes' },
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.code).toBe('SIGN_IN_REQUIRED')
    expect(result.message).toContain('deskhook jobs secret set POST /notes')
    expect(count('Nope')).toBe(0)
  }, 60_000)

  test('signs in with the stored secrets and creates each sample’s note exactly once', async () => {
    const first = await build({
      prompt: 'Create a note and return its id',
      sample: {
        id: 's1',
        input: { title: 'Packing list', text: 'Tent' },
        expect: { noteId: { $type: 'string' } },
      },
      previous: [],
      ...secrets,
    })
    if (!first.result.ok)
      throw new Error(`${first.result.code}: ${first.result.message}\n${first.script.lines.join('\n')}`)
    if (count('Packing list') !== 1)
      throw new Error(`${count('Packing list')} notes\n${first.script.lines.join('\n')}`)
    const automation = first.result.automation
    // The sign-in is the automation's guarded prelude, not part of its path.
    expect(automation.signIn?.steps.map((s) => s.name.startsWith('Sign in'))).toEqual([true, true, true])
    expect(automation.steps.some((s) => s.name.startsWith('Sign in'))).toBe(false)
    expect(JSON.stringify(automation)).not.toContain('s3cret-pw')
    expect(first.script.lines.join('\n')).not.toContain('s3cret-pw')
    expect(first.script.lines.some((l) => l.includes('nothing is submitted twice'))).toBe(true)

    // A second sample extends the job: its note is created once, the first is not submitted again.
    const second = await build({
      prompt: 'Create a note and return its id',
      sample: {
        id: 's2',
        input: { title: 'Reading list', text: 'Dune' },
        expect: { noteId: { $type: 'string' } },
      },
      previous: [
        { id: 's1', input: { title: 'Packing list', text: 'Tent' }, scenario: first.result.scenario },
      ],
      automation,
      ...secrets,
    })
    if (!second.result.ok)
      throw new Error(`${second.result.code}: ${second.result.message}\n${second.script.lines.join('\n')}`)
    expect(count('Reading list')).toBe(1)
    expect(count('Packing list')).toBe(1)
    expect(second.result.automation.signIn).toEqual(automation.signIn!)
    // Its values are those the automation already takes: the probe run was its one submit.
    expect(second.result.reverified).toEqual([])
    expect(second.script.lines.some((l) => l.includes('already ends in'))).toBe(true)

    // A live run of the built automation creates a new note and returns its id.
    const port = localDesktop(driver)
    const run = await port.run(second.result.automation, {
      title: 'Recipes',
      text: 'Soup',
      $secrets: secrets.secrets,
    })
    expect(run.status).toBe('succeeded')
    expect(count('Recipes')).toBe(1)
    expect(String(run.result.noteId)).toBe(String(notes.find((n) => n.title === 'Recipes')!.id))
  }, 180_000)

  test('a note looked up by its id is opened by its address, built from the input', async () => {
    const { result, script } = await build({
      prompt: 'Look up a note by its id and return its title',
      sample: { id: 's3', input: { noteId: '1001' }, expect: { title: 'Groceries' } },
      previous: [],
      ...secrets,
    })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    const navigate = result.automation.steps.find((s) => s.kind === 'navigate')
    expect(navigate).toMatchObject({ kind: 'navigate', url: '/notes/{{noteId}}' })
    const run = await localDesktop(driver).run(result.automation, { noteId: '1002' })
    if (run.status !== 'succeeded')
      throw new Error(JSON.stringify({ run, automation: result.automation }, null, 1))
    expect(run.result.title).toBe(notes.find((n) => n.id === 1002)!.title)
  }, 120_000)

  test('a note found by a search (sent with Enter) is opened from its result to read its text', async () => {
    const { result, script } = await build({
      prompt: 'Find a note by its title and return its text',
      sample: { id: 's4', input: { title: 'Groceries' }, expect: { text: 'Milk' } },
      previous: [],
      ...secrets,
    })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    const kinds = result.automation.steps.map((s) => s.kind)
    expect(kinds).toContain('keys')
    expect(result.automation.steps.some((s) => s.name.startsWith('Open the result'))).toBe(true)
    const run = await localDesktop(driver).run(result.automation, { title: 'Reading list' })
    if (run.status !== 'succeeded') throw new Error(JSON.stringify(run.error))
    expect(run.result.text).toBe('Dune')
  }, 120_000)

  test('a note found in a table by its title is changed through its own row’s Edit', async () => {
    const reply = { kind: 'choose_outputs' as const, answer: () => [] as string[] }
    const script = scriptedIO([reply])
    const result = await buildAutomation(localDesktop(driver), script.io, {
      prompt: 'Change the text of the note titled like the given title',
      sample: { id: 's5', input: { title: 'Groceries', text: 'Milk and eggs' } },
      previous: [],
      ...secrets,
    })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    if (notes.find((n) => n.title === 'Groceries')!.body !== 'Milk and eggs')
      throw new Error(script.lines.join('\n'))
    expect(JSON.stringify(result.automation)).toContain('"by":"inRow"')
    const run = await localDesktop(driver).run(result.automation, {
      title: 'Packing list',
      text: 'Tent, stove',
    })
    if (run.status === 'failed') throw new Error(JSON.stringify(run.error))
    expect(notes.find((n) => n.title === 'Packing list')!.body).toBe('Tent, stove')
    expect(notes.find((n) => n.title === 'Groceries')!.body).toBe('Milk and eggs')
  }, 120_000)
})

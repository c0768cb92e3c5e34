import { describe, expect, test } from 'bun:test'
import { indexTree } from '../../../src/automation/index.ts'
import { moveScore, refusal } from '../../../src/builder/explore/explore-moves.ts'
import { shapeOf, urlPatterns } from '../../../src/builder/explore/url-route.ts'
import { withoutInputs } from '../../../src/builder/generalise.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import type { UiElement, UiRole } from '../../../src/protocol/elements.ts'

let refs = 0
function el(
  role: UiRole,
  name: string,
  extra: Partial<UiElement> = {},
  children: UiElement[] = [],
): UiElement {
  return { ref: `r${++refs}`, role, name, states: [], children, ...extra }
}

describe('reading the prompt by position', () => {
  test('a page named like a verb is a name, not the task’s verb or its return clause', () => {
    const r = readPrompt('Record a refund on the Returns page and return the RMA number')
    expect(r.verb).toBe('record')
    expect(r.object).toEqual(['refund'])
    expect(r.names).toContain('return')
    expect(r.returns).toEqual([['rma', 'number']])
    expect(r.taskStems).toContain('return')
  })

  test('the opening imperative is the verb, canonicalised; the object stops at a preposition', () => {
    const r = readPrompt('Add a support ticket in the helpdesk and return its number')
    expect(r.verb).toBe('creat')
    expect(r.object).toEqual(['support', 'ticket'])
    expect(r.returns).toEqual([['number']])
  })

  test('“Save as draft” quoted in the prompt does not become the verb; “Print” as a page does not either', () => {
    const quoted = readPrompt('Write a note and press “Save as draft”')
    expect(quoted.verb).toBe('creat') // “write” a note is creating one
    expect(quoted.names).toEqual(expect.arrayContaining(['save', 'draft']))
    const page = readPrompt('Please open the Print queue and return the job count')
    expect(page.verb).toBe('open')
    expect(page.names).toEqual(['print'])
  })

  test('“Return …” at the start is the return clause; there is no task verb then', () => {
    const r = readPrompt('Return the status of the ticket')
    expect(r.returns).toEqual([['status', 'ticket']])
  })

  test('the object and names outweigh incidental words when ranking controls', () => {
    const r = readPrompt('Open a ticket in the helpdesk and return the ticket number')
    expect(moveScore(r, 'New ticket')).toBeGreaterThan(moveScore(r, 'Open source licences'))
    expect(moveScore(r, 'Help')).toBe(0)
    const returns = readPrompt('Record a refund on the Returns page and return the RMA number')
    expect(moveScore(returns, 'Returns')).toBeGreaterThan(0)
  })
})

describe('exploring stays inside the app', () => {
  const app = 'http://127.0.0.1:4000/app/'
  test('links to other sites, downloads and sign-out are never pressed', () => {
    const root = el('window', 'App', {}, [
      el('link', 'Project home', { href: 'https://example.org/' }),
      el('link', 'Tickets', { href: 'http://127.0.0.1:4000/app/tickets' }),
      el('link', 'Download the report', { href: 'http://127.0.0.1:4000/report.pdf' }),
      el('link', 'Log out', { href: 'http://127.0.0.1:4000/logout' }),
      el('button', 'Delete ticket'),
      el('link', 'Mail us', { href: 'mailto:a@b.c' }),
    ])
    const index = indexTree(root)
    const why = Object.fromEntries(root.children.map((c) => [c.name, refusal(index, c, app)]))
    expect(why).toEqual({
      'Project home': 'other site',
      Tickets: undefined,
      'Download the report': 'download',
      'Log out': 'leaves the session',
      'Delete ticket': 'leaves the session',
      'Mail us': 'other site',
    })
  })

  test('no harm the task did not ask for: no setting switched, no quitting, no browser, nothing done to the whole file', () => {
    // A desktop app's menus (docs/builder.md, "Do no harm"); the file menu itself may be opened.
    const menu = el('window', 'Passwords - KeePassXC', {}, [
      el('menuitem', 'File'),
      el('menuitem', 'Show Toolbar', { states: ['checkable', 'checked'] }),
      el('menuitem', 'Show Preview Panel', { states: ['checkable'] }),
      el('button', 'Lock', { states: ['checkable', 'pressed'] }),
      el('menuitem', 'Quit'),
      el('menuitem', 'Exit'),
      el('menuitem', 'Open URL'),
      el('menuitem', 'Visit website'),
      el('menuitem', 'New File'),
      el('menuitem', 'Open Database…'),
      el('menuitem', 'Close Window'),
      el('menuitem', 'Obfuscate account file'),
      el('menuitem', 'New Entry…'),
      el('link', 'Documents'),
    ])
    const index = indexTree(menu)
    const why = Object.fromEntries(menu.children.map((c) => [c.name, refusal(index, c, undefined)]))
    expect(why).toEqual({
      File: undefined,
      'Show Toolbar': 'switches a setting',
      'Show Preview Panel': 'switches a setting',
      Lock: 'switches a setting',
      Quit: 'leaves the session',
      Exit: 'leaves the session',
      'Open URL': 'other site',
      'Visit website': 'other site',
      'New File': 'acts on the whole file',
      'Open Database…': 'acts on the whole file',
      'Close Window': 'acts on the whole file',
      'Obfuscate account file': 'acts on the whole file',
      'New Entry…': undefined,
      Documents: undefined,
    })
    // A task about documents makes them its records: "New document" is then a way on.
    const newDocument = el('link', 'New document')
    const docs = indexTree(el('window', 'Project', {}, [newDocument]))
    expect(refusal(docs, newDocument, app)).toBe('acts on the whole file')
    expect(refusal(docs, newDocument, app, readPrompt('Add a document to the project'))).toBeUndefined()
  })

  test('view toggles a toolkit does not mark checkable are settings too (ticked, or named for showing or hiding a part of the window), and choosers are never opened', () => {
    // Qt marks a checkable menu item only while it is on (checked); off, only its words say it.
    const view = el('window', 'Passwords', {}, [
      el('menuitem', 'Hide Passwords', { states: ['checked'] }),
      el('menuitem', 'Hide Usernames'),
      el('menuitem', 'Compact Mode'),
      el('menuitem', 'Always on Top'),
      el('menuitem', 'Full Screen'),
      el('menuitem', 'Theme'),
      el('menuitem', 'Show Details'),
      el('link', 'Show contact'),
      el('menuitem', 'New Customer…'),
      el('button', 'Browse for key file'),
      el('button', 'Pick a Color'),
    ])
    const index = indexTree(view)
    const why = Object.fromEntries(view.children.map((c) => [c.name, refusal(index, c, undefined)]))
    expect(why).toEqual({
      'Hide Passwords': 'switches a setting',
      'Hide Usernames': 'switches a setting',
      'Compact Mode': 'switches a setting',
      'Always on Top': 'switches a setting',
      'Full Screen': 'switches a setting',
      Theme: undefined,
      'Show Details': 'switches a setting',
      // A web page's link that shows a record is no menu item: a way on.
      'Show contact': undefined,
      'New Customer…': undefined,
      // A chooser picks one value and keeps where it was last: never a way to a form.
      'Browse for key file': 'opens a chooser',
      'Pick a Color': 'opens a chooser',
    })
  })

  test('a submit-like button under an empty form is never pressed; once filled, or a plain navigation button, it may be', () => {
    const form = (value?: string) =>
      el('form', 'Sign up', {}, [
        el('textbox', 'Email', value ? { value } : {}),
        el('button', 'Register'),
        el('button', 'Show all users'),
      ])
    const empty = form()
    const index = indexTree(empty)
    expect(refusal(index, empty.children[1]!, app)).toBe('empty form')
    expect(refusal(index, empty.children[2]!, app)).toBeUndefined()
    const filled = form('a@b.c')
    expect(refusal(indexTree(filled), filled.children[1]!, app)).toBeUndefined()
  })

  test('a button that only sends (“Update”, “Save changes”, “Publish”) is never pressed; “Edit” and “New note” may be', () => {
    const screen = el('window', 'Tickets', {}, [
      el('button', 'Update'),
      el('button', 'Save changes'),
      el('button', 'Publish'),
      el('button', 'Edit'),
      el('button', 'New note'),
    ])
    const index = indexTree(screen)
    expect(screen.children.map((c) => refusal(index, c, app))).toEqual([
      'saves data',
      'saves data',
      'saves data',
      undefined,
      undefined,
    ])
  })

  test('a drop-down showing its first option does not make a form filled in: “Create” under a blank subject is refused', () => {
    const quick = el('form', 'Quick ticket creation', {}, [
      el('combobox', 'Queue', { value: 'General' }),
      el('textbox', 'Subject', { value: '' }),
      el('button', 'Create'),
    ])
    expect(refusal(indexTree(quick), quick.children[2]!, app)).toBe('empty form')
    // A typeahead box (a text input in the combobox role) is typed into: its text counts.
    const typed = el('form', 'Find', {}, [
      el('combobox', 'Customer', { value: 'Ana', inputType: 'text' }),
      el('button', 'Add'),
    ])
    expect(refusal(indexTree(typed), typed.children[1]!, app)).toBeUndefined()
  })
})

describe('judging the ending', () => {
  test('text the sample typed is never evidence of an error', () => {
    const before = el('window', 'New ticket', {}, [
      el('form', 'Ticket', {}, [el('textbox', 'Description', { value: 'Export does not work' })]),
    ])
    const after = el('window', 'New ticket', {}, [
      el('form', 'Ticket', {}, [
        el('textbox', 'Description', { value: 'Export does not work' }),
        el('text', 'Export does not work'),
      ]),
    ])
    const ending = classifyEnding(before, after, [before.children[0]!.children[0]!], ['Export does not work'])
    expect(ending?.kind).toBe('screen')
    expect(withoutInputs('Export does not work, sadly', ['Export does not work'])).toBe(' , sadly')
  })
})

describe('an ending that is the caller’s own value', () => {
  test('a saved page’s heading is waited for as the next call’s page, not as any heading', () => {
    const before = el('window', 'Creating Release checklist', {}, [
      el('heading', 'Creating Release checklist'),
      el('textbox', 'Wiki text', { value: 'Tag the build.' }),
    ])
    const after = el('window', 'Release checklist', {}, [
      el('heading', 'Release checklist'),
      el('text', 'Tag the build.'),
    ])
    const inputs = ['Release_checklist', 'Tag the build.']
    const leaves = [
      { path: 'page', key: 'page', value: 'Release_checklist', source: 'body' as const },
      { path: 'text', key: 'text', value: 'Tag the build.', source: 'body' as const },
    ]
    const ending = classifyEnding(before, after, [], inputs, leaves)!
    expect(ending.condition).toMatchObject({
      kind: 'appears',
      target: { fingerprints: [{ by: 'role', role: 'heading', name: '{{page | spaces}}', match: 'exact' }] },
    })
  })
})

describe('records reached by their address', () => {
  const screen = (links: string[]) => ({
    window: {
      id: 'w',
      title: 'Tickets',
      app: 'http://127.0.0.1:8080',
      kind: 'tab' as const,
      url: 'http://127.0.0.1:8080/',
    },
    capturedAt: new Date().toISOString(),
    root: el(
      'window',
      'Tickets',
      {},
      links.map((href, i) => el('link', `Link ${i}`, { href })),
    ),
  })
  const leaf = (key: string, value: unknown) => ({ path: key, key, value, source: 'body' as const })

  test('an id of the same shape in a link’s path or query becomes a template; words of the app stay', () => {
    const seen = [
      screen([
        'http://127.0.0.1:8080/tktview/8d2e61f0a9',
        'http://127.0.0.1:8080/wiki?name=Home',
        'http://127.0.0.1:8080/timeline',
        'https://fossil-scm.org/home',
      ]),
    ]
    const patterns = urlPatterns(seen, [leaf('ticketId', '5f3a9c0d1e')], 'http://127.0.0.1:8080/')
    expect(patterns).toMatchObject([{ template: '/tktview/{{ticketId}}', direct: false }])
    const wiki = urlPatterns(seen, [leaf('page', 'Roadmap')], 'http://127.0.0.1:8080/')
    expect(wiki).toMatchObject([{ template: '/wiki?name={{page}}', direct: false }])
  })

  test('a link that holds exactly the sample’s value comes first; headers are never used', () => {
    const seen = [screen(['http://127.0.0.1:8080/orders/2041', 'http://127.0.0.1:8080/orders?page=2'])]
    const patterns = urlPatterns(
      seen,
      [
        leaf('orderId', 2041),
        { path: '_http.headers.x-n', key: 'x-n', value: '7', source: 'header' as const },
      ],
      'http://127.0.0.1:8080/',
    )
    expect(patterns[0]).toMatchObject({ template: '/orders/{{orderId}}', direct: true })
    expect(patterns.every((p) => !p.template.includes('_http'))).toBe(true)
  })

  test('a record’s own link (its text shows the value) beats a filter address that carries it too', () => {
    const tracker = {
      window: { id: 'w', kind: 'tab' as const, title: 'Issues', app: 'chromium' },
      capturedAt: '2026-11-26T00:00:00Z',
      root: el('generic', 'Issues', {}, [
        el('link', 'Bug', { href: 'http://127.0.0.1:8080/issues?set_filter=1&tracker_id=3' }),
        el('link', 'Bug #3', { href: 'http://127.0.0.1:8080/issues/3' }),
      ]),
    }
    const patterns = urlPatterns([tracker], [leaf('number', '3')], 'http://127.0.0.1:8080/')
    expect(patterns.map((p) => p.template).slice(0, 2)).toEqual([
      '/issues/{{number}}',
      '/issues?set_filter=1&tracker_id={{number}}',
    ])
  })

  test('shapes: digits, hex, codes and words are told apart', () => {
    expect([
      shapeOf('2041'),
      shapeOf('5f3a9c0d1e'),
      shapeOf('C-1042'),
      shapeOf('start'),
      shapeOf('two words'),
    ]).toEqual(['digits', 'hex', 'code', 'word', undefined])
  })
})

describe('ids keep their letters when generalised', () => {
  test('a hex hash stays hex, a random mix stays letters and digits, prefixes stay', async () => {
    const { generaliseToken } = await import('../../../src/builder/generalise.ts')
    const hash = new RegExp(`^${generaliseToken('bc3533e9db0fde6eb541776ffd62e54836f14522')}$`)
    expect(hash.test('61616ae6ca6e9933a5fee5c53ff2584a8ed45e86')).toBe(true)
    expect(hash.test('Watchers')).toBe(false)
    expect(new RegExp(`^${generaliseToken('x7Kp2Q9')}$`).test('Ab3dE9f')).toBe(true)
    expect(generaliseToken('HD-20481')).toBe('HD-\\d+')
    expect(generaliseToken('INC0012')).toBe('INC\\d+')
  })
})

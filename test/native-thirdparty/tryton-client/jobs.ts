// Jobs a small company would want from Tryton's desktop client, in the caller's words ("add a
// party with its e-mail", "what is this party's e-mail"), each checked in trytond's database with
// the web benchmark's readers. The client asks for a sign-in each time it opens (its login dialog
// comes filled with the user name; Connect, then the password in a dialog of its own): every job
// carries the admin's credentials.
//
// How the owner does them, from the client's own screens: the menu on the left (Party, then
// Parties or Contact Mechanisms, opened with Enter) opens a tab. A party's e-mail lives in its
// Contact Mechanisms; the party form shows them as a sub-list, but that sub-list is not on the
// accessibility tree the builder reads (its viewport is not "showing"), so the owner adds the
// e-mail where it is also kept: Party › Contact Mechanisms, a form of Party, Type and E-Mail.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ScreenElement, ShowHow } from '../../gauntlet/types.ts'
import { type NewParty, TRYTON_PASSWORD, TRYTON_USER } from '../../thirdparty/tryton/app.ts'
import { inputOf, option } from '../answers.ts'
import type { TrytonClient } from './index.ts'

const secrets = { username: TRYTON_USER, password: TRYTON_PASSWORD }

const options = (q: Question, label: RegExp) => {
  const picked = q.options.filter((o) => label.test(o.label)).map((o) => o.value)
  return picked.length ? picked : undefined
}
const wordOf = (q: Question) => /option called “([^”]+)”/.exec(q.text)?.[1]
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i')

const holds = (outer: ScreenElement['bounds'], inner: ScreenElement['bounds']) =>
  inner.x >= outer.x - 4 &&
  inner.y >= outer.y - 4 &&
  inner.x <= outer.x + outer.width &&
  inner.y <= outer.y + outer.height

const FIELD = /^(textbox|searchbox|combobox|listbox|textarea)$/
const named =
  (role: string, name: RegExp): Pick =>
  (e) =>
    e.role === role && name.test(e.name.trim())
const button = (name: string) => named('button', exactly(name))
/** An entry of the client's menu: a cell of the tree on the left (the pane is 200 pixels wide). */
const menu =
  (name: string): Pick =>
  (e) =>
    e.role === 'cell' && e.name.trim() === name && e.bounds.x < 200
/** A tab's search box: the unnamed box right under its toolbar (the one at the top left searches the menu). */
const SEARCH: Pick = (e, all) =>
  e.role === 'textbox' &&
  e.name.trim() === '' &&
  e.bounds.x >= 200 &&
  all.some((b) => b.role === 'button' && b.name.trim() === 'Switch View' && b.bounds.y < e.bounds.y)
/** The password dialog's box: unnamed, under its caption “Password for admin”. */
const PASSWORD: Pick = (e, all) =>
  e.role === 'textbox' &&
  all.some(
    (c) =>
      c.role === 'text' &&
      /^password for/i.test(c.name.trim()) &&
      e.bounds.y >= c.bounds.y + c.bounds.height - 2 &&
      e.bounds.y - c.bounds.y < 80 &&
      e.bounds.x < c.bounds.x + c.bounds.width &&
      e.bounds.x + e.bounds.width > c.bounds.x,
  )
/** The Type drop-down of a contact mechanism: its box is named “Type:”, the drop-down around it is not. */
const TYPE: Pick = (e, all) =>
  e.role === 'combobox' &&
  all.some((t) => t.role === 'textbox' && /^type:?$/i.test(t.name.trim()) && holds(e.bounds, t.bounds))
/** A cell of the list under the column header so named. */
const cellUnder =
  (header: RegExp, text: string): Pick =>
  (e, all) => {
    if (e.role !== 'cell' || e.name.trim() !== text) return false
    const head = all.find((h) => h.role === 'columnheader' && header.test(h.name.trim()))
    if (!head) return false
    const mid = e.bounds.x + e.bounds.width / 2
    return mid > head.bounds.x && mid < head.bounds.x + head.bounds.width
  }

/**
 * The client asks for a sign-in each time it opens: its login dialog (user name filled in from
 * the last time), Connect, then the password in a second dialog, OK.
 */
const SIGN_IN: ShowHow['signIn'] = {
  when: (e) => e.role === 'button' && /^connect$/i.test(e.name.trim()),
  steps: [
    { type: TRYTON_USER, into: named('textbox', /^user name:?$/i) },
    { click: button('Connect') },
    // The password dialog opens over the main window: the owner looks at it before typing.
    { click: named('text', /^password for/i) },
    { type: TRYTON_PASSWORD, into: PASSWORD },
    { click: button('OK') },
  ],
}
/** Opens a list of the Party menu in a tab: the Party folder opened (Shift+Right opens, never closes), then the entry. */
const openMenu = (entry: string): ShowHow['show'] => [
  { click: menu('Party') },
  { key: 'shift+Right' },
  { click: menu(entry) },
  { key: 'Enter' },
]

/** The owner's answers about the client's screens (as test/thirdparty/tryton/jobs.ts does for sao). */
function owner(opts: {
  fields: Record<string, Pick>
  send: RegExp
  outputs?: RegExp
  shown?: Record<string, PointAt>
  show?: ShowHow
}) {
  return (q: Question): string | string[] | PointAt | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return opts.show
    const input = inputOf(q)
    const field = input ? opts.fields[input] : undefined
    if (q.kind === 'map_field' && field) {
      // The options are the screen's boxes by their names; the owner picks the one their box has.
      const names: Record<string, RegExp> = { name: /^(name|party|search)\b:?/i, email: /^e-?mail:?$/i }
      return option(q, names[input!] ?? /$^/) ?? NONE_OF_THESE
    }
    const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
    if (q.kind === 'map_field' && fromSample && fromSample in opts.fields)
      return option(q, /^the sample’s/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && input && /^point at the field/i.test(q.text) && field) return { pointAt: field }
    if (q.kind === 'map_option') {
      const word = wordOf(q)
      if (!word) return undefined
      // The client writes the contact type "E-Mail".
      return option(q, /^e-?mail$/i.test(word) ? /^e-?mail$/i : exactly(word)) ?? NONE_OF_THESE
    }
    if (q.kind === 'choose_submit') return option(q, opts.send) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text))
      return { pointAt: (e) => /^(button|link)$/.test(e.role) && opts.send.test(e.name.trim()) }
    if (q.kind === 'choose_outputs' && opts.outputs) return options(q, opts.outputs)
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key) return opts.shown?.[key]
    const expected = /^the sample expects “([^”]+)” for/i.exec(q.text)?.[1]
    if (q.kind === 'point' && expected)
      return {
        pointAt: (e) => e.name.trim().toLowerCase() === expected.toLowerCase() || e.value === expected,
      }
    return undefined
  }
}

/** Every party as stored, by id, to compare before and after a call. */
const snapshot = (app: TrytonClient) =>
  new Map(app.parties().map((p) => [p.id, JSON.stringify({ code: p.code, name: p.name, emails: p.emails })]))

/** Add a party with an e-mail address and return the code Tryton gives it. */
export const addParty: GauntletJob<TrytonClient> = {
  app: 'tryton-client',
  name: 'add a party with an e-mail, return its code',
  method: 'POST',
  path: '/parties',
  prompt:
    'Add a new party in the Tryton desktop client with this name and e-mail address, and return the code Tryton gives the party',
  secrets,
  samples: () => [
    {
      input: { name: 'Northwind Traders', email: 'orders@northwind.example' },
      expect: { code: { $type: 'string' } },
    },
  ],
  // The owner makes the party (Parties › New, Name, Save: the Code fills in), then its e-mail
  // (Contact Mechanisms › New: Party, Type E-Mail, the address, Save), and reads the code on the
  // party's own tab.
  answer: owner({
    fields: {
      name: (e, all) => named('textbox', /^(name|party):?$/i)(e, all),
      email: named('textbox', /^e-?mail:?$/i),
    },
    send: /^save$/i,
    outputs: /\bcode\b/i,
    shown: { code: { pointAt: (e) => FIELD.test(e.role) && /^code:?$/i.test(e.name.trim()) } },
    show: {
      signIn: SIGN_IN,
      show: [
        ...openMenu('Parties'),
        { click: button('New') },
        { type: 'Northwind Traders', into: named('textbox', /^name:?$/i) },
        { click: button('Save') },
        ...openMenu('Contact Mechanisms'),
        { click: button('New') },
        // Tab leaves the Party box: the client fills it with the one party of that name.
        { type: 'Northwind Traders', into: named('textbox', /^party:?$/i) },
        { key: 'Tab' },
        { choose: 'E-Mail', in: TYPE },
        { type: 'orders@northwind.example', into: named('textbox', /^e-?mail:?$/i) },
        { click: button('Save') },
        // Back on the party's tab, its Code shows.
        { click: named('tab', /^party \/ parties$/i) },
      ],
    },
  }),
  live: (app) => {
    const before = snapshot(app)
    const wanted = [
      { name: 'Larkspur Garden Centre', email: 'plants@larkspur-garden.example' },
      { name: 'Ouseburn Coffee Roasters', email: 'beans@ouseburn-roasters.example' },
    ]
    return wanted.map((want) => ({
      input: want,
      check: (r) => {
        const parties = app.parties()
        const found = parties.filter((p) => p.name === want.name)
        if (found.length !== 1) return `${found.length} parties named “${want.name}”, expected exactly 1`
        const party = found[0]!
        if (party.emails.length !== 1 || party.emails[0] !== want.email)
          return `the party's e-mail addresses are ${JSON.stringify(party.emails)}, expected [${want.email}]`
        // Nothing else changed: the parties there before are as they were, and no other party is new
        // (the other live call's party aside).
        for (const [id, was] of before) {
          const now = parties.find((p) => p.id === id)
          const is = now && JSON.stringify({ code: now.code, name: now.name, emails: now.emails })
          if (is !== was) return `party ${id} changed: was ${was}, is ${is ?? 'gone'}`
        }
        const extra = parties.filter((p) => !before.has(p.id) && !wanted.some((w) => w.name === p.name))
        if (extra.length) return `other parties were added: ${extra.map((p) => p.name).join(', ')}`
        return String(r.code ?? '')
          .trim()
          .toUpperCase() === party.code.toUpperCase()
          ? undefined
          : `code ${JSON.stringify(r.code)} is not the new party's code ${party.code}`
      },
    }))
  },
}

/** A party's e-mail address, found by its name. */
export const partyEmail: GauntletJob<TrytonClient> = {
  app: 'tryton-client',
  name: 'look up a party by name, return its e-mail',
  method: 'GET',
  path: '/parties/email',
  prompt: 'Look up the party with this name in the Tryton desktop client and tell me its e-mail address',
  secrets,
  samples: (app) => {
    app.addParties([
      { name: 'Harbour Lights Cafe', email: 'bookings@harbourlights.example', phone: '+44 1947 820 331' },
      { name: 'Harbour Master Supplies', email: 'desk@harbourmaster.example' },
      { name: 'Moorland Bakery', email: 'bread@moorland.example', phone: '+44 1845 522 907' },
    ])
    return [{ input: { name: 'Harbour Lights Cafe' }, expect: { email: 'bookings@harbourlights.example' } }]
  },
  // The owner filters the Contact Mechanisms list by party (Party: "…" in its search box): the
  // party's E-Mail row shows the address in the Value column.
  answer: owner({
    fields: { name: SEARCH },
    send: /^search$/i,
    outputs: /e-?mail|value/i,
    shown: { email: { pointAt: cellUnder(/^value$/i, 'bookings@harbourlights.example') } },
    show: {
      signIn: SIGN_IN,
      show: [
        ...openMenu('Contact Mechanisms'),
        { type: 'Party: "Harbour Lights Cafe"', into: SEARCH },
        { key: 'Enter' },
      ],
    },
  }),
  live: (app) => {
    const wanted: NewParty[] = [
      { name: 'Fenwick Joinery', email: 'workshop@fenwickjoinery.example', phone: '+44 1665 510 442' },
      { name: 'Moorland Bakery', email: 'bread@moorland.example' },
    ]
    // A look-alike: a party whose name shares a word with the one asked for.
    app.addParties([
      { name: 'Fenwick Glass', email: 'studio@fenwickglass.example' },
      wanted[0]!,
      // The samples' party, when the samples have not run in this database.
      ...(app.parties().some((p) => p.name === wanted[1]!.name) ? [] : [wanted[1]!]),
    ])
    const count = app.parties().length
    return wanted.map((want) => ({
      input: { name: want.name },
      check: (r) => {
        const stored = app.parties()
        const party = stored.filter((p) => p.name === want.name)
        if (party.length !== 1 || party[0]!.email !== want.email)
          return `harness: party ${want.name} is stored as ${JSON.stringify(party)}`
        if (stored.length !== count)
          return `${stored.length} parties, there were ${count}: a lookup changed them`
        const email = String(r.email ?? '').trim()
        return email.toLowerCase() === want.email!.toLowerCase()
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected email “${want.email}”`
      },
    }))
  },
}

export const trytonClientJobs = [addParty, partyEmail]

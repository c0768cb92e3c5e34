// Jobs a small company would want from its Tryton customer register, in the caller's words ("add a
// customer", "where is this customer based", "who do we have in this city"), each checked in
// Tryton's own database. Tryton's customers are its parties; sao asks for a sign-in first (user
// name, then the password in a second dialog): every job carries the admin's credentials.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ShowHow } from '../../gauntlet/types.ts'
import { type NewParty, TRYTON_PASSWORD, TRYTON_USER, type Tryton } from './app.ts'

const secrets = { username: TRYTON_USER, password: TRYTON_PASSWORD }

/** The value of the first option whose label matches the first pattern that matches any option. */
const option = (q: Question, ...labels: RegExp[]) => {
  for (const label of labels) {
    const found = q.options.find((o) => label.test(o.label.trim()))
    if (found) return found.value
  }
  return undefined
}
/** The values of all options whose labels match (a multiple choice). */
const options = (q: Question, label: RegExp) => {
  const picked = q.options.filter((o) => label.test(o.label)).map((o) => o.value)
  return picked.length ? picked : undefined
}
/** The caller's input a map_field question is about (“Where should the value of “email” …”). */
const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]
/** The caller's word a map_option question is about (“… has no option called “email” …”). */
const wordOf = (q: Question) => /option called “([^”]+)”/.exec(q.text)?.[1]
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i')

/** The owner points at the first element on the screen of one of these roles named like this. */
const pointAt = (roles: RegExp, name: RegExp): PointAt => ({
  pointAt: (e) => roles.test(e.role) && name.test(e.name),
})
const FIELD = /^(textbox|searchbox|combobox|listbox|textarea)$/
const BUTTON = /^(button|link)$/
/** sao's sign-in: LOGIN sends the user name, OK the password. */
const SIGN_IN = /^(log ?in|sign ?in|ok)$/i

/** A box of this role in the column under the header so named (sao's editable lists have no labels). */
const under =
  (header: RegExp, role: string): Pick =>
  (e, all) => {
    if (e.role !== role) return false
    const head = all.find((h) => h.role === 'columnheader' && header.test(h.name.trim()))
    if (!head) return false
    const b = head.bounds
    const mid = e.bounds.x + e.bounds.width / 2
    return mid > b.x && mid < b.x + b.width && e.bounds.y >= b.y + b.height - 2
  }
/** The button so named on the same line as a caption (a sub-list's own toolbar: its New, its Open). */
const onBarOf =
  (caption: RegExp, button: RegExp): Pick =>
  (e, all) => {
    if (e.role !== 'button' || !button.test(e.name.trim())) return false
    return all.some(
      (c) =>
        c.role === 'text' &&
        caption.test(c.name.trim()) &&
        e.bounds.x > c.bounds.x &&
        e.bounds.x - c.bounds.x < 600 &&
        e.bounds.y < c.bounds.y + c.bounds.height &&
        e.bounds.y + e.bounds.height > c.bounds.y,
    )
  }
/** An entry of sao's menu (the tree on the left): a cell so named. */
const menu =
  (name: string): Pick =>
  (e) =>
    e.role === 'cell' && e.name.trim() === name
const button =
  (name: string): Pick =>
  (e) =>
    e.role === 'button' && e.name.trim().toLowerCase() === name.toLowerCase()
// The search box, by its name: a box with suggestions, read as a text box or a combo box.
const isSearch = (e: { role: string; name: string }) =>
  /^(combobox|textbox)$/.test(e.role) && /^search$/i.test(e.name.trim())
const SEARCH: Pick = (e) => isSearch(e)

/**
 * sao asks for a sign-in each time it is opened, unless the builder has signed in already: then
 * a demonstration starts there (the user name, LOGIN, then the password in a second dialog, OK).
 */
const SIGN_IN_STEPS: ShowHow['show'] = [
  { type: TRYTON_USER, into: (e) => e.role === 'textbox' && /^user name$/i.test(e.name.trim()) },
  { click: (e) => e.role === 'button' && /^login$/i.test(e.name.trim()) },
  // The password dialog slides in: the owner looks at it (a click on its caption) before typing.
  { click: (e) => e.role === 'text' && /^password for/i.test(e.name.trim()) },
  { type: TRYTON_PASSWORD, into: (e) => e.role === 'textbox' && /^password for/i.test(e.name.trim()) },
  { click: (e) => e.role === 'button' && /^ok$/i.test(e.name.trim()) },
]
/** The owner signs in first when sao asks (its user name box shows). */
const SAO_SIGN_IN: ShowHow['signIn'] = {
  when: (e) => e.role === 'textbox' && /^user name$/i.test(e.name.trim()),
  steps: SIGN_IN_STEPS,
}

/**
 * What the owner answers about sao's screens: which field takes each input (by the labels they
 * know), which button sends it (the sign-in dialogs' when that is the one asked about), which of a
 * drop-down's options a caller's word is, which of the screen's values the caller asked for, and
 * where a value shows when asked to point at it. What they would not expect, they leave unanswered.
 */
function owner(opts: {
  fields: Record<string, RegExp>
  /** Where the owner points when asked for a field by input (sao's unlabelled boxes). */
  pointFields?: Record<string, PointAt>
  send: RegExp
  outputs?: RegExp
  /** Where each output shows, to point at. */
  shown?: Record<string, PointAt>
  show?: ShowHow
}) {
  return (q: Question): string | string[] | PointAt | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return opts.show
    const input = inputOf(q)
    const field = input ? opts.fields[input] : undefined
    if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
    // Asked whether a text typed in the demonstration holds one of the caller's inputs: it does.
    const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
    if (q.kind === 'map_field' && fromSample && fromSample in opts.fields)
      return option(q, /^the sample’s/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && input && /^point at the field/i.test(q.text))
      return opts.pointFields?.[input] ?? (field ? pointAt(FIELD, field) : undefined)
    if (q.kind === 'map_option') {
      const word = wordOf(q)
      if (!word) return undefined
      // sao writes the contact type "E-Mail".
      const label = /^e-?mail$/i.test(word) ? /^e-?mail$/i : exactly(word)
      return option(q, label) ?? NONE_OF_THESE
    }
    if (q.kind === 'choose_submit') return option(q, opts.send) ?? option(q, SIGN_IN) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text)) return pointAt(BUTTON, opts.send)
    if (q.kind === 'choose_outputs' && opts.outputs) return options(q, opts.outputs)
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key) return opts.shown?.[key]
    // Asked where a value of the sample is shown, the owner points at that value on the screen.
    const expected = /^the sample expects “([^”]+)” for/i.exec(q.text)?.[1]
    if (q.kind === 'point' && expected)
      return {
        pointAt: (e) => e.name.trim().toLowerCase() === expected.toLowerCase() || e.value === expected,
      }
    return undefined
  }
}

/** Add a customer (a party with an e-mail address) and return the code Tryton gives it. */
export const addCustomer: GauntletJob<Tryton> = {
  app: 'tryton',
  name: 'add a customer, return its code',
  method: 'POST',
  path: '/customers',
  prompt:
    "Add a new customer (a party in Tryton) with this name and email address, and return the customer's party code",
  secrets,
  samples: () => [
    {
      input: { name: 'Northwind Traders', email: 'orders@northwind.example' },
      expect: { code: { $type: 'string' } },
    },
  ],
  // The owner knows the party form: Name at the top, the e-mail as a line of Contact Mechanisms
  // (its New, then type E-Mail and the address in Value), and Save; the Code fills in on saving.
  answer: owner({
    fields: { name: /^name:?$/i, email: /^(e-?mail|value)\b/i },
    // The Value box of a contact line has no label: the box under the sub-list's "Value" column.
    // Before the line is added with the sub-list's New, the owner says it is not on this screen.
    pointFields: { email: { pointAt: under(/^value$/i, 'textbox'), elseNotHere: true } },
    send: /^save$/i,
    outputs: /\bcode\b/i,
    shown: { code: pointAt(FIELD, /^code:?$/i) },
    show: {
      signIn: SAO_SIGN_IN,
      show: [
        { click: menu('Party') },
        { click: menu('Parties') },
        { click: button('New') },
        { type: 'Northwind Traders', into: (e) => e.role === 'textbox' && /^name:?$/i.test(e.name.trim()) },
        { click: onBarOf(/^contact mechanisms$/i, /^new$/i) },
        { choose: 'E-Mail', in: under(/^type$/i, 'combobox') },
        // The row's editor for the value opens on a click of its cell, then takes the text.
        { click: under(/^value$/i, 'textbox') },
        { type: 'orders@northwind.example', into: under(/^value$/i, 'textbox') },
        { click: button('Save') },
      ],
    },
  }),
  live: (tryton) =>
    [
      { name: 'Blue Harbor Bakery', email: 'hello@blueharbor.example' },
      { name: 'Kestrel Bikes', email: 'sales@kestrel-bikes.example' },
    ].map((want) => ({
      input: want,
      check: (r) => {
        const parties = tryton.parties()
        const found = parties.filter((p) => p.name === want.name)
        if (found.length !== 1) return `${found.length} parties named “${want.name}”, expected exactly 1`
        const party = found[0]!
        if (!party.emails.includes(want.email))
          return `the party's e-mail addresses are ${JSON.stringify(party.emails)}, expected ${want.email}`
        const elsewhere = parties.filter((p) => p.id !== party.id && p.emails.includes(want.email))
        if (elsewhere.length)
          return `${want.email} was also stored on ${elsewhere.map((p) => p.name).join(', ')}`
        return String(r.code ?? '')
          .trim()
          .toUpperCase() === party.code.toUpperCase()
          ? undefined
          : `code ${JSON.stringify(r.code)} is not the new party's code ${party.code}`
      },
    })),
}

/** Where a customer found by name is based (the city of their address) and their e-mail. */
export const customerCity: GauntletJob<Tryton> = {
  app: 'tryton',
  name: 'look up a customer by name, return city and email',
  method: 'GET',
  path: '/customers/contact',
  prompt: 'Look up the customer with this name and tell me which city they are in and their email address',
  secrets,
  samples: (tryton) => {
    tryton.addParties([
      {
        name: 'Harbour Lights Cafe',
        email: 'bookings@harbourlights.example',
        street: '3 Pier Road',
        postalCode: 'YO21 3PU',
        city: 'Whitby',
      },
      {
        name: 'Harbour Master Supplies',
        email: 'desk@harbourmaster.example',
        street: '40 Wellington Dock',
        postalCode: 'HU1 2DJ',
        city: 'Hull',
      },
      {
        name: 'Moorland Bakery',
        email: 'bread@moorland.example',
        street: '7 Market Place',
        postalCode: 'YO7 1HL',
        city: 'Thirsk',
      },
      {
        name: 'Quayside Books',
        email: 'shop@quaysidebooks.example',
        street: '21 Sandhill',
        postalCode: 'NE1 3JF',
        city: 'Newcastle upon Tyne',
      },
    ])
    return [
      {
        input: { name: 'Harbour Lights Cafe' },
        expect: { city: 'Whitby', email: 'bookings@harbourlights.example' },
      },
    ]
  },
  // The owner searches the party list by name and opens the party: its address shows the City,
  // its Contact Mechanisms list the e-mail.
  answer: owner({
    fields: { name: /^search$/i },
    pointFields: { name: { pointAt: isSearch } },
    send: /^search$/i,
    outputs: /city|e-?mail|value/i,
    shown: {
      city: pointAt(/^(combobox|textbox)$/, /^city:?$/i),
      email: { pointAt: (e) => e.name.trim() === 'bookings@harbourlights.example' },
    },
    show: {
      signIn: SAO_SIGN_IN,
      show: [
        { click: menu('Party') },
        { click: menu('Parties') },
        { type: 'Harbour Lights Cafe', into: SEARCH },
        { key: 'Enter' },
        { click: (e) => e.role === 'cell' && e.name.trim() === 'Harbour Lights Cafe' },
        { click: button('Switch') },
      ],
    },
  }),
  live: (tryton) => {
    const wanted: NewParty[] = [
      {
        name: 'Fenwick Joinery',
        email: 'workshop@fenwickjoinery.example',
        street: '2 Bondgate Within',
        postalCode: 'NE66 1TD',
        city: 'Alnwick',
      },
      {
        name: 'Moorland Bakery',
        email: 'bread@moorland.example',
        street: '7 Market Place',
        postalCode: 'YO7 1HL',
        city: 'Thirsk',
      },
    ]
    // A look-alike: a party whose name shares words with the one asked for.
    tryton.addParties([
      {
        name: 'Fenwick Glass',
        email: 'studio@fenwickglass.example',
        street: '9 Bridge Street',
        postalCode: 'NE61 1NB',
        city: 'Morpeth',
      },
      wanted[0]!,
    ])
    return wanted.map((want) => ({
      input: { name: want.name },
      check: (r) => {
        const stored = tryton.parties().filter((p) => p.name === want.name)
        if (stored.length !== 1 || stored[0]!.city !== want.city)
          return `harness: party ${want.name} is stored as ${JSON.stringify(stored)}`
        const city = String(r.city ?? '').trim()
        const email = String(r.email ?? '').trim()
        return city.toLowerCase() === want.city!.toLowerCase() &&
          email.toLowerCase() === want.email!.toLowerCase()
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected city “${want.city}” and email “${want.email}”`
      },
    }))
  },
}

/** The customers with an address in a city, by name. */
export const customersInCity: GauntletJob<Tryton> = {
  app: 'tryton',
  name: 'list the customers in a city',
  method: 'GET',
  path: '/customers/in-city',
  prompt: 'List the names of the customers who have an address in the given city',
  secrets,
  samples: (tryton) => {
    tryton.addParties([
      { name: 'Aire Valley Print', street: '15 Wellington Street', postalCode: 'LS1 4DL', city: 'Leeds' },
      { name: 'Kirkgate Florist', street: '28 Kirkgate', postalCode: 'LS2 7DR', city: 'Leeds' },
      { name: 'Shambles Tea Room', street: '5 The Shambles', postalCode: 'YO1 7LZ', city: 'York' },
      { name: 'Clifton Cycles', street: '88 Whiteladies Road', postalCode: 'BS8 2QN', city: 'Bristol' },
      { name: 'Temple Meads Deli', street: '1 Station Approach', postalCode: 'BS1 6QF', city: 'Bristol' },
      // In Leeds, on a street named after another city.
      { name: 'Station Bakery', street: '12 York Road', postalCode: 'LS9 8AA', city: 'Leeds' },
    ])
    return [{ input: { city: 'Leeds' }, expect: { customers: { $type: 'array' } } }]
  },
  // The owner uses the Addresses list, filtered by its City ("City: Leeds" in the search box).
  answer: owner({
    fields: { city: /^search$/i },
    pointFields: { city: { pointAt: isSearch } },
    send: /^search$/i,
    outputs: /party|name|customer/i,
    show: {
      signIn: SAO_SIGN_IN,
      show: [
        { click: menu('Party') },
        { click: menu('Addresses') },
        { type: 'City: Leeds', into: SEARCH },
        { key: 'Enter' },
      ],
    },
  }),
  // York is this job's own: no other job seeds a party there (a run of the whole app shares one database).
  live: (tryton) => {
    tryton.addParties([
      { name: 'Micklegate Music', street: '60 Micklegate', postalCode: 'YO1 6LF', city: 'York' },
    ])
    return [
      {
        input: { city: 'York' },
        check: (r) =>
          namesListed(
            tryton,
            r,
            ['Shambles Tea Room', 'Micklegate Music'],
            ['Station Bakery', 'Aire Valley Print', 'Clifton Cycles'],
          ),
      },
      {
        input: { city: 'Bristol' },
        check: (r) =>
          namesListed(
            tryton,
            r,
            ['Clifton Cycles', 'Temple Meads Deli'],
            ['Kirkgate Florist', 'Shambles Tea Room'],
          ),
      },
    ]
  },
}

export const trytonJobs = [addCustomer, customerCity, customersInCity]

/** The returned list names exactly these parties (each once), and none of the others. */
function namesListed(
  tryton: Tryton,
  result: Record<string, unknown>,
  want: string[],
  not: string[],
): string | undefined {
  const stored = tryton.parties()
  for (const name of [...want, ...not])
    if (!stored.some((p) => p.name === name)) return `harness: no party named ${name}`
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list)
  const missing = want.filter((w) => !text.includes(w))
  const extra = not.filter((w) => text.includes(w))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${text.slice(0, 300)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}: ${text.slice(0, 300)}`
  if (list.length !== want.length)
    return `list has ${list.length} entries, expected ${want.length}: ${text.slice(0, 300)}`
  return undefined
}

// Jobs an office would want from phpMyAdmin on its shop database, in the caller's words: add a
// customer and get its number back; look a customer up by email. Checked in the database itself.
import { NONE_OF_THESE } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type Pick, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import type { Customer, PhpMyAdmin } from './app.ts'

const SECRETS = { username: 'office', password: 'shop-office-pass' }

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value
/**
 * Asked where a value goes, the owner picks the field of the column named like the value's key
 * (they know their table's columns), or says none of these.
 */
const column = (q: { text: string; options: { value: string; label: string }[] }) => {
  const key = /value of “([^”]+)”/.exec(q.text)?.[1] ?? ''
  return key ? (option(new RegExp(`\\b${key}\\b`, 'i'))(q) ?? NONE_OF_THESE) : NONE_OF_THESE
}
const options = (label: RegExp) => (q: { options: { value: string; label: string }[] }) => {
  const values = q.options.filter((o) => label.test(o.label)).map((o) => o.value)
  return values.length ? values : undefined
}

export const addCustomer: GauntletJob<PhpMyAdmin> = {
  app: 'phpmyadmin',
  name: 'add a customer, return its id',
  method: 'POST',
  path: '/customers',
  prompt:
    "Add a customer with the given email, name and city to the customers table of the shop database, and return the new customer's id",
  secrets: SECRETS,
  samples: () => [
    {
      input: { email: 'ada@example.com', name: 'Ada Lovelace', city: 'London' },
      expect: { id: { $type: 'number' } },
    },
  ],
  // phpMyAdmin's forms are sent with "Go"; the id is the one it reports for the inserted row.
  // Asked to show how, the owner opens the table from the navigation tree and uses its Insert tab.
  answer: (q) =>
    q.kind === 'demonstrate'
      ? insertShown
      : q.kind === 'map_field'
        ? column(q)
        : q.kind === 'choose_submit'
          ? option(/^go$/i)(q)
          : q.kind === 'choose_outputs'
            ? options(/inserted row id|^id\b/i)(q)
            : undefined,
  live: (app) => {
    const calls = [
      ['grace@example.com', 'Grace Hopper', 'Arlington'],
      ['alan@example.com', 'Alan Turing', 'Wilmslow'],
    ]
    const others = () => app.customers().filter((c) => !calls.some(([email]) => email === c.email))
    const before = others()
    return calls.map(([email, name, city]) => ({
      input: { email, name, city },
      check: (r) => {
        const rows = app.customers().filter((c) => c.email === email)
        if (rows.length !== 1) return `${rows.length} customers with email ${email}, expected 1`
        const row = rows[0]!
        if (row.name !== name || row.city !== city)
          return `the row is ${JSON.stringify(row)}, expected ${name} in ${city}`
        const wrong = sameRows(before, others())
        if (wrong) return wrong
        return String(r.id) === String(row.id)
          ? undefined
          : `returned id ${JSON.stringify(r.id)}, the row's id is ${row.id}`
      },
    }))
  },
}

/** The owner inserts the sample's customer as they always do: shop › customers › Insert, one row, Go. */
const insertShown: ShowHow = {
  show: [
    { click: (e) => e.role === 'link' && e.name === 'shop' },
    { click: (e) => e.role === 'link' && e.name === 'customers' },
    { click: (e) => e.role === 'link' && /^insert\b/i.test(e.name) },
    { type: 'ada@example.com', into: beside(/^email$/) },
    { type: 'Ada Lovelace', into: beside(/^name$/) },
    { type: 'London', into: beside(/^city$/) },
    { click: (e) => e.role === 'button' && e.name === 'Go' },
  ],
}

export const findCustomer: GauntletJob<PhpMyAdmin> = {
  app: 'phpmyadmin',
  name: 'look up a customer by email, return name and city',
  method: 'GET',
  path: '/customers/by-email',
  prompt:
    'Look up the customer with the given email in the customers table of the shop database and return their name and city',
  secrets: SECRETS,
  samples: (app) => {
    app.addCustomer('marie@example.com', 'Marie Curie', 'Paris')
    return [{ input: { email: 'marie@example.com' }, expect: { name: 'Marie Curie', city: 'Paris' } }]
  },
  // The owner looks a customer up in the table's Search tab: the email goes in the Value box of
  // the email row, Go sends it, and the row found shows the name and city in their columns.
  // Asked to show how, they do just that (findShown); asked to point, they point at those.
  answer: (q) =>
    q.kind === 'demonstrate'
      ? findShown
      : q.kind === 'point'
        ? findPointed(q.text)
        : q.kind === 'map_field' && /the sample’s `email`, or always the same/i.test(q.text)
          ? (option(/^the sample’s email\b/i)(q) ?? NONE_OF_THESE)
          : q.kind === 'map_field'
            ? column(q)
            : q.kind === 'choose_submit'
              ? (option(/^go$|^search$/i)(q) ?? NONE_OF_THESE)
              : q.kind === 'choose_outputs'
                ? options(/^(name|city)\b/i)(q)
                : undefined,
  live: (app) => {
    app.addCustomer('niels@example.com', 'Niels Bohr', 'Copenhagen')
    app.addCustomer('emmy@example.com', 'Emmy Noether', 'Erlangen')
    const before = app.customers()
    return [
      ['niels@example.com', 'Niels Bohr', 'Copenhagen'],
      ['lise@example.com', 'Lise Meitner', 'Vienna'],
    ].map(([email, name, city]) => ({
      input: { email },
      check: (r) => {
        const wrong = sameRows(before, app.customers())
        if (wrong) return wrong
        if (r.name !== name || r.city !== city)
          return `returned ${JSON.stringify(r).slice(0, 200)}, expected name ${name} and city ${city}`
        return undefined
      },
    }))
  },
}

/** The sample's customer, as the owner looks them up. */
const MARIE = { email: 'marie@example.com', name: 'Marie Curie', city: 'Paris' }

/**
 * The owner looks the sample's customer up as they always do: shop › customers › Search, the
 * email typed into the Value box of the email row, Go. Signed out, they sign in first.
 */
const findShown: ShowHow = {
  signIn: {
    when: (e) => e.role === 'textbox' && /^username/i.test(e.name),
    steps: [
      { type: SECRETS.username, into: (e) => e.role === 'textbox' && /^username/i.test(e.name) },
      { type: SECRETS.password, into: (e) => e.role === 'textbox' && /^password/i.test(e.name) },
      { click: (e) => e.role === 'button' && /^(log in|go)$/i.test(e.name.trim()) },
    ],
  },
  show: [
    { click: (e) => e.role === 'link' && e.name === 'shop' },
    { click: (e) => e.role === 'link' && e.name === 'customers' },
    { click: (e) => e.role === 'link' && /^search\b/i.test(e.name) },
    { type: MARIE.email, into: beside(/^email$/) },
    { click: (e) => e.role === 'button' && e.name === 'Go' },
  ],
}

/**
 * The cell of the found row in the column headed `column` (the table of rows found lists its
 * columns as headers along the top): the first cell below that header, in its column.
 */
const cellUnder =
  (column: string): Pick =>
  (e, all) => {
    if (e.role !== 'cell') return false
    const header = all.find(
      (h) => /^(columnheader|rowheader)$/.test(h.role) && h.name.trim() === column && h.bounds.y < e.bounds.y,
    )
    if (!header) return false
    const centre = (b: typeof e.bounds) => b.x + b.width / 2
    const first = all.find(
      (c) =>
        c.role === 'cell' &&
        c.bounds.y >= header.bounds.y + header.bounds.height - 2 &&
        Math.abs(centre(c.bounds) - centre(header.bounds)) < header.bounds.width / 2,
    )
    return first === e
  }

/** Where the owner points on the Search tab and on the rows it finds (undefined: not a question of theirs). */
function findPointed(text: string): PointAt | undefined {
  const point = (pick: Pick): PointAt => ({ pointAt: pick, elseNotHere: true })
  if (/^point at the field where the value of “email”|free to take “email”/i.test(text))
    return point(beside(/^email$/))
  if (/^point at the button/i.test(text)) return point((e) => e.role === 'button' && e.name.trim() === 'Go')
  // A value of the sample the builder did not find: the owner points at it in the row found.
  const expected = /^the sample expects “([^”]+)” for/i.exec(text)?.[1]
  if (expected) return point((e) => e.role === 'cell' && e.name.trim() === expected)
  const key =
    /^point at the (?:value that the job should return as “([^”]+)”|(\w+) the job should return)/i.exec(text)
  const column = (key?.[1] ?? key?.[2])?.toLowerCase()
  if (column === 'name' || column === 'city') return point(cellUnder(column))
  return undefined
}

export const phpMyAdminJobs = [addCustomer, findCustomer]

/** Rows other than the job's own are left as they were (a look-up changes nothing). */
function sameRows(before: Customer[], after: Customer[]): string | undefined {
  return JSON.stringify(before) === JSON.stringify(after)
    ? undefined
    : `other rows of the table changed: ${JSON.stringify(after).slice(0, 300)}`
}

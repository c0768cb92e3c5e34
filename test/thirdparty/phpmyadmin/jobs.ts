// Jobs an office would want from phpMyAdmin on its shop database, in the caller's words: add a
// customer and get its number back; look a customer up by email. Checked in the database itself.
import { NONE_OF_THESE } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type ShowHow } from '../../gauntlet/types.ts'
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
  answer: (q) =>
    q.kind === 'map_field'
      ? column(q)
      : q.kind === 'choose_submit'
        ? option(/^go$|^search$/i)(q)
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

export const phpMyAdminJobs = [addCustomer, findCustomer]

/** Rows other than the job's own are left as they were (a look-up changes nothing). */
function sameRows(before: Customer[], after: Customer[]): string | undefined {
  return JSON.stringify(before) === JSON.stringify(after)
    ? undefined
    : `other rows of the table changed: ${JSON.stringify(after).slice(0, 300)}`
}

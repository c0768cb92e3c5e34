// Jobs a team would want from the admin UI of its SQLite database (phpLiteAdmin, behind a password
// screen): put a customer row in, and find customers by city as a list. Checked in the file itself.
import type { PhpLiteAdmin } from '../apps/phpliteadmin.ts'
import type { GauntletJob } from '../types.ts'

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value

export const addCustomer: GauntletJob<PhpLiteAdmin> = {
  app: 'phpliteadmin',
  name: 'add a customer row',
  method: 'POST',
  path: '/customers',
  prompt: 'Insert a new row into the customers table with the given name, email and city',
  secrets: { password: 'office-admin-pass' },
  samples: () => [{ input: { name: 'Ada Lovelace', email: 'ada@example.com', city: 'London' } }],
  answer: (q) => (q.kind === 'choose_submit' ? option(/^insert$/i)(q) : undefined),
  live: (app) =>
    [
      ['Grace Hopper', 'grace@example.com', 'Arlington'],
      ['Alan Turing', 'alan@example.com', 'Wilmslow'],
    ].map(([name, email, city]) => ({
      input: { name, email, city },
      check: () => {
        const rows = app.customers().filter((c) => c.email === email)
        if (rows.length !== 1) return `${rows.length} rows with email ${email}, expected 1`
        return rows[0]!.name === name && rows[0]!.city === city
          ? undefined
          : `the row is ${JSON.stringify(rows[0])}, expected ${name} in ${city}`
      },
    })),
}

export const customersByCity: GauntletJob<PhpLiteAdmin> = {
  app: 'phpliteadmin',
  name: 'search customers by city, return a list',
  method: 'GET',
  path: '/customers/by-city',
  prompt: 'Search the customers table for the customers in a city and return them as a list',
  secrets: { password: 'office-admin-pass' },
  samples: (app) => {
    app.addCustomer('Marie Curie', 'marie@example.com', 'Paris')
    app.addCustomer('Louis Pasteur', 'louis@example.com', 'Paris')
    app.addCustomer('Niels Bohr', 'niels@example.com', 'Copenhagen')
    return [{ input: { city: 'Paris' }, expect: { customers: { $type: 'array' } } }]
  },
  answer: (q) => (q.kind === 'choose_submit' ? option(/search/i)(q) : undefined),
  live: (app) => {
    app.addCustomer('Hans Christian Ørsted', 'hans@example.com', 'Copenhagen')
    app.addCustomer('Emmy Noether', 'emmy@example.com', 'Erlangen')
    return [
      {
        input: { city: 'Copenhagen' },
        check: (r) => listOf(r, ['niels@example.com', 'hans@example.com'], ['marie@example.com']),
      },
      { input: { city: 'Erlangen' }, check: (r) => listOf(r, ['emmy@example.com'], ['niels@example.com']) },
    ]
  },
}

export const phpLiteAdminJobs = [addCustomer, customersByCity]

function listOf(result: Record<string, unknown>, want: string[], not: string[]): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list)
  const missing = want.filter((w) => !text.includes(w))
  const extra = not.filter((w) => text.includes(w))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${text.slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}`
  return undefined
}

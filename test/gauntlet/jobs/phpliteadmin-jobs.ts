// Jobs a team would want from the admin UI of its SQLite database (phpLiteAdmin, behind a password
// screen): put a customer row in and get its id, find customers by city as a list, and change the
// city of the customer with a given email. Checked in the database file itself.
import type { PhpLiteAdmin } from '../apps/phpliteadmin.ts'
import type { GauntletJob } from '../types.ts'

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value

export const addCustomer: GauntletJob<PhpLiteAdmin> = {
  app: 'phpliteadmin',
  name: 'add a customer row, return its id',
  method: 'POST',
  path: '/customers',
  prompt:
    'Insert a new row into the customers table with the given name, email, city and signup date, and return its id',
  secrets: { password: 'office-admin-pass' },
  samples: () => [
    {
      input: { name: 'Ada Lovelace', email: 'ada@example.com', city: 'London', signupDate: '2026-11-20' },
      expect: { id: { $type: 'number' } },
    },
  ],
  answer: (q) => (q.kind === 'choose_submit' ? option(/^insert$/i)(q) : undefined),
  live: (app) =>
    [
      ['Grace Hopper', 'grace@example.com', 'Arlington', '2026-12-01'],
      ['Alan Turing', 'alan@example.com', 'Wilmslow', '2026-12-02'],
    ].map(([name, email, city, signupDate]) => ({
      input: { name, email, city, signupDate },
      check: (r) => {
        const rows = app.customers().filter((c) => c.email === email)
        if (rows.length !== 1) return `${rows.length} rows with email ${email}, expected 1`
        const row = rows[0]!
        if (row.name !== name || row.city !== city || row.signup_date !== signupDate)
          return `the row is ${JSON.stringify(row)}, expected ${name} in ${city} since ${signupDate}`
        return String(r.id) === String(row.id)
          ? undefined
          : `returned id ${JSON.stringify(r.id)}, the row's id is ${row.id}`
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

/** Change-by-value: the customer is found by email (not by id), and only that row changes. */
export const moveCustomer: GauntletJob<PhpLiteAdmin> = {
  app: 'phpliteadmin',
  name: "change a customer's city, found by email",
  method: 'POST',
  path: '/customers/move',
  prompt: 'Edit the row of the customers table with the given email and change its city',
  secrets: { password: 'office-admin-pass' },
  samples: (app) => {
    app.addCustomer('Isaac Newton', 'isaac@example.com', 'Woolsthorpe')
    return [{ input: { email: 'isaac@example.com', city: 'Cambridge' } }]
  },
  answer: (q) => (q.kind === 'choose_submit' ? option(/save/i)(q) : undefined),
  live: (app) => {
    app.addCustomer('Dorothy Hodgkin', 'dorothy@example.com', 'Cairo')
    app.addCustomer('Rosalind Franklin', 'rosalind@example.com', 'London')
    return [
      ['dorothy@example.com', 'Oxford'],
      ['rosalind@example.com', 'Cambridge'],
    ].map(([email, city]) => ({
      input: { email, city },
      check: () => {
        const all = app.customers()
        const rows = all.filter((c) => c.email === email)
        if (rows.length !== 1) return `${rows.length} rows with email ${email}, expected 1`
        if (rows[0]!.city !== city) return `the row is ${JSON.stringify(rows[0])}, expected city ${city}`
        const karl = all.find((c) => c.email === 'karl@example.com')
        return karl?.city === 'Mannheim' ? undefined : `another row changed too: ${JSON.stringify(karl)}`
      },
    }))
  },
}

export const phpLiteAdminJobs = [addCustomer, customersByCity, moveCustomer]

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

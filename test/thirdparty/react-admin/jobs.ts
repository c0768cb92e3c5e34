// Jobs a small company would want from its react-admin back office, in the caller's words ("add a
// customer", "the customer with this email", "the orders that have shipped"), each checked in the
// db.json that json-server keeps. The back office is open (no sign-in).
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, PointAt } from '../../gauntlet/types.ts'
import type { OrderStatus, ReactAdmin, StoredCustomer } from './app.ts'

/** The value of the first option whose label matches the first pattern that matches any option. */
const option = (q: Question, ...labels: RegExp[]) => {
  for (const label of labels) {
    const found = q.options.find((o) => label.test(o.label.trim()))
    if (found) return found.value
  }
  return undefined
}
/** The caller's input a map_field question is about (“Where should the value of “email” …”). */
const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]
/** The caller's word a map_option question is about (“… has no option called “shipped” …”). */
const wordOf = (q: Question) => /option called “([^”]+)”/.exec(q.text)?.[1]

/** The owner points at the first element on the screen of one of these roles named like this. */
const pointAt = (roles: RegExp, name: RegExp): PointAt => ({
  pointAt: (e) => roles.test(e.role) && name.test(e.name),
})
const FIELD = /^(textbox|searchbox|combobox|listbox|spinbutton)$/
const BUTTON = /^(button|link)$/
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i')

/**
 * What the owner answers about a form or a search: which field takes an input (by the labels they
 * know), which button sends it; what is not offered, they point at.
 */
function formAnswer(
  q: Question,
  fields: Record<string, RegExp>,
  send?: RegExp,
): string | string[] | PointAt | undefined {
  const input = inputOf(q)
  const field = input ? fields[input] : undefined
  if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
  if (q.kind === 'point' && field && /^point at the field/i.test(q.text)) return pointAt(FIELD, field)
  if (q.kind === 'choose_submit') {
    if (send) return option(q, send) ?? NONE_OF_THESE
    // The list filters as the caller types: no button sends it; Enter does no harm.
    return option(q, /press enter/i) ?? NONE_OF_THESE
  }
  if (q.kind === 'point' && send && /^point at the button/i.test(q.text)) return pointAt(BUTTON, send)
  return undefined
}

/** Add a customer and return the id the back office gives them. */
export const addCustomer: GauntletJob<ReactAdmin> = {
  app: 'react-admin',
  name: 'add a customer, return its id',
  method: 'POST',
  path: '/customers',
  prompt: "Add a new customer with this name, email, phone number and city, and return the new customer's id",
  samples: () => [
    {
      input: {
        name: 'Ada Lovelace',
        email: 'ada@analytical-engines.example',
        phone: '+44 20 7946 0000',
        city: 'London',
      },
      expect: { customerId: { $type: 'string' } },
    },
  ],
  // The create form has Name, Email, Phone and City, and one Save button; once saved, the
  // customer's page shows the new id in its (read-only) Id field, which the owner points at.
  answer: (q) => {
    if (q.kind === 'point' && /job should return as “customerId”/i.test(q.text))
      return pointAt(FIELD, /^id$/i)
    if (q.kind === 'choose_outputs') {
      const picked = q.options.filter((o) => /^id\b/i.test(o.label.trim())).map((o) => o.value)
      // One value for one key ("which value is customerId?"), several when choosing the outputs.
      return picked.length ? (q.multiple ? picked : picked[0]) : undefined
    }
    return formAnswer(q, { name: /^name/i, email: /^email/i, phone: /^phone/i, city: /^city/i }, /^save$/i)
  },
  live: (admin) =>
    [
      {
        name: 'Hedy Lamarr',
        email: 'hedy@lamarr-radio.example',
        phone: '+1 310 555 0707',
        city: 'Los Angeles',
      },
      { name: 'Tim Berners-Lee', email: 'tbl@webfoundry.example', phone: '+41 22 555 0808', city: 'Geneva' },
    ].map((want) => ({
      input: want,
      check: (r) => {
        const found = admin.customers().filter((c) => c.email === want.email)
        if (found.length !== 1)
          return `${found.length} customers with email ${want.email}, expected exactly 1`
        const stored = found[0]!
        const fields = { name: stored.name, email: stored.email, phone: stored.phone, city: stored.city }
        if (JSON.stringify(fields) !== JSON.stringify(want))
          return `the customer was stored as ${JSON.stringify(fields)}, expected ${JSON.stringify(want)}`
        const numbers = String(r.customerId ?? '').match(/\d+/g) ?? []
        return numbers.length === 1 && Number(numbers[0]) === stored.id
          ? undefined
          : `customerId ${JSON.stringify(r.customerId)} is not the new customer's id ${stored.id}`
      },
    })),
}

const margaret = {
  name: 'Margaret Hamilton',
  email: 'm.hamilton@apollo-supplies.example',
  phone: '+1 617 555 0303',
  city: 'Boston',
}

/** Look a customer up by email address and return their name, phone and city. */
export const customerByEmail: GauntletJob<ReactAdmin> = {
  app: 'react-admin',
  name: 'look up a customer by email',
  method: 'GET',
  path: '/customers/by-email',
  prompt: 'Look up the customer with this email address and return their name, phone number and city',
  samples: (admin) => {
    admin.addCustomers([
      {
        name: 'Grace Hopper',
        email: 'grace.hopper@northwind.example',
        phone: '+44 20 7946 0101',
        city: 'London',
      },
      {
        name: 'Alan Turing',
        email: 'alan@turing-consulting.example',
        phone: '+44 161 496 0202',
        city: 'Manchester',
      },
      margaret,
      { name: 'Linus Berg', email: 'linus.berg@fjord-foods.example', phone: '+47 22 55 0404', city: 'Oslo' },
    ])
    return [
      {
        input: { email: margaret.email },
        expect: { name: margaret.name, phone: margaret.phone, city: margaret.city },
      },
    ]
  },
  // The customer list has one search box that filters as you type; the row (or the customer's
  // page) shows the name, phone and city, which the owner picks or points at.
  answer: (q) => {
    if (q.kind === 'choose_outputs') {
      const picked = q.options.filter((o) => /name|phone|city/i.test(o.label)).map((o) => o.value)
      return picked.length ? picked : undefined
    }
    if (q.kind === 'point' && /^point at the .* the job should return/i.test(q.text)) {
      const asked = /^point at the (.*) the job should return/i.exec(q.text)![1]!
      const key = (['name', 'phone', 'city'] as const).find((k) => asked.toLowerCase().includes(k))
      return key ? pointAt(/./, exactly(margaret[key])) : undefined
    }
    return formAnswer(q, { email: /search/i })
  },
  live: (admin) => {
    const wanted: Omit<StoredCustomer, 'id'>[] = [
      {
        name: 'Katherine Johnson',
        email: 'kjohnson@langley-tools.example',
        phone: '+1 757 555 0505',
        city: 'Hampton',
      },
      {
        name: 'Edsger Dijkstra',
        email: 'e.dijkstra@nuenen-books.example',
        phone: '+31 40 555 0606',
        city: 'Eindhoven',
      },
    ]
    // Look-alikes: a wrong row read from the list, not the searched one, shows in the answer.
    admin.addCustomers([
      {
        name: 'Katherine Jones',
        email: 'kjones@langley-tools.example',
        phone: '+1 757 555 0909',
        city: 'Norfolk',
      },
      ...wanted,
      {
        name: 'Anne Dijkstra',
        email: 'a.dijkstra@nuenen-books.example',
        phone: '+31 40 555 0616',
        city: 'Nuenen',
      },
    ])
    return wanted.map((want) => ({
      input: { email: want.email },
      check: (r) =>
        r.name === want.name && r.phone === want.phone && r.city === want.city
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 300)}, expected name “${want.name}”, phone “${want.phone}” and city “${want.city}”`,
    }))
  },
}

/** List the orders that have a given status, with reference, customer and total. */
export const ordersWithStatus: GauntletJob<ReactAdmin> = {
  app: 'react-admin',
  name: 'list the orders with a status',
  method: 'GET',
  path: '/orders',
  prompt: 'List the orders that have the given status, with the reference, customer and total of each',
  samples: (admin) => {
    const [bakery, garage, florist] = admin.addCustomers([
      { name: 'Rosa Baker', email: 'rosa@corner-bakery.example', phone: '+44 20 7946 1111', city: 'Leeds' },
      { name: 'Omar Haddad', email: 'omar@haddad-garage.example', phone: '+44 20 7946 2222', city: 'York' },
      { name: 'Ines Flores', email: 'ines@flores-florist.example', phone: '+44 20 7946 3333', city: 'Bath' },
    ])
    admin.addOrders([
      { reference: 'SO-1001', customerId: bakery!, total: 120, status: 'paid' },
      { reference: 'SO-1002', customerId: garage!, total: 45.5, status: 'pending' },
      { reference: 'SO-1003', customerId: florist!, total: 310, status: 'shipped' },
      { reference: 'SO-1004', customerId: garage!, total: 89.9, status: 'paid' },
      { reference: 'SO-1005', customerId: bakery!, total: 15, status: 'cancelled' },
      { reference: 'SO-1006', customerId: bakery!, total: 72.25, status: 'shipped' },
      { reference: 'SO-1007', customerId: florist!, total: 230, status: 'pending' },
    ])
    return [{ input: { status: 'paid' }, expect: { orders: { $type: 'array' } } }]
  },
  // The order list has a status filter (Pending, Paid, Shipped, Cancelled) that applies at once.
  answer: (q) => {
    if (q.kind === 'map_option') {
      const word = wordOf(q)?.toLowerCase()
      return q.options.find((o) => o.label.trim().toLowerCase() === word)?.value ?? NONE_OF_THESE
    }
    if (q.kind === 'choose_outputs') {
      const picked = q.options.filter((o) => /reference|customer|total/i.test(o.label)).map((o) => o.value)
      return picked.length ? picked : undefined
    }
    if (q.kind === 'point' && /^point at the list/i.test(q.text)) return pointAt(/./, /SO-1001|SO-1004/)
    return formAnswer(q, { status: /status/i })
  },
  live: (admin) => {
    const [cafe] = admin.addCustomers([
      { name: 'Yuki Tanaka', email: 'yuki@tanaka-cafe.example', phone: '+44 20 7946 4444', city: 'Derby' },
    ])
    admin.addOrders([
      { reference: 'SO-1008', customerId: cafe!, total: 64.8, status: 'shipped' },
      { reference: 'SO-1009', customerId: cafe!, total: 18.4, status: 'cancelled' },
    ])
    return (['shipped', 'cancelled'] as const).map((status) => ({
      input: { status },
      check: (r) => ordersListed(admin, r, status),
    }))
  },
}

export const reactAdminJobs = [addCustomer, customerByEmail, ordersWithStatus]

/**
 * The returned list names every stored order of the status, with its customer's name and total,
 * and no order of another status.
 */
function ordersListed(
  admin: ReactAdmin,
  result: Record<string, unknown>,
  status: OrderStatus,
): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const orders = admin.orders()
  const customers = new Map(admin.customers().map((c) => [c.id, c.name]))
  const want = orders.filter((o) => o.status === status)
  const not = orders.filter((o) => o.status !== status).map((o) => o.reference)
  if (want.length < 2) return `harness: ${want.length} order(s) are ${status}, expected at least 2`
  const text = JSON.stringify(list)
  const missing = want.filter((o) => !text.includes(o.reference)).map((o) => o.reference)
  const extra = not.filter((ref) => text.includes(ref))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${text.slice(0, 300)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}: ${text.slice(0, 300)}`
  if (list.length !== want.length)
    return `list has ${list.length} entries, expected ${want.length}: ${text.slice(0, 300)}`
  for (const order of want) {
    const entry = JSON.stringify(list.find((e) => JSON.stringify(e).includes(order.reference)))
    const customer = customers.get(order.customerId) ?? ''
    if (!entry.includes(customer))
      return `the entry of ${order.reference} lacks its customer ${customer}: ${entry}`
    if (!entry.includes(order.total.toFixed(2)))
      return `the entry of ${order.reference} lacks its total ${order.total.toFixed(2)}: ${entry}`
  }
  return undefined
}

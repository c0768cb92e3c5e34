// GnuCash (development set, bench/native-split.md): GTK 3 accounting. It opens a small company's
// books from an SQLite file named on its command line and writes each change to it at once (no
// save needed); the checks read that file (book.ts). It shows a splash window titled "GnuCash"
// before the main window, and holds a lock row (gnclock) in the book while it runs.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type Pick, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import { inputOf, option } from '../answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'
import { accounts, customers, seedBook, seedSettings } from './book.ts'

/** The book's file. */
const bookOf = (a: NativeRunningApp) => a.dataFiles[0]!

/** The accounts and customers the seed holds, which no job may change. */
const SEED_ACCOUNTS = [
  'Assets',
  'Assets:Current Assets',
  'Assets:Current Assets:Checking Account',
  'Assets:Current Assets:Petty Cash',
  'Assets:Accounts Receivable',
  'Income',
  'Income:Sales',
  'Income:Consulting',
  'Expenses',
  'Expenses:Rent',
  'Expenses:Office Supplies',
  'Expenses:Utilities',
  'Equity',
  'Equity:Opening Balances',
]
const SEED_CUSTOMERS = [
  { id: '000001', name: 'Harbor Dental Clinic' },
  { id: '000002', name: 'Maple Leaf Bakery' },
]

/** What is wrong with the seeded records, or undefined when they are all still there. */
function seedIntact(file: string): string | undefined {
  const names = accounts(file).map((a) => a.fullName)
  const lost = SEED_ACCOUNTS.filter((n) => names.filter((m) => m === n).length !== 1)
  if (lost.length) return `the book's accounts ${lost.join(', ')} are missing or doubled`
  const stored = customers(file)
  for (const c of SEED_CUSTOMERS)
    if (stored.filter((s) => s.id === c.id && s.name === c.name).length !== 1)
      return `customer ${c.id} ${c.name} changed`
  return undefined
}

const named =
  (role: RegExp, name: RegExp): Pick =>
  (e) =>
    role.test(e.role) && name.test(e.name.trim())
const pointAt = (pick: Pick): PointAt => ({ pointAt: pick })

/**
 * The owner's answers: which box takes each input (by the caption beside it, GnuCash's boxes have
 * no names of their own in the customer dialog), OK sends, and the demonstration.
 */
function owner(opts: {
  fields: Record<string, RegExp>
  pick: Record<string, Pick>
  outputs?: RegExp
  shown?: Record<string, PointAt>
  show: ShowHow
}) {
  return (q: Question): string | string[] | PointAt | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return opts.show
    const input = inputOf(q)
    const field = input ? opts.fields[input] : undefined
    if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
    const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
    if (q.kind === 'map_field' && fromSample && fromSample in opts.fields)
      return option(q, /^the sample’s/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && input && /^point at the field/i.test(q.text)) {
      const pick = opts.pick[input]
      return pick ? { pointAt: pick, elseNotHere: true } : undefined
    }
    if (q.kind === 'choose_submit') return option(q, /^ok$/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text)) return pointAt(named(/^button$/, /^ok$/i))
    if (q.kind === 'choose_outputs' && opts.outputs) {
      const picked = q.options.filter((o) => opts.outputs!.test(o.label)).map((o) => o.value)
      return picked.length ? picked : undefined
    }
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key) return opts.shown?.[key]
    return undefined
  }
}

/** A cell of the Accounts tab's tree so named (the parent the new account goes under). */
const accountCell =
  (name: string): Pick =>
  (e) =>
    e.role === 'cell' && e.name.trim() === name

/** Add an account under a top-level parent. */
export const addAccount: GauntletJob<NativeRunningApp> = {
  app: 'gnucash',
  name: 'add an account under a parent account',
  method: 'POST',
  path: '/accounts',
  prompt: 'Add a new account with this name under the given parent account in GnuCash',
  demonstrate: true,
  samples: () => [{ input: { name: 'Software Subscriptions', parent: 'Expenses' } }],
  // The owner selects the parent in the Accounts tab, then New (the toolbar's "Create a new
  // Account"): the New Account dialog opens with that parent chosen and its type; the name goes in
  // "Account name" and OK adds it (written to the book at once).
  answer: owner({
    fields: { name: /^account name$/i, parent: /^parent account$/i },
    pick: {
      name: named(/^textbox$/, /^account name$/i),
      parent: (e) => e.role === 'cell' && /^(assets|equity|expenses|income)$/i.test(e.name.trim()),
    },
    show: {
      show: [
        { click: accountCell('Expenses') },
        { click: named(/^button$/, /^new$/i) },
        { type: 'Software Subscriptions', into: named(/^textbox$/, /^account name$/i) },
        { click: named(/^button$/, /^ok$/i) },
      ],
    },
  }),
  live: (app) =>
    [
      { name: 'Travel and Mileage', parent: 'Expenses' },
      { name: 'Interest Income', parent: 'Income' },
    ].map((want) => ({
      input: want,
      check: () => {
        const file = bookOf(app)
        const all = accounts(file)
        const found = all.filter((a) => a.name === want.name)
        if (found.length !== 1) return `${found.length} accounts named “${want.name}”, expected exactly 1`
        if (found[0]!.parent !== want.parent)
          return `“${want.name}” is under “${found[0]!.parent || '(top level)'}”, expected “${want.parent}”`
        return seedIntact(file)
      },
    })),
}

const BILLING_NAME = beside(/^name$/i)
const ADDRESS = beside(/^address$/i)
const COMPANY = beside(/^company name$/i)
/** Find Customer's search text: the unnamed box right of its "contains" drop-down. */
const SEARCH_TEXT: Pick = (e, all) => {
  if (e.role !== 'textbox') return false
  const how = all.find((c) => c.role === 'combobox' && /^contains$/i.test((c.value ?? c.name).trim()))
  if (!how) return false
  const b = how.bounds
  return Math.abs(e.bounds.y - b.y) < 10 && e.bounds.x >= b.x + b.width - 2
}

/** Add a customer and return the customer number GnuCash gives it. */
export const addCustomer: GauntletJob<NativeRunningApp> = {
  app: 'gnucash',
  name: 'add a customer, return its customer number',
  method: 'POST',
  path: '/customers',
  prompt:
    'Add a new customer in GnuCash (Business › Customer › New Customer…) with this company name and ' +
    'billing address, and return the customer number GnuCash gives it',
  demonstrate: true,
  samples: () => [
    {
      input: { name: 'Bayview Veterinary', address: '8 Harbor Road, Camden, ME 04843' },
      expect: { id: { $type: 'string' } },
    },
  ],
  // The owner opens Business › Customer › New Customer… (its keys Alt+B, C, N), types the
  // company name and the billing address (Name and the first Address line; GnuCash refuses a
  // customer without one), leaves Customer Number empty (GnuCash numbers it on OK) and presses
  // OK; the number shows in Business › Customer › Find Customer…'s results (verified by hand:
  // the dialog, Company Name required, the number 000003 given to the first new customer).
  answer: owner({
    fields: { name: /^company name$/i, address: /^address$/i },
    pick: { name: COMPANY, address: ADDRESS },
    outputs: /customer number|\bid\b/i,
    shown: { id: { pointAt: (e) => /^\d{6}$/.test(e.name.trim()) } },
    show: {
      show: [
        // One chord a key: Alt+B opens Business, then C its Customer submenu, N New Customer….
        { key: 'Alt+b' },
        { key: 'c' },
        { key: 'n' },
        { type: 'Bayview Veterinary', into: COMPANY },
        { type: 'Bayview Veterinary', into: BILLING_NAME },
        { type: '8 Harbor Road, Camden, ME 04843', into: ADDRESS },
        { click: named(/^button$/, /^ok$/i) },
        // The number is shown nowhere once the dialog closes: Business › Customer › Find
        // Customer… (Alt+B, C, F), Company Name contains the name, Find lists it with its ID.
        { key: 'Alt+b' },
        { key: 'c' },
        { key: 'f' },
        { type: 'Bayview Veterinary', into: SEARCH_TEXT },
        { click: named(/^button$/, /^find$/i) },
      ],
    },
  }),
  live: (app) =>
    [
      { name: 'Seaside Yoga Studio', address: '31 Ocean Avenue, Kennebunk, ME 04043' },
      { name: 'Granite State Plumbing', address: '107 Main Street, Concord, NH 03301' },
    ].map((want) => ({
      input: want,
      check: (r) => {
        const file = bookOf(app)
        const all = customers(file)
        const found = all.filter((c) => c.name === want.name)
        if (found.length !== 1) return `${found.length} customers named “${want.name}”, expected exactly 1`
        const customer = found[0]!
        const flat = (s: string) =>
          s
            .replace(/[\s,]+/g, ' ')
            .trim()
            .toLowerCase()
        if (!flat(customer.address.join(' ')).includes(flat(want.address).split(' ').slice(0, 3).join(' ')))
          return `the customer's address is ${JSON.stringify(customer.address)}, expected ${want.address}`
        if (all.filter((c) => c.id === customer.id).length !== 1)
          return `customer number ${customer.id} is used by more than one customer`
        const intact = seedIntact(file)
        if (intact) return intact
        const returned = String(r.id ?? r.number ?? r.customerNumber ?? r.customer_number ?? '').trim()
        return returned === customer.id || returned.replace(/^0+/, '') === customer.id.replace(/^0+/, '')
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 200)}, expected customer number ${customer.id}`
      },
    })),
}

export const app: NativeThirdPartyApp = {
  name: 'gnucash',
  kind: 'accounting, books in an SQLite file (GTK 3)',
  async start(home) {
    const dir = join(home.path, 'Documents')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'harbor-design.gnucash')
    seedBook(file)
    seedSettings(home)
    const running: NativeRunningApp = {
      name: 'gnucash',
      url: `file://${file}`,
      spec: { executable: 'gnucash', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: [addAccount, addCustomer],
}

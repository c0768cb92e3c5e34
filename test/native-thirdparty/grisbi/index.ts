// Grisbi (held-out set, bench/native-split.md): GTK 3 personal finance. It opens a household's
// accounts file (.gsb, XML) named on its command line and writes it when the user saves (Ctrl+S);
// the checks read that file (file.ts).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, type Pick, type PointAt, type ShowHow } from '../../gauntlet/types.ts'
import { inputOf, option } from '../answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'
import { payees, SEED_PAYEES, seedFile, seedSettings, transactions } from './file.ts'

const fileOf = (a: NativeRunningApp) => a.dataFiles[0]!

/** The seed's four transactions (numbers 1 to 4), which no job may change. */
const SEED_AMOUNTS = [-950, -84.37, -61.2, -112.05]

function seedIntact(file: string): string | undefined {
  const stored = payees(file).map((p) => p.name)
  const lost = SEED_PAYEES.filter((n) => stored.filter((m) => m === n).length !== 1)
  if (lost.length) return `the payees ${lost.join(', ')} are missing or doubled`
  const txs = transactions(file)
  for (const [i, amount] of SEED_AMOUNTS.entries()) {
    const t = txs.find((x) => x.nb === i + 1)
    if (!t || Math.abs(t.amount - amount) > 0.001) return `seeded transaction ${i + 1} changed`
  }
  return undefined
}

/**
 * A box of Grisbi's transaction form: its boxes have no names; each shows its field's name in
 * grey as its text while empty ("Date", "Payee", "Debit", "Credit", "Notes").
 */
const formBox =
  (caption: string): Pick =>
  (e) =>
    e.role === 'textbox' && (e.value ?? '').trim() === caption
const cell =
  (name: string): Pick =>
  (e) =>
    e.role === 'cell' && e.name.trim() === name

const button =
  (name: string): Pick =>
  (e) =>
    e.role === 'button' && e.name.trim().toLowerCase() === name.toLowerCase()
/** The Name box of the payee's Properties dialog (unnamed, right of its "Name:" caption). */
const PAYEE_NAME = beside(/^name:?$/i)

function owner(opts: {
  fields: Record<string, RegExp>
  pick: Record<string, Pick>
  send: RegExp
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
    if (q.kind === 'choose_submit') return option(q, opts.send) ?? NONE_OF_THESE
    if (q.kind === 'choose_outputs') return []
    return undefined
  }
}

/** Record a payment (a debit) to a payee in the Checking account, and save. */
export const recordPayment: GauntletJob<NativeRunningApp> = {
  app: 'grisbi',
  name: 'record a payment to a payee',
  method: 'POST',
  path: '/payments',
  prompt:
    'Record a payment of this amount to this payee in the Checking account in Grisbi (on the given date, ' +
    'MM/DD/YYYY, if there is one) and save the file',
  demonstrate: true,
  samples: () => [{ input: { payee: 'Riverside Apartments', amount: 25.5, date: '11/02/2026' } }],
  // The owner opens the Checking account (left tree), fills the form under the list (Date, Payee,
  // Debit), records it with the form's Validate, then saves with Ctrl+S (and Save in Grisbi's
  // "Save changes?" question). A payee not yet known is added by the form itself.
  answer: owner({
    fields: { payee: /^payee$/i, amount: /^debit$/i, date: /^date$/i },
    pick: { payee: formBox('Payee'), amount: formBox('Debit'), date: formBox('Date') },
    send: /^validate$/i,
    show: {
      show: [
        { click: cell('Checking') },
        { type: '11/02/2026', into: formBox('Date') },
        { type: 'Riverside Apartments', into: formBox('Payee') },
        { type: '25.50', into: formBox('Debit') },
        { click: button('Validate') },
        { key: 'Control+s' },
        // Grisbi asks "Save changes in 'household.gsb' file?": Save.
        { click: button('Save') },
      ],
    },
  }),
  live: (app) =>
    [
      { payee: 'City Power & Light', amount: 73.18, date: '11/04/2026' },
      { payee: 'Green Valley Grocers', amount: 46.92 },
    ].map((want) => ({
      input: want,
      check: () => {
        const file = fileOf(app)
        const payee = payees(file).filter((p) => p.name === want.payee)
        if (payee.length !== 1) return `${payee.length} payees named “${want.payee}” in the saved file`
        const found = transactions(file).filter((t) => Math.abs(t.amount + want.amount) < 0.001)
        if (found.length !== 1)
          return `${found.length} transactions of -${want.amount} in the saved file, expected exactly 1`
        const t = found[0]!
        if (t.payee !== payee[0]!.nb) return `the payment of ${want.amount} is not to ${want.payee}`
        if (t.account !== 1) return `the payment of ${want.amount} is not in the Checking account`
        if (want.date && t.date !== want.date) return `the payment is dated ${t.date}, expected ${want.date}`
        return seedIntact(file)
      },
    })),
}

/** Add a payee, and save. */
export const addPayee: GauntletJob<NativeRunningApp> = {
  app: 'grisbi',
  name: 'add a payee',
  method: 'POST',
  path: '/payees',
  prompt: 'Add a new payee with this name in Grisbi and save the file',
  demonstrate: true,
  samples: () => [{ input: { name: 'Northside Pharmacy' } }],
  // The owner opens Payees (left tree), clicks New payee in its toolbar: a line "New payee" is
  // added and its "Properties for New payee" dialog opens; the owner replaces the Name, Apply, then
  // saves with Ctrl+S (and Save in Grisbi's "Save changes?" question).
  answer: owner({
    fields: { name: /^(name|payee)$/i },
    pick: { name: PAYEE_NAME },
    send: /^(ok|validate|save)$/i,
    show: {
      show: [
        { click: cell('Payees') },
        { click: button('New payee') },
        { type: 'Northside Pharmacy', into: PAYEE_NAME },
        { click: button('Apply') },
        { key: 'Control+s' },
        { click: button('Save') },
      ],
    },
  }),
  live: (app) =>
    ['Lakeside Dental Care', 'Oak Street Hardware'].map((name) => ({
      input: { name },
      check: () => {
        const file = fileOf(app)
        const found = payees(file).filter((p) => p.name === name)
        if (found.length !== 1) return `${found.length} payees named “${name}” in the saved file, expected 1`
        const placeholder = payees(file).filter((p) => /^new payee/i.test(p.name))
        if (placeholder.length) return `a payee is left named “${placeholder[0]!.name}”`
        return seedIntact(file)
      },
    })),
}

export const app: NativeThirdPartyApp = {
  name: 'grisbi',
  kind: 'personal finance, accounts in an XML file (GTK 3)',
  async start(home) {
    const dir = join(home.path, 'Documents')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'household.gsb')
    writeFileSync(file, seedFile())
    seedSettings(home)
    const running: NativeRunningApp = {
      name: 'grisbi',
      url: `file://${file}`,
      spec: { executable: 'grisbi', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: [recordPayment, addPayee],
}

// DB Browser for SQLite (held-out set, bench/native-split.md): a Qt 5 browser and editor of
// SQLite databases. It opens the database file given on its command line, a small shop's
// customer list; its changes reach the file only on Write Changes (Ctrl+S). The checks read the
// file with bun:sqlite, read-only (the app keeps it open).
import { Database } from 'bun:sqlite'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, Pick, PointAt, ScreenElement, ShowHow } from '../../gauntlet/types.ts'
import { inputOf } from '../answers.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'

export interface Customer {
  id: number
  name: string
  email: string
  city: string
}

const CUSTOMERS: Omit<Customer, 'id'>[] = [
  { name: 'Harbour Lights Cafe', email: 'bookings@harbourlights.example', city: 'Whitby' },
  { name: 'Moorland Bakery', email: 'bread@moorland.example', city: 'Thirsk' },
  { name: 'Quayside Books', email: 'shop@quaysidebooks.example', city: 'Newcastle upon Tyne' },
  { name: 'Kestrel Bikes', email: 'sales@kestrel-bikes.example', city: 'York' },
  { name: 'Blue Harbor Bakery', email: 'hello@blueharbor.example', city: 'Scarborough' },
]

/** Every customer row as stored in the file. */
export function customers(file: string): Customer[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.query('SELECT id, name, email, city FROM customers ORDER BY id').all() as Customer[]
  } finally {
    db.close()
  }
}

const option = (q: Question, label: RegExp) => q.options.find((o) => label.test(o.label.trim()))?.value
const options = (q: Question, label: RegExp) => {
  const picked = q.options.filter((o) => label.test(o.label)).map((o) => o.value)
  return picked.length ? picked : undefined
}
const named =
  (role: string, name: RegExp): Pick =>
  (e) =>
    e.role === role && name.test(e.name.trim())

/** The cells of the Browse Data grid in the column under this header (the grid's cells have no labels). */
const column = (header: string, all: ScreenElement[]) => {
  const head = all.find((h) => h.role === 'columnheader' && h.name.trim() === header && h.bounds.width > 0)
  if (!head) return []
  const b = head.bounds
  return all.filter((e) => {
    const mid = e.bounds.x + e.bounds.width / 2
    return e.role === 'cell' && mid > b.x && mid < b.x + b.width && e.bounds.y >= b.y + b.height - 2
  })
}
/** The grid's last row's cell under this header: where New Record puts the new row. */
const newRowCell =
  (header: string): Pick =>
  (e, all) =>
    column(header, all).sort((a, b) => b.bounds.y - a.bounds.y)[0] === e
/** The cell under this header in the row whose id reads `id`. */
const rowCell =
  (header: string, id: string): Pick =>
  (e, all) => {
    const key = column('id', all).find((c) => c.name.trim() === id)
    if (!key) return false
    const level = (c: ScreenElement) => Math.abs(c.bounds.y - key.bounds.y) < key.bounds.height / 2
    return column(header, all).find(level) === e
  }

/** Questions both jobs answer the same way: the value a sample expects is pointed at where it shows. */
function common(q: Question): PointAt | undefined {
  const expected = /^the sample expects “([^”]+)” for/i.exec(q.text)?.[1]
  if (q.kind === 'point' && expected)
    return { pointAt: (e) => e.role === 'cell' && e.name.trim() === expected, elseNotHere: true }
  return undefined
}

/**
 * Insert: Browse Data (the customers table is the one shown), New Record adds a row whose id
 * fills in at once; its name, email and city cells are typed in, Tab moving from one to the next,
 * Enter to end, then Write Changes.
 */
const INSERT_SHOW: ShowHow = {
  show: [
    { click: named('tab', /^browse data$/i) },
    { click: named('button', /^new record$/i) },
    // The first click selects the cell; typing into it (a click on the selected cell) opens its editor.
    { click: newRowCell('name') },
    { type: 'Fenwick & Sons', into: newRowCell('name') },
    { key: 'Tab' },
    { type: 'orders@fenwick.example', into: newRowCell('email') },
    { key: 'Tab' },
    { type: 'Leeds', into: newRowCell('city') },
    { key: 'Enter' },
    { click: named('button', /^write changes$/i) },
  ],
}

const addCustomer: GauntletJob<NativeRunningApp> = {
  app: 'sqlitebrowser',
  name: 'insert a row, return its id',
  method: 'POST',
  path: '/customers',
  prompt:
    'In DB Browser for SQLite, add a row to the customers table with this name, email and city, write the changes, and return the new row’s id',
  demonstrate: true,
  samples: () => [{ input: { name: 'Fenwick & Sons', email: 'orders@fenwick.example', city: 'Leeds' } }],
  answer: (q) => {
    if (q.kind === 'demonstrate') return INSERT_SHOW
    const input = inputOf(q)
    if (q.kind === 'map_field' && input && ['name', 'email', 'city'].includes(input))
      return option(q, new RegExp(`^${input}$`, 'i')) ?? NONE_OF_THESE
    const fromSample = /the sample’s `([^`]+)`, or always the same/i.exec(q.text)?.[1]
    if (q.kind === 'map_field' && fromSample && ['name', 'email', 'city'].includes(fromSample))
      return option(q, /^the sample’s/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && input && /^point at the field/i.test(q.text))
      return { pointAt: newRowCell(input), elseNotHere: true }
    if (q.kind === 'choose_submit') return option(q, /^write changes$/i) ?? NONE_OF_THESE
    if (q.kind === 'point' && /^point at the button/i.test(q.text))
      return { pointAt: named('button', /^write changes$/i), elseNotHere: true }
    if (q.kind === 'choose_outputs') return options(q, /^id\b|\bid$/i)
    if (q.kind === 'point' && /^point at the value that the job should return as “id”/i.test(q.text))
      return { pointAt: newRowCell('id'), elseNotHere: true }
    return common(q)
  },
  live: (db) => {
    const file = db.dataFiles[0]!
    let before = customers(file)
    return [
      { name: 'Saltburn Surf Co', email: 'waves@saltburnsurf.example', city: 'Saltburn' },
      { name: 'Dales Cheese Larder', email: 'orders@dalescheese.example', city: 'Hawes' },
    ].map((want) => ({
      input: want,
      check: (r) => {
        const now = customers(file)
        const was = before
        before = now
        const found = now.filter((c) => c.name === want.name)
        if (found.length !== 1) return `${found.length} rows named “${want.name}”, expected exactly 1`
        const row = found[0]!
        if (row.email !== want.email || row.city !== want.city)
          return `the row reads ${JSON.stringify(row)}, expected email ${want.email} and city ${want.city}`
        const others = now.filter((c) => c.id !== row.id)
        if (JSON.stringify(others) !== JSON.stringify(was))
          return `other rows changed: ${was.length} before, ${others.length} besides the new one now`
        return String(r.id ?? '').trim() === String(row.id)
          ? undefined
          : `id ${JSON.stringify(r.id)}, expected ${row.id}`
      },
    }))
  },
}

/** Look up: Browse Data shows every row of customers; the owner finds the id and reads its row. */
const LOOKUP_SHOW: ShowHow = {
  show: [{ click: named('tab', /^browse data$/i) }, { click: rowCell('id', '3') }],
}

const findCustomer: GauntletJob<NativeRunningApp> = {
  app: 'sqlitebrowser',
  name: 'look up a row by id, return its fields',
  method: 'GET',
  path: '/customers',
  prompt:
    'In DB Browser for SQLite, find the row of the customers table with this id and tell me its name, email and city',
  demonstrate: true,
  samples: () => [
    {
      input: { id: '3' },
      expect: { name: 'Quayside Books', email: 'shop@quaysidebooks.example', city: 'Newcastle upon Tyne' },
    },
  ],
  answer: (q) => {
    if (q.kind === 'demonstrate') return LOOKUP_SHOW
    if (q.kind === 'choose_outputs') return options(q, /^(name|email|city)$/i)
    const key = /^point at the value that the job should return as “([^”]+)”/i.exec(q.text)?.[1]
    if (q.kind === 'point' && key && ['name', 'email', 'city'].includes(key))
      return { pointAt: rowCell(key, '3'), elseNotHere: true }
    // The id is found by eye among the rows, not typed anywhere.
    if (q.kind === 'map_field' && inputOf(q) === 'id') return NONE_OF_THESE
    return common(q)
  },
  live: (db) => {
    const file = db.dataFiles[0]!
    const before = customers(file)
    return [2, 4].map((id) => ({
      input: { id: String(id) },
      check: (r) => {
        const now = customers(file)
        if (JSON.stringify(now) !== JSON.stringify(before)) return 'the table changed on a look-up'
        const row = now.find((c) => c.id === id)!
        for (const k of ['name', 'email', 'city'] as const)
          if (String(r[k] ?? '').trim() !== row[k]) return `${k} ${JSON.stringify(r[k])}, expected ${row[k]}`
        return undefined
      },
    }))
  },
}

export const app: NativeThirdPartyApp = {
  name: 'sqlitebrowser',
  kind: 'database browser, rows of an SQLite table (Qt 5)',
  async start(home) {
    const file = join(home.path, 'shop.db')
    const db = new Database(file, { create: true })
    db.run('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, city TEXT)')
    const insert = db.prepare('INSERT INTO customers (name, email, city) VALUES (?, ?, ?)')
    for (const c of CUSTOMERS) insert.run(c.name, c.email, c.city)
    db.close()
    // Its settings as after earlier use: the language chosen and this file among the recent ones.
    const settings = join(home.env.XDG_CONFIG_HOME!, 'sqlitebrowser')
    mkdirSync(settings, { recursive: true })
    writeFileSync(
      join(settings, 'sqlitebrowser.conf'),
      `[%General]\nlanguage=en_US\nrecentFileList=${file}\n`,
    )
    const running: NativeRunningApp = {
      name: 'sqlitebrowser',
      url: `file://${file}`,
      spec: { executable: 'sqlitebrowser', args: [file] },
      dataFiles: [file],
      async stop() {},
    }
    return running
  },
  jobs: [addCustomer, findCustomer],
}

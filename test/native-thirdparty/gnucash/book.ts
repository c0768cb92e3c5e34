// GnuCash's books in an SQLite file (its `sqlite3://` backend, which needs Debian's libdbd-sqlite3):
// the seed is a small company's book written by GnuCash's own engine (python3-gnucash) and kept
// here as an SQL dump, loaded with bun:sqlite. GnuCash writes each change to the file at once, so
// the readers below open it read-only while the app still runs.
import { Database } from 'bun:sqlite'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AppHome } from '../../helpers/native-apps.ts'

/** The book's SQL: two customers, a chart of accounts (Assets, Income, Expenses, Equity) and four transactions. */
const SEED = readFileSync(join(import.meta.dir, 'company-book.sql'), 'utf8')

/** Writes the seeded book at `file`. */
export function seedBook(file: string) {
  const db = new Database(file, { create: true })
  try {
    db.exec(SEED)
  } finally {
    db.close()
  }
}

/**
 * Marks "Tip of the Day" as not shown at startup, as a person who unticked its "Show at startup"
 * box has it. The bench keeps GSettings in a key file in the app's home (bench/native-rig.ts,
 * GSETTINGS_BACKEND=keyfile), so the setting is written there with the same backend.
 */
export function seedSettings(home: AppHome) {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...home.env,
    GSETTINGS_BACKEND: 'keyfile',
  }
  mkdirSync(home.env.XDG_CONFIG_HOME!, { recursive: true })
  const set = Bun.spawnSync(
    ['gsettings', 'set', 'org.gnucash.GnuCash.dialogs.totd', 'show-at-startup', 'false'],
    {
      env,
      stdout: 'pipe',
      stderr: 'pipe',
      timeout: 20_000,
    },
  )
  if (set.exitCode !== 0) throw new Error(`gsettings failed: ${set.stderr.toString()}`)
}

export interface BookAccount {
  guid: string
  name: string
  /** The full name as GnuCash shows it: "Assets:Current Assets:Checking Account". */
  fullName: string
  /** The parent's full name ('' for a top-level account). */
  parent: string
  type: string
}

export interface BookCustomer {
  guid: string
  id: string
  name: string
  /** The billing address lines that are filled in. */
  address: string[]
  active: boolean
}

function read<T>(file: string, f: (db: Database) => T): T {
  const db = new Database(file, { readonly: true })
  try {
    return f(db)
  } finally {
    db.close()
  }
}

/** Every account of the book but the root (and the template root), with full names. */
export function accounts(file: string): BookAccount[] {
  return read(file, (db) => {
    const rows = db
      .query('SELECT guid, name, parent_guid AS parent, account_type AS type FROM accounts')
      .all() as { guid: string; name: string; parent: string | null; type: string }[]
    const byGuid = new Map(rows.map((r) => [r.guid, r]))
    const fullName = (guid: string | null): string => {
      const r = guid ? byGuid.get(guid) : undefined
      if (!r || r.type === 'ROOT') return ''
      const up = fullName(r.parent)
      return up ? `${up}:${r.name}` : r.name
    }
    return rows
      .filter((r) => r.type !== 'ROOT')
      .map((r) => ({
        guid: r.guid,
        name: r.name,
        fullName: fullName(r.guid),
        parent: fullName(r.parent),
        type: r.type,
      }))
  })
}

/** Every customer of the book (Business › Customer), with its ID and billing address. */
export function customers(file: string): BookCustomer[] {
  return read(file, (db) =>
    (
      db
        .query(
          'SELECT guid, id, name, active, addr_addr1 AS a1, addr_addr2 AS a2, addr_addr3 AS a3, addr_addr4 AS a4 FROM customers',
        )
        .all() as {
        guid: string
        id: string
        name: string
        active: number
        a1: string | null
        a2: string | null
        a3: string | null
        a4: string | null
      }[]
    ).map((r) => ({
      guid: r.guid,
      id: r.id,
      name: r.name,
      active: r.active === 1,
      address: [r.a1, r.a2, r.a3, r.a4].filter((l): l is string => !!l?.trim()),
    })),
  )
}

/** Who holds the book open: GnuCash's lock row (host and process), none when it was closed cleanly. */
export function locks(file: string): { hostname: string; pid: number }[] {
  return read(file, (db) => db.query('SELECT Hostname AS hostname, PID AS pid FROM gnclock').all() as never)
}

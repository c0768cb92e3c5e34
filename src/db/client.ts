import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { type BunSQLiteDatabase, drizzle } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema/index.ts'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }

export const DB_FILE = 'deskhook.db'

/** The file at the database's place is not a deskhook database: one line saying what to do. */
export class DatabaseUnusable extends Error {
  override readonly name = 'DatabaseUnusable'
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(
      `${file} ${why}. deskhook will not start over on it (a new first key and setup link would lock out the old ones). Restore your last backup (deskhook restore <archive> --data <dir> --force), or, to start fresh on purpose, move ${file} away and start again.`,
    )
  }
}

/**
 * Opens the store with the pragmas from RELIABILITY.md. `busy_timeout` comes first so that even the
 * WAL switch waits for a lock held by another process (the CLI and the server share the file).
 * synchronous=FULL: an accepted call survives power loss, not only a crash.
 *
 * A missing file is a first start. A file that is there but empty, not SQLite, or another
 * program's database is refused (issue 23, N15): taking it for a first start would hide the loss.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = join(dataDir, DB_FILE)
  createIfMissing(file)
  if (statSync(file).size === 0)
    throw new DatabaseUnusable(
      file,
      'is empty (0 bytes): the data it held is gone (a failed copy or a full disk can do that)',
    )
  const sqlite = new Database(file, { strict: true })
  try {
    sqlite.run('PRAGMA busy_timeout = 10000')
    sqlite.run('PRAGMA journal_mode = WAL')
    sqlite.run('PRAGMA synchronous = FULL')
    sqlite.run('PRAGMA foreign_keys = ON')
    sqlite.run('PRAGMA temp_store = MEMORY')
    sqlite.run('PRAGMA journal_size_limit = 200000000')
    refuseForeign(sqlite, file)
  } catch (error) {
    sqlite.close()
    const code = (error as { code?: string }).code ?? ''
    if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT'))
      throw new DatabaseUnusable(file, 'is not a readable SQLite database (damaged or overwritten)')
    throw error
  }
  // The database holds key hashes and job samples: keep it to the service account.
  chmodSync(file, 0o600)
  return drizzle({ client: sqlite, schema }) as Db
}

/**
 * A first start makes the file whole under another name and links it into place, so no crash
 * leaves an empty `deskhook.db` behind (an empty one that exists is therefore always a loss).
 * The link fails if another process made it first; theirs is kept.
 */
function createIfMissing(file: string): void {
  try {
    statSync(file)
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const fresh = `${file}.${process.pid}.new`
  try {
    const sqlite = new Database(fresh, { create: true, strict: true })
    try {
      // The table migrate() keeps its record in: what marks the file as deskhook's.
      sqlite.run('CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
    } finally {
      sqlite.close()
    }
    chmodSync(fresh, 0o600)
    const fd = openSync(fresh, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    try {
      linkSync(fresh, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  } finally {
    try {
      unlinkSync(fresh)
    } catch {
      // Never made: nothing to remove.
    }
  }
}

/** Tables of its own but none of deskhook's record: another program's database. */
function refuseForeign(sqlite: Database, file: string): void {
  const tables = sqlite
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all()
    .map((t) => t.name)
  if (tables.length > 0 && !tables.includes('_migrations'))
    throw new DatabaseUnusable(
      file,
      `is not a deskhook database (it holds ${tables.slice(0, 3).join(', ')} and no deskhook schema)`,
    )
}

/**
 * Changes when another connection (the CLI) commits. Cheap enough to poll a few times a second,
 * and it is how a running server picks up `deskhook jobs promote` without a restart.
 */
export function dataVersion(db: Db): number {
  const row = db.$client.query<{ data_version: number }, []>('PRAGMA data_version').get()
  return row?.data_version ?? 0
}

import { Database } from 'bun:sqlite'
import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type BunSQLiteDatabase, drizzle } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema/index.ts'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }

export const DB_FILE = 'deskhook.db'

/**
 * Opens the store with the pragmas from RELIABILITY.md. `busy_timeout` comes first so that even the
 * WAL switch waits for a lock held by another process (the CLI and the server share the file).
 * synchronous=FULL: an accepted call survives power loss, not only a crash.
 */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = join(dataDir, DB_FILE)
  const sqlite = new Database(file, { create: true, strict: true })
  sqlite.run('PRAGMA busy_timeout = 10000')
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA synchronous = FULL')
  sqlite.run('PRAGMA foreign_keys = ON')
  sqlite.run('PRAGMA temp_store = MEMORY')
  sqlite.run('PRAGMA journal_size_limit = 200000000')
  // The database holds key hashes and job samples: keep it to the service account.
  chmodSync(file, 0o600)
  return drizzle({ client: sqlite, schema }) as Db
}

/**
 * Changes when another connection (the CLI) commits. Cheap enough to poll a few times a second,
 * and it is how a running server picks up `deskhook jobs promote` without a restart.
 */
export function dataVersion(db: Db): number {
  const row = db.$client.query<{ data_version: number }, []>('PRAGMA data_version').get()
  return row?.data_version ?? 0
}

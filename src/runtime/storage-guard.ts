// The database file under the server: noticed when it is removed or replaced behind the server's
// back (the server would go on writing to an unlinked file while the CLI writes to a new one),
// and a write probe for /_health (a full disk fails writes while reads still work).
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { DB_FILE } from '../db/client.ts'
import { AppError } from '../lib/errors.ts'

/** Seconds a caller is told to wait before retrying when storage fails. */
export const STORAGE_RETRY_AFTER_S = 30

export interface StorageState {
  /** Why calls are refused: the file was removed or replaced (set once; a restart clears it). */
  lost?: string
  /** A write failed for lack of storage (full disk) and none has committed since. */
  failing?: string
}

/** Remembers a storage failure until a write commits again (health reports it meanwhile). */
export function noteStorageFailure(ctx: AppContext, error: unknown): void {
  ctx.storage.failing = (error as Error).message
}

/** SQLite result codes that mean the storage (not the request) failed. */
const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB)/

export function isStorageError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' && STORAGE_CODES.test(code)
}

export function storageUnavailable(why: string): AppError {
  return new AppError('STORAGE_UNAVAILABLE', why, undefined, { 'retry-after': String(STORAGE_RETRY_AFTER_S) })
}

/** The file's identity now, or undefined when it is gone. */
function identity(file: string): string | undefined {
  try {
    const s = statSync(file)
    return `${s.dev}:${s.ino}`
  } catch {
    return undefined
  }
}

/** Watches the database file; on removal or replacement marks storage lost and logs it once. */
export function watchDatabaseFile(ctx: AppContext): { check(): void } {
  const file = join(ctx.config.dataDir, DB_FILE)
  const original = identity(file)
  return {
    check() {
      if (ctx.storage.lost) return
      const now = identity(file)
      if (now === original) return
      ctx.storage.lost =
        now === undefined
          ? `The database file ${file} was removed while the server runs`
          : `The database file ${file} was replaced while the server runs`
      ctx.log.error(
        { file },
        `${ctx.storage.lost}; refusing calls with 503 STORAGE_UNAVAILABLE so nothing is written to the lost file — restore it and restart the server`,
      )
    },
  }
}

/** A real, committed write (a heartbeat row in settings): what /_health reports as `db`. */
export function probeWrite(ctx: AppContext): 'ok' | 'unwritable' | 'replaced' {
  if (ctx.storage.lost) return 'replaced'
  // A small write may still fit where a call's did not (a full disk): the failure stands until a
  // call's write commits again.
  if (ctx.storage.failing) return 'unwritable'
  try {
    ctx.db.$client
      .query(
        `INSERT INTO settings (key, value, updated_at) VALUES ('health.write', ?1, ?1)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(new Date().toISOString())
    return 'ok'
  } catch (error) {
    if (!isStorageError(error)) throw error
    noteStorageFailure(ctx, error)
    ctx.log.error({ err: error }, 'health: the database refuses writes')
    return 'unwritable'
  }
}

// The database file under the server: noticed when it is removed or replaced behind the server's
// back (the server would go on writing to an unlinked file while the CLI writes to a new one),
// a write probe for /_health (a full disk fails writes while reads still work), and the free-space
// guard that stops screenshots before they fill the disk the database needs.
import { statfsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { DB_FILE } from '../db/client.ts'
import { AppError } from '../lib/errors.ts'
import type { Service } from './service.ts'

/** Seconds a caller is told to wait before retrying when storage fails. */
export const STORAGE_RETRY_AFTER_S = 30

export interface StorageState {
  /** Why calls are refused: the file was removed or replaced (set once; a restart clears it). */
  lost?: string
  /** A write failed for lack of storage (full disk) and none has committed since. */
  failing?: string
  /** Free space in the data dir is under `--min-free-disk`: runs run, screenshots are refused. */
  lowDisk?: string
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

/** Bytes free to this process under `dir`, or undefined when the file system cannot say. */
export type FreeSpaceProbe = (dir: string) => number | undefined

export const systemFreeSpace: FreeSpaceProbe = (dir) => {
  try {
    const s = statfsSync(dir)
    return Number(s.bavail) * Number(s.bsize)
  } catch {
    return undefined
  }
}

/** Whether a step screenshot may be written now (false while free space is under the threshold). */
export const screenshotsAllowed = (ctx: AppContext): boolean => ctx.storage.lowDisk === undefined

export interface DiskGuardOptions {
  probe: FreeSpaceProbe
  /** How often free space is looked at; a probe is one statfs call. */
  intervalMs: number
}

/**
 * Watches free space in the data dir. Under `config.minFreeDisk` it sets `ctx.storage.lowDisk`:
 * new screenshots are refused (runs still run and are recorded), with one warning when it starts
 * and one line when space is back. The database keeps the room the screenshots would have taken.
 */
export class DiskGuard implements Service {
  readonly name = 'disk guard'
  readonly #ctx: AppContext
  readonly #opts: DiskGuardOptions
  #timer: ReturnType<typeof setInterval> | undefined

  constructor(ctx: AppContext, options: Partial<DiskGuardOptions> = {}) {
    this.#ctx = ctx
    this.#opts = { probe: systemFreeSpace, intervalMs: 10_000, ...options }
  }

  start(): void {
    if (this.#timer || this.#ctx.config.minFreeDisk <= 0) return
    this.check()
    this.#timer = setInterval(() => this.check(), this.#opts.intervalMs)
    this.#timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  /** One look at free space (the loop calls it; tests call it directly). Never throws. */
  check(): void {
    const { config, log, storage } = this.#ctx
    try {
      const free = this.#opts.probe(config.dataDir)
      if (free === undefined) return
      const low = free < config.minFreeDisk
      if (low && storage.lowDisk === undefined) {
        storage.lowDisk = `Only ${free} bytes free in ${config.dataDir} (under --min-free-disk ${config.minFreeDisk})`
        log.warn(
          { freeBytes: free, minFreeBytes: config.minFreeDisk, dataDir: config.dataDir },
          'disk space low: new step screenshots are refused until space is freed (runs still run)',
        )
      } else if (!low && storage.lowDisk !== undefined) {
        storage.lowDisk = undefined
        log.info({ freeBytes: free }, 'disk space recovered: step screenshots are taken again')
      }
    } catch (err) {
      log.error({ err }, 'free-space check failed; the loop goes on')
    }
  }
}

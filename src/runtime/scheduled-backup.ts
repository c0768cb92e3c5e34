import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { createBackupInChildProcess } from '../modules/backup/backup-process.ts'
import { archiveName, type createBackup } from '../modules/backup/create-backup.ts'
import {
  lastScheduledBackup,
  recordScheduledBackup,
  type ScheduledBackupRecord,
} from '../modules/backup/last-scheduled.ts'
import { SerialPasses } from './serial-passes.ts'
import type { Service } from './service.ts'

export interface ScheduledBackupOptions {
  dir: string
  everyMs: number
  /** Archives kept in `dir` (the newest ones). */
  keep: number
  /** When a backup is due at start (none yet, or the last is older than everyMs): start-up work goes first. */
  firstRunDelayMs: number
  /** After a failed attempt, the next one comes this soon (or after everyMs, if sooner). */
  retryMs: number
  /** Writes one archive: by default in a child process, never blocking calls (tests hold it to see stop() wait). */
  backup: typeof createBackup
}

/** The names this service writes and prunes; any other file in the dir is never touched. */
const ARCHIVE = /^deskhook-backup-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.tar\.gz$/

/** The running service of each server, for tests and for an admin's "back up now" later. */
const services = new WeakMap<AppContext, ScheduledBackup>()
export const scheduledBackupFor = (ctx: AppContext) => services.get(ctx)

/**
 * Writes a backup of the server's own data dir into `--backup-dir` every `--backup-every`, while
 * the server serves (the same online copy `deskhook backup` makes), and keeps the newest
 * `--backup-keep`. The schedule follows the newest archive in the dir, so a restart neither skips
 * nor repeats one. A failure is logged and recorded for `deskhook status`, never thrown; stop()
 * waits for a backup in flight (the archive is only renamed into place once complete).
 */
export class ScheduledBackup implements Service {
  readonly name = 'scheduled backup'
  readonly #ctx: AppContext
  readonly #opts: ScheduledBackupOptions
  /** Backups run one after another, never two at once. */
  readonly #passes = new SerialPasses(() => this.#backup())

  constructor(ctx: AppContext, options: Partial<ScheduledBackupOptions> = {}) {
    const { config } = ctx
    const dir = options.dir ?? config.backupDir
    if (!dir) throw new Error('scheduled backups need a backup dir')
    this.#ctx = ctx
    this.#opts = {
      everyMs: config.backupEveryMs,
      keep: config.backupKeep,
      firstRunDelayMs: 60_000,
      retryMs: 3_600_000,
      backup: createBackupInChildProcess,
      ...options,
      dir,
    }
  }

  async start(): Promise<void> {
    services.set(this.#ctx, this)
    const { dir, everyMs, keep, firstRunDelayMs } = this.#opts
    const newest = (await this.#archives().catch(() => []))[0]
    const now = this.#ctx.clock.now().getTime()
    const due = newest ? newest.at + everyMs - now : 0
    const delayMs = Math.max(due, firstRunDelayMs)
    this.#ctx.log.info(
      { dir, everyMs, keep, next: new Date(now + delayMs).toISOString() },
      'scheduled backups on',
    )
    this.#schedule(delayMs)
  }

  /** One backup now (after the one running, if any); never rejects. */
  runOnce(): Promise<ScheduledBackupRecord> {
    return this.#passes.runOnce()
  }

  /** No new backup starts; the one in flight finishes (its archive complete) before this resolves. */
  async stop(): Promise<void> {
    if (services.get(this.#ctx) === this) services.delete(this.#ctx)
    await this.#passes.stop()
  }

  #schedule(delayMs: number): void {
    this.#passes.schedule(delayMs, () => void this.#fire())
  }

  async #fire(): Promise<void> {
    const record = await this.runOnce()
    if (this.#passes.stopped) return
    const { everyMs, retryMs } = this.#opts
    const next = Date.parse(record.at) + everyMs - this.#ctx.clock.now().getTime()
    this.#schedule(record.error ? Math.min(retryMs, everyMs) : Math.max(0, next))
  }

  async #backup(): Promise<ScheduledBackupRecord> {
    const { log, clock, config, db } = this.#ctx
    const { dir } = this.#opts
    const started = clock.now()
    const at = started.toISOString()
    let record: ScheduledBackupRecord
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const summary = await this.#opts.backup({
        dataDir: config.dataDir,
        out: join(dir, archiveName(started)),
      })
      record = { at, file: summary.archive, bytes: summary.bytes, durationMs: summary.durationMs }
      const removed = await this.#prune()
      log.info(
        { file: summary.archive, bytes: summary.bytes, durationMs: summary.durationMs, removed },
        'scheduled backup written',
      )
    } catch (err) {
      const previous = lastScheduledBackup(db)
      const lastSuccess = previous?.file
        ? { at: previous.at, file: previous.file, bytes: previous.bytes ?? 0 }
        : previous?.lastSuccess
      record = { at, error: (err as Error).message ?? String(err), ...(lastSuccess && { lastSuccess }) }
      log.error({ err, dir }, 'scheduled backup failed; it is tried again later')
    }
    try {
      recordScheduledBackup(db, record)
    } catch (err) {
      log.error({ err }, 'could not record the scheduled backup')
    }
    return record
  }

  /** Removes the oldest archives past `keep`; a file it cannot remove is logged and left. */
  async #prune(): Promise<string[]> {
    const removed: string[] = []
    for (const old of (await this.#archives()).slice(this.#opts.keep)) {
      try {
        await rm(old.path, { force: true })
        removed.push(old.path)
      } catch (err) {
        this.#ctx.log.warn({ err, file: old.path }, 'could not remove an old scheduled backup')
      }
    }
    return removed
  }

  /** The archives in the dir, newest first, with the time their name carries (UTC). */
  async #archives(): Promise<{ path: string; at: number }[]> {
    const found: { path: string; at: number }[] = []
    for (const name of await readdir(this.#opts.dir)) {
      const m = ARCHIVE.exec(name)
      if (!m) continue
      const [, y, mo, d, h, mi, s] = m
      found.push({ path: join(this.#opts.dir, name), at: Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!) })
    }
    return found.sort((a, b) => b.at - a.at)
  }
}

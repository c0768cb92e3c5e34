import type { AppContext } from '../context.ts'
import { dataVersion } from '../db/client.ts'
import type { Service } from './service.ts'
import { watchDatabaseFile } from './storage-guard.ts'

/**
 * Notices commits made by other processes (the CLI promoting a job, importing one, revoking a key)
 * by polling `PRAGMA data_version`, and tells the caches; and notices the database file itself
 * being removed or replaced (storage-guard.ts). A background loop never throws out.
 */
export class DbWatcher implements Service {
  readonly name = 'database watcher'
  readonly #ctx: AppContext
  #timer: ReturnType<typeof setInterval> | undefined

  constructor(ctx: AppContext) {
    this.#ctx = ctx
  }

  start(): void {
    if (this.#timer) return
    const ctx = this.#ctx
    let last = dataVersion(ctx.db)
    const file = watchDatabaseFile(ctx)
    this.#timer = setInterval(() => {
      try {
        file.check()
        const now = dataVersion(ctx.db)
        if (now !== last) {
          last = now
          ctx.events.emit('db.external-change')
        }
      } catch (err) {
        ctx.log.error({ err }, 'database watcher pass failed; the loop goes on')
      }
    }, ctx.config.watchIntervalMs)
    this.#timer.unref()
  }

  /** Each pass is synchronous, so none is ever in flight when this runs. */
  async stop(): Promise<void> {
    clearInterval(this.#timer)
  }
}

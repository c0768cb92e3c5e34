import type { AppContext } from '../context.ts'
import { dataVersion } from '../db/client.ts'
import { watchDatabaseFile } from './storage-guard.ts'

/**
 * Notices commits made by other processes (the CLI promoting a job, importing one, revoking a key)
 * by polling `PRAGMA data_version`, and tells the caches; and notices the database file itself
 * being removed or replaced (storage-guard.ts). A background loop never throws out.
 */
export function startDbWatcher(ctx: AppContext): { stop(): Promise<void> } {
  let last = dataVersion(ctx.db)
  const file = watchDatabaseFile(ctx)
  const timer = setInterval(() => {
    file.check()
    try {
      const now = dataVersion(ctx.db)
      if (now !== last) {
        last = now
        ctx.events.emit('db.external-change')
      }
    } catch (err) {
      ctx.log.error({ err }, 'database watcher failed to read data_version')
    }
  }, ctx.config.watchIntervalMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
    },
  }
}

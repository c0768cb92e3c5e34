import type { AppContext } from '../context.ts'
import { dataVersion } from '../db/client.ts'

/**
 * Notices commits made by other processes (the CLI promoting a job, importing one, revoking a key)
 * by polling `PRAGMA data_version`, and tells the caches. A background loop never throws out.
 */
export function startDbWatcher(ctx: AppContext): { stop(): Promise<void> } {
  let last = dataVersion(ctx.db)
  const timer = setInterval(() => {
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

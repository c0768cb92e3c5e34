import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { probeWrite, STORAGE_RETRY_AFTER_S } from '../../runtime/storage-guard.ts'
import { VERSION } from '../../version.ts'
import { withoutDataDir } from './public-text.ts'

/**
 * Liveness and readiness in one: `db` is `ok` only when a real write commits (a full disk fails
 * writes while reads still work), `replaced` when the database file was removed or replaced under
 * the server, `unavailable` when it cannot even be read; anything but ok is a 503 with Retry-After.
 */
export const healthRoutes = (ctx: AppContext) => {
  const startedAt = Date.now()
  return new Elysia({ name: 'routes.health' }).get('/_health', ({ set }) => {
    let db: string
    try {
      ctx.db.$client.query('SELECT 1').get()
      db = probeWrite(ctx)
    } catch {
      db = 'unavailable'
    }
    if (db !== 'ok') {
      set.status = 503
      set.headers['retry-after'] = String(STORAGE_RETRY_AFTER_S)
    }
    return {
      status: db === 'ok' ? 'ok' : 'degraded',
      version: VERSION,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      db,
      // Public: why, but never where the data lives (the log line has the path).
      ...(ctx.storage.lost ? { reason: withoutDataDir(ctx.config.dataDir, ctx.storage.lost) } : {}),
    }
  })
}

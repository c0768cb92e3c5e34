import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { VERSION } from '../../version.ts'

export const healthRoutes = (ctx: AppContext) => {
  const startedAt = Date.now()
  return new Elysia({ name: 'routes.health' }).get('/_health', ({ set }) => {
    let db = 'ok'
    try {
      ctx.db.$client.query('SELECT 1').get()
    } catch {
      db = 'unavailable'
      set.status = 503
    }
    return {
      status: db === 'ok' ? 'ok' : 'degraded',
      version: VERSION,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      db,
    }
  })
}

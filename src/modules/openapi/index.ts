import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { openApiCache } from './service.ts'

export const openapiRoutes = (ctx: AppContext, cache = openApiCache(ctx)) =>
  new Elysia({ name: 'routes.openapi' }).get('/swagger.json', ({ request }) => {
    const doc = cache.get()
    const headers = { etag: doc.etag, 'cache-control': 'no-cache', 'content-type': 'application/json' }
    if (request.headers.get('if-none-match') === doc.etag) return new Response(null, { status: 304, headers })
    return new Response(doc.body, { headers })
  })

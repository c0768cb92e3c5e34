import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { baseUrl } from '../../http/base-url.ts'
import { openApiCache } from './service.ts'

export const openapiRoutes = (ctx: AppContext) => {
  const documentFor = openApiCache(ctx)
  return new Elysia({ name: 'routes.openapi' }).get('/swagger.json', ({ request }) =>
    documentFor(baseUrl(ctx.config, request)),
  )
}

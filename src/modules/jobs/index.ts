import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { baseUrl } from '../../http/base-url.ts'
import { listJobs } from './service.ts'

export const jobsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'routes.jobs' }).get('/_jobs', ({ request }) => ({
    jobs: listJobs(ctx, baseUrl(ctx.config, request)),
  }))

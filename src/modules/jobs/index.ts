import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { baseUrl } from '../../http/base-url.ts'
import { requestActor } from '../audit/request-actor.ts'
import { deleteJob, removeSample } from './remove.ts'
import { listJobs } from './service.ts'

export const jobsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'routes.jobs' })
    .get('/_jobs', () => ({
      jobs: listJobs(ctx, baseUrl(ctx)),
    }))
    .delete('/_jobs/:id', ({ request, params }) => ({
      deleted: deleteJob(ctx, params.id, requestActor(ctx, request)),
    }))
    .delete('/_jobs/:id/samples/:sampleId', ({ params }) => removeSample(ctx, params.id, params.sampleId))

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { baseUrl } from '../../http/base-url.ts'
import { requestState } from '../../http/request-state.ts'
import { requestActor } from '../audit/request-actor.ts'
import { hideOutsideKey, jobsReachedBy } from '../keys/job-reach.ts'
import { deleteJob, removeSample } from './remove.ts'
import { jobIdNotFound, listJobs } from './service.ts'

export const jobsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'routes.jobs' })
    // To a key limited to some jobs, the others do not exist: absent from the list, 404 by id.
    .onBeforeHandle(({ request, params }) =>
      // `params` is absent on GET /_jobs, which has no id to hide.
      hideOutsideKey(ctx, requestState(request).apiKey, params?.id, {
        jobOf: (id) => id,
        notFound: jobIdNotFound,
      }),
    )
    .get('/_jobs', ({ request }) => ({
      jobs: jobsReachedBy(requestState(request).apiKey, listJobs(ctx, baseUrl(ctx))),
    }))
    .delete('/_jobs/:id', ({ request, params }) => ({
      deleted: deleteJob(ctx, params.id, requestActor(ctx, request)),
    }))
    .delete('/_jobs/:id/samples/:sampleId', ({ params }) => removeSample(ctx, params.id, params.sampleId))

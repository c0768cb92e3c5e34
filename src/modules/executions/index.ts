import { join } from 'node:path'
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import type { Runtime } from '../../runtime/index.ts'
import { hideOutsideKey } from '../keys/job-reach.ts'
import { mayReadExecution } from '../keys/own-executions.ts'
import { executionNotFound, findExecution, getExecution, listSteps } from './service.ts'
import { toExecutionView } from './view.ts'

/** Polling (`resultPath` of the 202) and the replay's screenshots. Keyed like every `/_` path. */
export const executionsRoutes = (ctx: AppContext, runtime: Pick<Runtime, 'scheduler'>) =>
  new Elysia({ name: 'routes.executions' })
    .onBeforeHandle(({ request, params }) => {
      const grant = requestState(request).apiKey
      // To a key limited to some jobs, another job's execution (and all under it) does not exist.
      hideOutsideKey(ctx, grant, params.id, {
        jobOf: (id) => findExecution(ctx, id)?.jobId,
        notFound: executionNotFound,
      })
      // A key without `read` (the gate let `call` through) sees the executions it created, and
      // only those: any other answers as an unknown id does.
      const id = params.id
      if (grant && id && !mayReadExecution(ctx, grant, findExecution(ctx, id)?.apiKeyId ?? null))
        throw executionNotFound(id)
    })
    .get('/_executions/:id', ({ params }) => {
      const row = getExecution(ctx, params.id)
      return toExecutionView(row, listSteps(ctx, row.seq), runtime.scheduler)
    })
    .get('/_executions/:id/steps/:n/screenshot', async ({ params }) => {
      const row = getExecution(ctx, params.id)
      const step = listSteps(ctx, row.seq).find((s) => String(s.executionOrder) === params.n)
      if (!step?.screenshot)
        throw new AppError('NOT_FOUND', `Execution ${params.id} has no screenshot for step ${params.n}`)
      const file = Bun.file(join(ctx.config.dataDir, 'screenshots', row.id, step.screenshot))
      // The row is written before the file, and a file may have been removed by hand: a 404, not a 500.
      if (!(await file.exists()))
        throw new AppError(
          'NOT_FOUND',
          `The screenshot of step ${params.n} of execution ${params.id} is not on disk (not written yet, or removed)`,
        )
      return new Response(file, {
        headers: { 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=86400' },
      })
    })

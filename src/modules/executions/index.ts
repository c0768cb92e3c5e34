import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'

/**
 * Live runs (and so executions) arrive with the scheduler; until then every id is unknown, and
 * the route already answers with the keyed 404 callers will see for an unknown id.
 */
export const executionsRoutes = (_ctx: AppContext) =>
  new Elysia({ name: 'routes.executions' }).get('/_executions/:id', ({ params }) => {
    throw new AppError('EXECUTION_NOT_FOUND', `No execution with id ${params.id}`)
  })

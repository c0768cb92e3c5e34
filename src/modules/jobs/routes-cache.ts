import type { AppContext } from '../../context.ts'
import { jobs } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { JobRouter } from './router.ts'

/**
 * One router per app, built from the jobs table on first use and dropped whenever another process
 * (the CLI) commits, so the next request sees its jobs. The server's own writes update it in place.
 */
const routers = new WeakMap<AppContext, JobRouter>()
const subscribed = new WeakSet<AppContext>()

export function routerFor(ctx: AppContext): JobRouter {
  let router = routers.get(ctx)
  if (router) return router
  if (!subscribed.has(ctx)) {
    subscribed.add(ctx)
    ctx.events.on('db.external-change', () => routers.delete(ctx))
  }
  router = new JobRouter()
  for (const job of ctx.db.select({ id: jobs.id, method: jobs.method, path: jobs.path }).from(jobs).all()) {
    try {
      router.add(job.method, job.path, job.id)
    } catch (err) {
      ctx.log.error(
        { err, jobId: job.id, method: job.method, path: job.path },
        'job route conflicts with another; skipped',
      )
    }
  }
  routers.set(ctx, router)
  return router
}

/**
 * Registers a new job's route, or throws ROUTE_CONFLICT when a job on the same method already has
 * its shape (only parameter names differ). `remedy` tells the caller what to do instead.
 */
export function addJobRoute(
  router: JobRouter,
  method: string,
  pattern: string,
  jobId: string,
  remedy: string,
): void {
  try {
    router.add(method, pattern, jobId)
  } catch {
    throw new AppError(
      'ROUTE_CONFLICT',
      `${method} ${pattern} has the same shape as a job already registered on this method (only the parameter names differ); ${remedy}`,
      { field: 'path' },
    )
  }
}

type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0]
type AddRoute = (method: string, pattern: string, jobId: string, remedy: string) => void

/**
 * An immediate transaction that may create jobs: `addRoute` registers a new job's route in the
 * in-memory router at once (so a conflict aborts the transaction), and every route it added is
 * taken back if the transaction fails, so the router never holds a job the table does not.
 */
export function transactionWithRoutes<T>(ctx: AppContext, work: (tx: Tx, addRoute: AddRoute) => T): T {
  const router = routerFor(ctx)
  const added: [string, string][] = []
  try {
    return ctx.db.transaction(
      (tx) =>
        work(tx, (method, pattern, jobId, remedy) => {
          addJobRoute(router, method, pattern, jobId, remedy)
          added.push([method, pattern])
        }),
      { behavior: 'immediate' },
    )
  } catch (err) {
    for (const [method, pattern] of added) router.remove(method, pattern)
    throw err
  }
}

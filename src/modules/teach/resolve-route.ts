import { and, eq, ne } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobs } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { isReservedPath, matchPattern, parsePattern } from '../jobs/path-pattern.ts'
import { overlapsAmbiguously } from '../jobs/route-overlap.ts'
import { routerFor } from '../jobs/routes-cache.ts'
import { getJob } from '../jobs/service.ts'
import { ENVELOPE_KEY } from './model.ts'

/**
 * Which pattern a teaching call teaches: the envelope's `path` (the call's own path must be an
 * instance of it); else a job the call's path matches, when the call is a sample of it; else the
 * call's path as written.
 *
 * A concrete path that a job matches only through a parameter (`/issues/search` and
 * `/issues/:number`) is a sample of that job only when it says nothing else: no prompt, or that
 * job's own prompt. With a prompt of its own it is a job of its own at its literal path, as live
 * calls are routed (a literal segment wins over a parameter); it never rewrites the other job's
 * prompt. `path` names the pattern when a sample should join with a new prompt.
 */
export function resolvePattern(
  ctx: AppContext,
  method: string,
  requestPath: string,
  declared: string | undefined,
  prompt: string | undefined,
): { pattern: string; params: Record<string, string> } {
  if (declared !== undefined) {
    const { pattern } = parsePattern(declared, `${ENVELOPE_KEY}.path`)
    if (pattern === requestPath || `${pattern}/` === requestPath) return { pattern, params: {} }
    const params = matchPattern(pattern, requestPath)
    if (!params)
      throw new AppError(
        'INVALID_PATH',
        `The call's path ${requestPath} is not an instance of ${ENVELOPE_KEY}.path ${pattern}`,
        { field: `${ENVELOPE_KEY}.path` },
      )
    return { pattern, params }
  }
  // A call made on a literal pattern (`/customers/:id`) teaches that pattern.
  const literal = requestPath.includes('/:')
  const existing = literal || isReservedPath(requestPath) ? null : routerFor(ctx).find(method, requestPath)
  if (existing) {
    const throughParams = Object.keys(existing.params).length > 0
    const other = throughParams && prompt !== undefined ? getJob(ctx, existing.jobId) : undefined
    if (!other || other.prompt === prompt) return { pattern: existing.pattern, params: existing.params }
  }
  return { pattern: parsePattern(requestPath, 'path').pattern, params: {} }
}

/**
 * Before a new job is created on `pattern`: refuses (409 ROUTE_CONFLICT, naming the other job) a
 * pattern that overlaps another job's on the same method with no clear winner (route-overlap.ts).
 */
export function checkRouteOverlap(ctx: AppContext, method: string, pattern: string): void {
  const others = ctx.db
    .select({ id: jobs.id, path: jobs.path })
    .from(jobs)
    .where(and(eq(jobs.method, method), ne(jobs.path, pattern)))
    .all()
  const rival = others.find((o) => overlapsAmbiguously(pattern, o.path))
  if (rival)
    throw new AppError(
      'ROUTE_CONFLICT',
      `${method} ${pattern} and the job ${method} ${rival.path} (${rival.id}) would both match some paths, and neither is the more specific: ` +
        'make one pattern a literal version of the other (e.g. /issues/search beside /issues/:number), or teach a path that only one of them matches',
      { field: 'path', conflictsWith: { jobId: rival.id, method, path: rival.path } },
    )
}

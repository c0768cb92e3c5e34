import type { AppContext } from '../../context.ts'
import type { AppError } from '../../lib/errors.ts'
import { getJobCached } from '../jobs/service.ts'
import type { JobPattern, KeyGrant } from './model.ts'

/** A job as its route names it: `POST /customers/:id`. */
export interface JobRoute {
  method: string
  path: string
}

/**
 * Whether a key pattern matches some call of the job: segment by segment, a `*` or `:name` on
 * either side matches anything (`/customers/42` reaches the job `/customers/:id`, which it may
 * call with that id). A trailing `*` in the pattern takes the rest of the path.
 */
function reaches(pattern: JobPattern, job: JobRoute): boolean {
  if (pattern.method && pattern.method !== job.method.toUpperCase()) return false
  const segments = job.path.split('/').slice(1)
  const p = pattern.segments
  const open = p[p.length - 1] === '*'
  if (open ? segments.length < p.length : segments.length !== p.length) return false
  return p.every(
    (s, i) => s === '*' || s.startsWith(':') || segments[i]!.startsWith(':') || s === segments[i],
  )
}

/** Whether the key may see the job; a key without job patterns (or no key) sees every job. */
export function keyReachesJob(grant: KeyGrant | undefined, job: JobRoute): boolean {
  return !grant?.jobs || grant.jobs.some((p) => reaches(p, job))
}

/** A listing as the key sees it: only the jobs its patterns reach. */
export function jobsReachedBy<J extends JobRoute>(grant: KeyGrant | undefined, jobs: J[]): J[] {
  return grant?.jobs ? jobs.filter((job) => keyReachesJob(grant, job)) : jobs
}

/** How a module finds the job of one of its resources, and what it answers for an unknown id. */
export interface OwnedByJob {
  /** The job the resource belongs to; undefined when there is no such resource. */
  jobOf(id: string): string | undefined
  notFound(id: string): AppError
}

/**
 * The one check for everything by id under `/_jobs/:id`, `/_executions/:id` and `/_builds/:id`:
 * to a key limited to some jobs, what belongs to another job does not exist. Throws the very error
 * an unknown id gets when the key is limited and the resource is unknown, its job gone, or its job
 * outside the key's patterns, so such a key cannot tell "not yours" from "no such id". Keys
 * without job patterns cost nothing here; a route without an id has nothing to hide.
 */
export function hideOutsideKey(
  ctx: AppContext,
  grant: KeyGrant | undefined,
  id: string | undefined,
  owner: OwnedByJob,
): void {
  if (!grant?.jobs || id === undefined) return
  const jobId = owner.jobOf(id)
  const job = jobId === undefined ? undefined : getJobCached(ctx, jobId)
  if (!job || !keyReachesJob(grant, job)) throw owner.notFound(id)
}

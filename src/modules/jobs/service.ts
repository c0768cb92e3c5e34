import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { preparedFor } from '../../db/prepared.ts'
import { type JobMode, jobs, jobVersions, samples } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { type Actor, SYSTEM_ACTOR } from '../audit/actor.ts'
import { type AuditAction, recordAudit } from '../audit/record.ts'
import { normalisePath } from './path-pattern.ts'
import type { RouteMatch } from './router.ts'
import { routerFor } from './routes-cache.ts'

export type Job = typeof jobs.$inferSelect

export interface ScenarioSummary {
  name: string
  samples: number
  passing: number
}

export interface JobView {
  id: string
  method: string
  path: string
  mode: JobMode
  prompt: string
  stabilityScore: number
  scenarios: ScenarioSummary[]
  triggerUrl: string
  liveVersion: number | null
  draftVersion: number | null
  createdAt: string
  updatedAt: string
}

/** Samples the builder has not placed yet are counted under this scenario name. */
export const UNSORTED_SCENARIO = 'unsorted'

const jobById = preparedFor((db) =>
  db
    .select()
    .from(jobs)
    .where(eq(jobs.id, sql.placeholder('id')))
    .prepare(),
)

export const jobIdNotFound = (id: string) => new AppError('JOB_NOT_FOUND', `No job with id ${id}`)

export function getJob(ctx: AppContext, id: string): Job | undefined {
  return jobById(ctx.db).get({ id })
}

export function getJobByRoute(ctx: AppContext, method: string, pattern: string): Job | undefined {
  return ctx.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.method, method.toUpperCase()), eq(jobs.path, normalisePath(pattern))))
    .get()
}

/**
 * Job rows for the hot paths (routing a call, choosing a desktop), kept until a job changes here
 * (`jobs.changed`) or another process commits. The stability score in them may lag; nothing on
 * those paths reads it.
 */
const jobRows = new WeakMap<AppContext, Map<string, Job>>()

export function getJobCached(ctx: AppContext, id: string): Job | undefined {
  let cache = jobRows.get(ctx)
  if (!cache) {
    const fresh = new Map<string, Job>()
    cache = fresh
    jobRows.set(ctx, fresh)
    ctx.events.on('jobs.changed', (jobId) => fresh.delete(jobId))
    ctx.events.on('db.external-change', () => fresh.clear())
  }
  let job = cache.get(id)
  if (!job) {
    job = getJob(ctx, id)
    if (job) cache.set(id, job)
  }
  return job
}

/** Finds the job a request addresses; null when none matches. */
export function matchJob(ctx: AppContext, method: string, path: string): (RouteMatch & { job: Job }) | null {
  const hit = routerFor(ctx).find(method, path)
  if (!hit) return null
  const job = getJobCached(ctx, hit.jobId)
  return job ? { ...hit, job } : null
}

export function jobNotFound(ctx: AppContext, method: string, path: string): AppError {
  const methods = routerFor(ctx).methodsAt(path)
  const where = `${method} ${path}`
  return new AppError(
    'JOB_NOT_FOUND',
    methods.length
      ? `No job is registered on ${where}; this path has jobs on ${methods.join(', ')}`
      : `No job is registered on ${where}`,
    { allowedMethods: methods },
  )
}

export function listJobs(ctx: AppContext, baseUrl: string): JobView[] {
  const counts = ctx.db
    .select({
      jobId: samples.jobId,
      scenario: samples.scenario,
      total: sql<number>`count(*)`,
      passing: sql<number>`sum(${samples.status} = 'passing')`,
    })
    .from(samples)
    .groupBy(samples.jobId, samples.scenario)
    .all()
  const byJob = new Map<string, ScenarioSummary[]>()
  for (const c of counts) {
    const list = byJob.get(c.jobId) ?? []
    list.push({ name: c.scenario ?? UNSORTED_SCENARIO, samples: c.total, passing: c.passing ?? 0 })
    byJob.set(c.jobId, list)
  }
  return ctx.db
    .select()
    .from(jobs)
    .orderBy(jobs.path, jobs.method)
    .all()
    .map((job) => toView(job, byJob.get(job.id) ?? [], baseUrl))
}

export function toView(job: Job, scenarios: ScenarioSummary[], baseUrl: string): JobView {
  return {
    id: job.id,
    method: job.method,
    path: job.path,
    mode: job.mode,
    prompt: job.prompt,
    stabilityScore: job.stabilityScore,
    scenarios,
    triggerUrl: `${baseUrl}${job.path}`,
    liveVersion: job.liveVersion,
    draftVersion: job.draftVersion,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  }
}

/** The job on a route, as the CLI names it (`POST /customers/:id`); JOB_NOT_FOUND otherwise. */
export function requireJob(ctx: AppContext, method: string, path: string): Job {
  const job = getJobByRoute(ctx, method, path)
  if (!job) throw new AppError('JOB_NOT_FOUND', `No job is registered on ${method.toUpperCase()} ${path}`)
  return job
}

/**
 * "Promote to live": the newest successful build becomes what live calls run. Refused while no
 * build has succeeded, because a live job with nothing to run would fail every call.
 */
export function promoteJob(ctx: AppContext, method: string, path: string, actor = SYSTEM_ACTOR): Job {
  const job = requireJob(ctx, method, path)
  if (job.draftVersion === null)
    throw new AppError(
      'JOB_NOT_LIVE',
      `${job.method} ${job.path} has no successful build yet: teach it until a build succeeds, then promote`,
    )
  return updateMode(ctx, job, 'live', job.draftVersion, actor, 'job.promoted')
}

/** "Back to learning": live calls get 409 again; the promoted version is kept for the record. */
export function demoteJob(ctx: AppContext, method: string, path: string, actor = SYSTEM_ACTOR): Job {
  return updateMode(ctx, requireJob(ctx, method, path), 'learning', null, actor, 'job.demoted')
}

/**
 * "Roll back to version N": that version becomes what live calls run, and the job is live. The
 * draft (what the next teaching call extends) stays the newest build.
 */
export function rollbackJob(ctx: AppContext, jobId: string, version: number, actor = SYSTEM_ACTOR): Job {
  const job = getJob(ctx, jobId)
  if (!job) throw jobIdNotFound(jobId)
  if (!Number.isInteger(version) || version < 1)
    throw new AppError('INVALID_REQUEST', `A version is a whole number from 1; got ${String(version)}`, {
      field: 'version',
    })
  const versions = ctx.db
    .select({ v: jobVersions.version })
    .from(jobVersions)
    .where(eq(jobVersions.jobId, job.id))
    .orderBy(jobVersions.version)
    .all()
    .map((r) => r.v)
  if (!versions.includes(version))
    throw new AppError(
      'NOT_FOUND',
      versions.length
        ? `${job.method} ${job.path} has no version ${version}; its versions are ${versions.join(', ')}`
        : `${job.method} ${job.path} has no versions yet: teach it until a build succeeds`,
      { field: 'version' },
    )
  return updateMode(ctx, job, 'live', version, actor, 'job.rolled_back')
}

function updateMode(
  ctx: AppContext,
  job: Job,
  mode: JobMode,
  liveVersion: number | null,
  actor: Actor,
  action: AuditAction,
): Job {
  const updatedAt = ctx.clock.now().toISOString()
  const set = liveVersion === null ? { mode, updatedAt } : { mode, liveVersion, updatedAt }
  const details = { method: job.method, path: job.path, from: job.mode, to: mode, liveVersion }
  ctx.db.transaction(
    (tx) => {
      tx.update(jobs).set(set).where(eq(jobs.id, job.id)).run()
      recordAudit(ctx, { actor, action, target: { kind: 'job', id: job.id }, details }, tx)
    },
    { behavior: 'immediate' },
  )
  ctx.events.emit('jobs.changed', job.id)
  return { ...job, ...set }
}

/**
 * Stores a new automation version as the job's draft (the builder after a passing verification).
 * Returns the version number.
 */
export function addJobVersion(ctx: AppContext, jobId: string, automation: unknown, buildId?: string): number {
  const version = ctx.db.transaction(
    (tx) => insertJobVersion(tx, ctx.clock.now().toISOString(), jobId, automation, buildId),
    { behavior: 'immediate' },
  )
  ctx.events.emit('jobs.changed', jobId)
  return version
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/**
 * `addJobVersion` inside a transaction the caller owns (`jobs import` writes job, samples and
 * version together). Emits nothing: the caller does, once its transaction has committed.
 */
export function insertJobVersion(
  tx: Db | Tx,
  now: string,
  jobId: string,
  automation: unknown,
  buildId?: string,
): number {
  const last = tx
    .select({ v: sql<number | null>`max(${jobVersions.version})` })
    .from(jobVersions)
    .where(eq(jobVersions.jobId, jobId))
    .get()
  const version = (last?.v ?? 0) + 1
  tx.insert(jobVersions).values({ jobId, version, automation, buildId, createdAt: now }).run()
  tx.update(jobs).set({ draftVersion: version, updatedAt: now }).where(eq(jobs.id, jobId)).run()
  return version
}

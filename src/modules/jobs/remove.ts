import { and, count, eq, type SQL } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import {
  builds,
  executions,
  jobs,
  jobVersions,
  recordings,
  samples,
  settings,
} from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { SYSTEM_ACTOR } from '../audit/actor.ts'
import { recordAudit } from '../audit/record.ts'
import { rememberSubmitted } from '../builds/submitted.ts'
import { removeRecordingFiles } from '../recordings/files.ts'
import { routerFor } from './routes-cache.ts'
import { getJob, type Job, jobIdNotFound, requireJob } from './service.ts'
import { recomputeStability } from './stability.ts'

export interface SampleRemoved {
  jobId: string
  sampleId: string
  stabilityScore: number
}

export interface JobDeleted {
  id: string
  method: string
  path: string
  samples: number
  versions: number
  builds: number
  /** Queued runs: they end `cancelled` with JOB_DELETED (the server does it as soon as it sees the change). */
  queuedRuns: number
}

function jobById(ctx: AppContext, jobId: string): Job {
  const job = getJob(ctx, jobId)
  if (!job) throw jobIdNotFound(jobId)
  return job
}

/**
 * Takes a sample off a job (with its builds), e.g. one whose build failed for a reason since
 * fixed, so it no longer drags the stability score down; the score is recomputed at once. A build
 * of it that is under way (exploring, verifying, waiting for an answer) goes with it: the build
 * worker hears `jobs.changed`, stops it and frees its desktop.
 */
export function removeSample(ctx: AppContext, jobId: string, sampleId: string): SampleRemoved {
  const job = jobById(ctx, jobId)
  const recordingIds = ctx.db.transaction(
    (tx) => {
      const sample = tx
        .select({ id: samples.id })
        .from(samples)
        .where(and(eq(samples.id, sampleId), eq(samples.jobId, job.id)))
        .get()
      if (!sample)
        throw new AppError('SAMPLE_NOT_FOUND', `${job.method} ${job.path} has no sample with id ${sampleId}`)
      // Its record may be in the app now: a re-sent sample must still be known as submitted.
      rememberSubmitted(ctx, tx, job.id, sampleId, ctx.clock.now().toISOString())
      const shown = recordingsOf(tx, eq(builds.sampleId, sampleId))
      tx.delete(samples).where(eq(samples.id, sampleId)).run()
      return shown
    },
    { behavior: 'immediate' },
  )
  void removeRecordingFiles(ctx, recordingIds)
  const stabilityScore = recomputeStability(ctx, job.id)
  ctx.events.emit('jobs.changed', job.id)
  return { jobId: job.id, sampleId, stabilityScore }
}

type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0]

/** The recordings of the builds that match (they cascade with them; their files do not). */
const recordingsOf = (tx: Tx, which: SQL) =>
  tx
    .select({ id: recordings.id })
    .from(recordings)
    .innerJoin(builds, eq(builds.id, recordings.buildId))
    .where(which)
    .all()
    .map((r) => r.id)

export function removeSampleByRoute(ctx: AppContext, method: string, path: string, sampleId: string) {
  return removeSample(ctx, requireJob(ctx, method, path).id, sampleId)
}

/**
 * Deletes a job with its samples, versions, builds, secrets and answers; its route is gone at once
 * (here in place, in a running server at its next look at the database). Past executions stay as
 * records; queued ones are cancelled by the scheduler.
 */
export function deleteJob(ctx: AppContext, jobId: string, actor = SYSTEM_ACTOR): JobDeleted {
  const job = jobById(ctx, jobId)
  const deleted = ctx.db.transaction(
    (tx) => {
      const n = (table: typeof samples | typeof jobVersions | typeof builds) =>
        tx.select({ n: count() }).from(table).where(eq(table.jobId, job.id)).get()?.n ?? 0
      const tally = { samples: n(samples), versions: n(jobVersions), builds: n(builds) }
      const queuedRuns =
        tx
          .select({ n: count() })
          .from(executions)
          .where(and(eq(executions.jobId, job.id), eq(executions.status, 'queued')))
          .get()?.n ?? 0
      const recordingIds = recordingsOf(tx, eq(builds.jobId, job.id))
      tx.delete(jobs).where(eq(jobs.id, job.id)).run()
      // Its own retention ages (a settings row, not a column) go with it.
      tx.delete(settings)
        .where(eq(settings.key, `retention_job:${job.id}`))
        .run()
      const details = { method: job.method, path: job.path, ...tally, queuedRuns }
      recordAudit(ctx, { actor, action: 'job.removed', target: { kind: 'job', id: job.id }, details }, tx)
      return { id: job.id, method: job.method, path: job.path, ...tally, queuedRuns, recordingIds }
    },
    { behavior: 'immediate' },
  )
  // The rows went with the builds (cascade); their screenshots go now.
  const { recordingIds, ...result } = deleted
  void removeRecordingFiles(ctx, recordingIds)
  const router = routerFor(ctx)
  if (router.find(job.method, job.path)?.jobId === job.id) router.remove(job.method, job.path)
  ctx.events.emit('jobs.changed', job.id)
  return result
}

export function deleteJobByRoute(
  ctx: AppContext,
  method: string,
  path: string,
  actor = SYSTEM_ACTOR,
): JobDeleted {
  return deleteJob(ctx, requireJob(ctx, method, path).id, actor)
}

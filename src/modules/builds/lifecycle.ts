import { and, asc, eq, inArray } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { type BuildStatus, builds, jobs, jobVersions, samples } from '../../db/schema/index.ts'
import { insertJobVersion } from '../jobs/service.ts'
import { recomputeStability } from '../jobs/stability.ts'
import { maskUrlCredentials } from '../secrets/url-credentials.ts'
import { type Build, getBuild, recordProgress } from './service.ts'

const IN_PROGRESS: BuildStatus[] = ['exploring', 'verifying', 'waiting_for_answer']

export function queuedBuilds(ctx: AppContext): Build[] {
  return ctx.db.select().from(builds).where(eq(builds.status, 'queued')).orderBy(asc(builds.createdAt)).all()
}

/**
 * After a restart, builds that were under way start again from the beginning; the answers
 * already given are kept, so nobody is asked twice.
 */
export function requeueInterruptedBuilds(ctx: AppContext): number {
  const rows = ctx.db.select().from(builds).where(inArray(builds.status, IN_PROGRESS)).all()
  for (const b of rows) {
    ctx.db.update(builds).set({ question: null }).where(eq(builds.id, b.id)).run()
    recordProgress(
      ctx,
      b.id,
      {
        stage: 'queued',
        message: 'The server restarted during this build; it starts again (answers given so far are kept)',
      },
      'queued',
    )
  }
  return rows.length
}

export function setBuildDesktop(ctx: AppContext, buildId: string, desktopId: string): void {
  ctx.db.update(builds).set({ desktop: desktopId }).where(eq(builds.id, buildId)).run()
  ctx.events.emit('build.changed', buildId)
}

/** The job's current draft automation (what a new sample extends), if any. */
export function draftAutomation(ctx: AppContext, jobId: string): unknown {
  const job = ctx.db.select({ v: jobs.draftVersion }).from(jobs).where(eq(jobs.id, jobId)).get()
  if (!job?.v) return null
  return (
    ctx.db
      .select({ a: jobVersions.automation })
      .from(jobVersions)
      .where(and(eq(jobVersions.jobId, jobId), eq(jobVersions.version, job.v)))
      .get()?.a ?? null
  )
}

export interface BuildSuccess {
  automation: unknown
  scenario: string
  reverified: { sampleId: string; scenario: string; passed: boolean }[]
}

/**
 * A passing build: its automation becomes the job's new draft version (live calls keep the
 * promoted one), its sample and the re-verified ones record where they ended, and the score moves.
 */
export function completeBuild(ctx: AppContext, buildId: string, desktopId: string, r: BuildSuccess): number {
  const build = getBuild(ctx, buildId)
  const version = ctx.db.transaction(
    (tx) => {
      const now = ctx.clock.now().toISOString()
      const v = insertJobVersion(tx, now, build.jobId, r.automation, buildId)
      const marks = [{ sampleId: build.sampleId, scenario: r.scenario, passed: true }, ...r.reverified]
      for (const m of marks)
        tx.update(samples)
          .set({ status: m.passed ? 'passing' : 'failing', scenario: m.scenario, updatedAt: now })
          .where(eq(samples.id, m.sampleId))
          .run()
      const job = tx.select({ desktopId: jobs.desktopId }).from(jobs).where(eq(jobs.id, build.jobId)).get()
      if (!job?.desktopId) tx.update(jobs).set({ desktopId }).where(eq(jobs.id, build.jobId)).run()
      tx.update(builds).set({ scenario: r.scenario }).where(eq(builds.id, buildId)).run()
      return v
    },
    { behavior: 'immediate' },
  )
  const score = recomputeStability(ctx, build.jobId)
  recordProgress(
    ctx,
    buildId,
    {
      stage: 'done',
      message: `Build succeeded: the sample ends in scenario "${r.scenario}"; saved as draft version ${version}. Stability score ${score}.`,
      data: { version, scenario: r.scenario, stabilityScore: score },
    },
    'succeeded',
  )
  ctx.events.emit('jobs.changed', build.jobId)
  return version
}

export function failBuild(
  ctx: AppContext,
  buildId: string,
  failure: { code: string; message: string },
): void {
  const build = getBuild(ctx, buildId)
  const error = { ...failure, message: maskUrlCredentials(failure.message) }
  ctx.db.update(samples).set({ status: 'failing' }).where(eq(samples.id, build.sampleId)).run()
  ctx.db.update(builds).set({ error }).where(eq(builds.id, buildId)).run()
  recomputeStability(ctx, build.jobId)
  recordProgress(
    ctx,
    buildId,
    { stage: 'failed', message: `Build failed: ${error.message}`, data: error },
    'failed',
  )
  ctx.events.emit('jobs.changed', build.jobId)
}

/** Samples of the job that passed before, with their scenario: each build re-verifies them. */
export function passingSamples(ctx: AppContext, jobId: string, except: string) {
  return ctx.db
    .select()
    .from(samples)
    .where(and(eq(samples.jobId, jobId), eq(samples.status, 'passing')))
    .orderBy(asc(samples.createdAt))
    .all()
    .filter((s) => s.id !== except)
}

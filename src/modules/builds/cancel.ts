import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { builds, samples } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { recomputeStability } from '../jobs/stability.ts'
import { type Build, getBuild } from './service.ts'

/**
 * The error a cancelled build ends with. A cancelled build is `failed` (not a status of its own):
 * everything that waits for a build to end (the dashboard, scripts polling `/_builds/<id>`) knows
 * `failed`, and the code says why.
 */
export const BUILD_CANCELLED = 'BUILD_CANCELLED'

export const isCancelled = (b: Pick<Build, 'status' | 'error'>) =>
  b.status === 'failed' && b.error?.code === BUILD_CANCELLED

/**
 * Ends a build that has not finished: `failed` with `BUILD_CANCELLED`, its open question closed.
 * The build worker hears of it (`jobs.changed`), aborts the builder and frees the desktop. The
 * sample stays (failing, so it can be removed or taught again); the job's versions are untouched.
 * Cancelling a cancelled build again answers the same; a build that ended otherwise is a 409.
 */
export function cancelBuild(ctx: AppContext, id: string, reason = 'the build was cancelled'): Build {
  const cancelled = ctx.db.transaction(
    (tx) => {
      const build = getBuild(ctx, id)
      if (isCancelled(build)) return null
      if (build.status === 'succeeded' || build.status === 'failed')
        throw new AppError(
          'BUILD_FINISHED',
          `Build ${id} has already ${build.status}; only a build that is queued, exploring, verifying or waiting for an answer can be cancelled`,
          { status: build.status },
        )
      const now = ctx.clock.now().toISOString()
      const error = { code: BUILD_CANCELLED, message: `Cancelled: ${reason}` }
      const progress = [
        ...build.progress,
        {
          at: now,
          stage: 'failed',
          message: `Build cancelled: ${reason}. The sample stays on the job (remove it, or teach it again).`,
          data: error,
        },
      ]
      tx.update(samples)
        .set({ status: 'failing', updatedAt: now })
        .where(eq(samples.id, build.sampleId))
        .run()
      tx.update(builds)
        .set({ status: 'failed', question: null, error, progress, updatedAt: now })
        .where(eq(builds.id, id))
        .run()
      return build.jobId
    },
    { behavior: 'immediate' },
  )
  if (cancelled) {
    recomputeStability(ctx, cancelled)
    ctx.events.emit('build.changed', id)
    // The build worker re-checks its builds on this event and stops the one that ended.
    ctx.events.emit('jobs.changed', cancelled)
  }
  return getBuild(ctx, id)
}

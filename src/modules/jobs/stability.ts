import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { executions, jobs, samples } from '../../db/schema/index.ts'
import { stabilityScore } from '../../lib/stability-score.ts'

/** Live results weigh in through the pass rate; only the most recent ones, so a fix shows quickly. */
export const LIVE_WINDOW = 50

export interface StabilityBreakdown {
  /** Samples taught, and how many of them pass. */
  samples: number
  passing: number
  /** Scenarios with at least one passing sample (S). */
  scenariosPassing: number
  /** The recent live results counted (at most LIVE_WINDOW) and how many of them succeeded. */
  liveResults: number
  liveOk: number
  /** (passing + liveOk) / (samples + liveResults). */
  passRate: number
  /** The score from the samples alone (lib/stability-score.ts). */
  base: number
  score: number
}

/**
 * How a job's stability score comes about: its samples (N passing, S scenarios with a passing
 * sample) and its recent live results (succeeded or partial pass; failed or timed out don't).
 * The dashboard shows these numbers beside the score.
 */
export function stabilityBreakdown(ctx: AppContext, jobId: string): StabilityBreakdown {
  const s = ctx.db
    .select({
      total: sql<number>`count(*)`,
      passing: sql<number>`coalesce(sum(${samples.status} = 'passing'), 0)`,
      scenarios: sql<number>`count(distinct case when ${samples.status} = 'passing' then coalesce(${samples.scenario}, '') end)`,
    })
    .from(samples)
    .where(eq(samples.jobId, jobId))
    .get() ?? { total: 0, passing: 0, scenarios: 0 }
  const live = ctx.db
    .select({ status: executions.status })
    .from(executions)
    .where(
      and(
        eq(executions.jobId, jobId),
        inArray(executions.status, ['succeeded', 'partial', 'failed', 'timed_out']),
      ),
    )
    .orderBy(desc(executions.seq))
    .limit(LIVE_WINDOW)
    .all()
  const liveOk = live.filter((r) => r.status === 'succeeded' || r.status === 'partial').length
  const passRate = (s.passing + liveOk) / Math.max(1, s.total + live.length)
  const base = stabilityScore({ passing: s.passing, total: s.passing, scenariosPassing: s.scenarios })
  return {
    samples: s.total,
    passing: s.passing,
    scenariosPassing: s.scenarios,
    liveResults: live.length,
    liveOk,
    passRate,
    base,
    score: Math.round(base * passRate * 100) / 100,
  }
}

/** Recomputes and stores a job's stability score. Called after every build and every finished live run. */
export function recomputeStability(ctx: AppContext, jobId: string): number {
  const { score } = stabilityBreakdown(ctx, jobId)
  ctx.db.update(jobs).set({ stabilityScore: score }).where(eq(jobs.id, jobId)).run()
  return score
}

import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { executions, jobs, samples } from '../../db/schema/index.ts'
import { stabilityScore } from '../../lib/stability-score.ts'

/** Live results weigh in through the pass rate; only the most recent ones, so a fix shows quickly. */
const LIVE_WINDOW = 50

/**
 * Recomputes and stores a job's stability score from its samples (N passing, S scenarios with a
 * passing sample) and its recent live results (succeeded or partial pass; failed or timed out
 * don't). Called after every build and every finished live run.
 */
export function recomputeStability(ctx: AppContext, jobId: string): number {
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
  const score = Math.round(base * passRate * 100) / 100
  ctx.db.update(jobs).set({ stabilityScore: score }).where(eq(jobs.id, jobId)).run()
  return score
}

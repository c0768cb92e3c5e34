import { and, asc, eq, gt, inArray, isNotNull, lte, min, notInArray, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { executionSteps, executions, TERMINAL_STATUSES, webhookDeliveries } from '../../db/schema/index.ts'

/**
 * The retention task's SQL, one small statement per operation. Every scan is bounded to a window
 * of `seq` values (the primary key), so no statement walks the whole table while calls wait.
 */
export interface ExpiredRun {
  seq: number
  /** The jobExecutionId: names the run's screenshot folder and its outbox rows. */
  id: string
}

/**
 * Which runs a scan looks at: one job (its own retention; the `(job_id, seq)` index serves it), or
 * every job but those that have their own.
 */
export type RunScope = { jobId: string } | { excludeJobs: readonly string[] }
export const ALL_JOBS: RunScope = { excludeJobs: [] }

function inScope(scope: RunScope): SQL | undefined {
  if ('jobId' in scope) return eq(executions.jobId, scope.jobId)
  return scope.excludeJobs.length ? notInArray(executions.jobId, [...scope.excludeJobs]) : undefined
}

const finished = inArray(executions.status, [...TERMINAL_STATUSES])
/** A finished run's age counts from its end (a terminal row without one, from its acceptance). */
const endedAt = sql`coalesce(${executions.finishedAt}, ${executions.queuedAt})`

/**
 * The last `seq` accepted before `cutoff`, by binary search over the primary key: `seq` grows with
 * `queued_at`, so nothing after it can be older than the cutoff. About 20 point lookups for a million
 * runs, instead of a scan.
 */
export function lastSeqQueuedBefore(db: Db, cutoff: string): number {
  const first = (from: number) =>
    db
      .select({ seq: executions.seq, queuedAt: executions.queuedAt })
      .from(executions)
      .where(gt(executions.seq, from - 1))
      .orderBy(asc(executions.seq))
      .limit(1)
      .get()
  const bounds = db
    .select({ lo: min(executions.seq), hi: sql<number | null>`max(${executions.seq})` })
    .from(executions)
    .get()
  let lo = bounds?.lo ?? 1
  let hi = bounds?.hi ?? 0
  let found = 0
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2)
    const row = first(mid)
    if (!row || row.seq > hi) hi = mid - 1
    else if (row.queuedAt < cutoff) {
      found = row.seq
      lo = row.seq + 1
    } else hi = mid - 1
  }
  return found
}

/** The lowest `seq` still queued or running (the queue index answers it), or undefined. */
export function firstActiveSeq(db: Db): number | undefined {
  return (
    db
      .select({ seq: min(executions.seq) })
      .from(executions)
      .where(inArray(executions.status, ['queued', 'running']))
      .get()?.seq ?? undefined
  )
}

/** Finished runs in `(after, upTo]` that ended before `cutoff`, oldest first. */
export function expiredRuns(
  db: Db,
  after: number,
  upTo: number,
  cutoff: string,
  limit: number,
  scope: RunScope = ALL_JOBS,
): ExpiredRun[] {
  return db
    .select({ seq: executions.seq, id: executions.id })
    .from(executions)
    .where(
      and(
        gt(executions.seq, after),
        lte(executions.seq, upTo),
        inScope(scope),
        finished,
        sql`${endedAt} < ${cutoff}`,
      ),
    )
    .orderBy(asc(executions.seq))
    .limit(limit)
    .all()
}

/** Like expiredRuns, for runs that still have a step screenshot. */
export function runsWithExpiredScreenshots(
  db: Db,
  after: number,
  upTo: number,
  cutoff: string,
  limit: number,
  scope: RunScope = ALL_JOBS,
): ExpiredRun[] {
  return db
    .select({ seq: executions.seq, id: executions.id })
    .from(executions)
    .where(
      and(
        gt(executions.seq, after),
        lte(executions.seq, upTo),
        inScope(scope),
        finished,
        sql`${endedAt} < ${cutoff}`,
        sql`EXISTS (SELECT 1 FROM ${executionSteps} WHERE ${executionSteps.executionSeq} = ${executions.seq} AND ${executionSteps.screenshot} IS NOT NULL)`,
      ),
    )
    .orderBy(asc(executions.seq))
    .limit(limit)
    .all()
}

/**
 * Deletes these runs (their steps cascade) and their sent or failed status events, in one
 * transaction. A run that is somehow active again is left alone. Returns how many runs went.
 */
export function deleteRuns(db: Db, runs: ExpiredRun[]): number {
  if (runs.length === 0) return 0
  return db.transaction(
    (tx) => {
      tx.delete(webhookDeliveries)
        .where(
          and(
            inArray(
              webhookDeliveries.jobExecutionId,
              runs.map((r) => r.id),
            ),
            inArray(webhookDeliveries.status, ['delivered', 'failed']),
          ),
        )
        .run()
      return tx
        .delete(executions)
        .where(
          and(
            inArray(
              executions.seq,
              runs.map((r) => r.seq),
            ),
            finished,
          ),
        )
        .returning({ seq: executions.seq })
        .all().length
    },
    { behavior: 'immediate' },
  )
}

/** Forgets these runs' step screenshots (the files are removed first). Returns how many steps had one. */
export function clearScreenshots(db: Db, runs: ExpiredRun[]): number {
  if (runs.length === 0) return 0
  return db
    .update(executionSteps)
    .set({ screenshot: null })
    .where(
      and(
        inArray(
          executionSteps.executionSeq,
          runs.map((r) => r.seq),
        ),
        isNotNull(executionSteps.screenshot),
      ),
    )
    .returning({ seq: executionSteps.executionSeq })
    .all().length
}

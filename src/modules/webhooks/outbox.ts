import { and, asc, count, eq, gt, inArray, lt, lte, min, notExists, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Db } from '../../db/client.ts'
import { webhookDeliveries as w } from '../../db/schema/index.ts'

/**
 * The deliverer's SQL, one small statement per operation. Claiming is a single UPDATE … RETURNING
 * so a row can never be taken twice, and each outcome is one UPDATE of the row it concerns.
 */
export type OutboxRow = typeof w.$inferSelect

const earlier = alias(w, 'earlier')

/**
 * Takes up to `limit` due rows (pending → delivering, attempts + 1), oldest first. A row waits
 * while an earlier event of its execution is still pending (even if not yet due, i.e. in its retry
 * window) or in flight: an execution's events reach the receiver in order.
 */
export function claimDue(db: Db, now: string, limit: number): OutboxRow[] {
  if (limit <= 0) return []
  const due = db
    .select({ id: w.id })
    .from(w)
    .where(
      and(
        eq(w.status, 'pending'),
        lte(w.nextAttemptAt, now),
        notExists(
          db
            .select({ one: sql`1` })
            .from(earlier)
            .where(
              and(
                eq(earlier.jobExecutionId, w.jobExecutionId),
                lt(earlier.id, w.id),
                inArray(earlier.status, ['pending', 'delivering']),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(w.id))
    .limit(limit)
  return db
    .update(w)
    .set({ status: 'delivering', attempts: sql`${w.attempts} + 1` })
    .where(inArray(w.id, due))
    .returning()
    .all()
    .sort((a, b) => a.id - b.id)
}

export function markDelivered(db: Db, id: number, statusCode: number, at: string): void {
  db.update(w)
    .set({ status: 'delivered', lastStatusCode: statusCode, lastError: null, deliveredAt: at })
    .where(eq(w.id, id))
    .run()
}

export function markFailed(db: Db, id: number, statusCode: number | null, error: string): void {
  db.update(w)
    .set({ status: 'failed', lastStatusCode: statusCode, lastError: error })
    .where(eq(w.id, id))
    .run()
}

export function scheduleRetry(
  db: Db,
  id: number,
  nextAttemptAt: string,
  statusCode: number | null,
  error: string,
): void {
  db.update(w)
    .set({ status: 'pending', nextAttemptAt, lastStatusCode: statusCode, lastError: error })
    .where(eq(w.id, id))
    .run()
}

/**
 * Puts in-flight rows back to pending with the attempt not counted: at start-up for rows a crash
 * left `delivering`, and at shutdown for attempts cut short. The receiver may have had the
 * event already, so this is at-least-once; the unchanged `webhook-id` lets it deduplicate.
 */
export function releaseInFlight(db: Db, ids?: number[]): number {
  return db
    .update(w)
    .set({ status: 'pending', attempts: sql`max(${w.attempts} - 1, 0)` })
    .where(ids ? and(eq(w.status, 'delivering'), inArray(w.id, ids)) : eq(w.status, 'delivering'))
    .returning({ id: w.id })
    .all().length
}

/** Fails the oldest pending rows beyond `max`, so a dead receiver cannot grow the queue forever. */
export function dropOverflow(db: Db, max: number): number {
  const pending = db.select({ n: count() }).from(w).where(eq(w.status, 'pending')).get()?.n ?? 0
  if (pending <= max) return 0
  const oldest = db
    .select({ id: w.id })
    .from(w)
    .where(eq(w.status, 'pending'))
    .orderBy(asc(w.id))
    .limit(pending - max)
  return db
    .update(w)
    .set({ status: 'failed', lastError: `dropped: more than ${max} events were waiting to be sent` })
    .where(inArray(w.id, oldest))
    .returning({ id: w.id })
    .all().length
}

/** When the next pending row becomes due after `now` (rows already due wait for a free slot). */
export function nextDueAfter(db: Db, now: string): string | undefined {
  const row = db
    .select({ at: min(w.nextAttemptAt) })
    .from(w)
    .where(and(eq(w.status, 'pending'), gt(w.nextAttemptAt, now)))
    .get()
  return row?.at ?? undefined
}

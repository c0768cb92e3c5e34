import { asc, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { type DeliveryStatus, webhookDeliveries } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'

/** The seed's event kinds (section 6). */
export type StatusEventType =
  | 'execution_started'
  | 'step_started'
  | 'step_completed'
  | 'step_failed'
  | 'execution_completed'

/** A drizzle transaction on the store (or the store itself, for a lone insert). */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0]

export interface StatusEventInput {
  /** Already accepted by `validateCallbackUrl` when the call came in; checked again at delivery. */
  url: string
  jobExecutionId: string
  executionId: number
  eventType: StatusEventType
  /** The event's own members: `step`, or `status`/`result`/`replayUrl` for the completion event. */
  payload: Record<string, unknown>
  /** When the event happened (the run's clock); defaults to now. */
  timestamp?: string
}

export interface QueuedEvent {
  id: number
  eventId: string
}

/**
 * Queues one status event. Call it inside the transaction that records the change it reports, so
 * both commit or neither does; then call the deliverer's `notify()` after the commit. The envelope
 * members (`eventType`, `executionId`, `jobExecutionId`, `eventId`, `timestamp`) are set here so
 * the body's `eventId` is always the `webhook-id` header.
 */
export function enqueueStatusEvent(tx: DbOrTx, input: StatusEventInput): QueuedEvent {
  const queuedAt = new Date().toISOString()
  const timestamp = input.timestamp ?? queuedAt
  const eventId = newId()
  const payload = {
    eventType: input.eventType,
    executionId: input.executionId,
    jobExecutionId: input.jobExecutionId,
    eventId,
    timestamp,
    ...withoutEnvelope(input.payload),
  }
  const row = tx
    .insert(webhookDeliveries)
    .values({
      jobExecutionId: input.jobExecutionId,
      executionId: input.executionId,
      eventId,
      eventType: input.eventType,
      url: input.url,
      payload,
      // Due at once, whichever clock stamped the event (a run's clock may run ahead of this one).
      nextAttemptAt: [timestamp, queuedAt].sort()[0]!,
      createdAt: queuedAt,
    })
    .returning({ id: webhookDeliveries.id })
    .get()
  return { id: row.id, eventId }
}

const ENVELOPE = new Set(['eventType', 'executionId', 'jobExecutionId', 'eventId', 'timestamp'])
const withoutEnvelope = (payload: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(payload).filter(([k]) => !ENVELOPE.has(k)))

/** One delivery as the dashboard and the API show it. */
export interface Delivery {
  id: number
  eventId: string
  eventType: string
  jobExecutionId: string
  executionId: number
  url: string
  payload: Record<string, unknown>
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: string | null
  lastStatusCode: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
}

const toDelivery = (row: typeof webhookDeliveries.$inferSelect): Delivery => ({
  ...row,
  // Only a pending row has a next attempt; for the others the column is history, not a plan.
  nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
})

/** Every event queued for one execution, in the order they are (or were) sent. */
export function listDeliveries(ctx: AppContext, jobExecutionId: string): Delivery[] {
  return ctx.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.jobExecutionId, jobExecutionId))
    .orderBy(asc(webhookDeliveries.id))
    .all()
    .map(toDelivery)
}

/**
 * Sends a delivered or failed event again, with the same `webhook-id` so a receiver that already
 * has it can tell. A row still pending or in flight is left alone: it is going out anyway.
 */
export function resendDelivery(ctx: AppContext, id: number): Delivery {
  const row = ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get()
  if (!row) throw new AppError('NOT_FOUND', `No webhook delivery with id ${id}`)
  if (row.status === 'pending' || row.status === 'delivering') return toDelivery(row)
  const updated = ctx.db
    .update(webhookDeliveries)
    .set({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: ctx.clock.now().toISOString(),
      lastError: null,
      lastStatusCode: null,
      deliveredAt: null,
    })
    .where(eq(webhookDeliveries.id, id))
    .returning()
    .get()!
  return toDelivery(updated)
}

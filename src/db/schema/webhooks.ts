import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed'

/**
 * The outbox of status events for `callback_url`s. A row is written in the same transaction as the
 * execution change it reports, so an event is never lost nor sent for a change that rolled back;
 * the deliverer sends rows in `id` order per execution. `event_id` is the `webhook-id` header and
 * stays the same on every attempt and resend, so receivers can deduplicate.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    jobExecutionId: text('job_execution_id').notNull(),
    executionId: integer('execution_id').notNull(),
    eventId: text('event_id').notNull().unique(),
    eventType: text('event_type').notNull(),
    url: text('url').notNull(),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at').notNull(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    deliveredAt: text('delivered_at'),
  },
  (t) => [
    // The deliverer's scan: due pending rows, and the per-execution "anything earlier unsent?" check.
    index('webhook_deliveries_status_next').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_execution').on(t.jobExecutionId, t.id),
  ],
)

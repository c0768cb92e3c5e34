import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export type ExecutionStatus =
  | 'queued'
  | 'running'
  | 'succeeded'
  | 'partial'
  | 'failed'
  | 'timed_out'
  | 'cancelled'
export const TERMINAL_STATUSES: readonly ExecutionStatus[] = [
  'succeeded',
  'partial',
  'failed',
  'timed_out',
  'cancelled',
]

/**
 * One accepted live call. `seq` is the growing integer the status events call `executionId`; `id`
 * (UUIDv7) is the `jobExecutionId` callers poll. The row is the queue: claiming is one atomic
 * UPDATE … WHERE status = 'queued'.
 */
export const executions = sqliteTable(
  'executions',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    jobId: text('job_id').notNull(),
    jobVersion: integer('job_version').notNull(),
    apiKeyId: text('api_key_id'),
    status: text('status').$type<ExecutionStatus>().notNull().default('queued'),
    priority: integer('priority').notNull().default(0),
    input: text('input', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    callbackUrl: text('callback_url'),
    desktopId: text('desktop_id'),
    /** Changes on every dispatch; agent messages carrying another lease are ignored. */
    lease: text('lease'),
    timeoutMs: integer('timeout_ms').notNull(),
    /** Exactly the body a synchronous call returned (or would have), and its HTTP status. */
    result: text('result', { mode: 'json' }).$type<unknown>(),
    httpStatus: integer('http_status'),
    scenario: text('scenario'),
    error: text('error', { mode: 'json' }).$type<Record<string, unknown>>(),
    requestId: text('request_id').notNull(),
    /** Where the caller reached deskhook, for absolute replay links in events sent later. */
    baseUrl: text('base_url').notNull(),
    idempotencyKey: text('idempotency_key'),
    idempotencyFingerprint: text('idempotency_fingerprint'),
    queuedAt: text('queued_at').notNull(),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
  },
  (t) => [
    index('executions_queue').on(t.status, t.priority, t.seq),
    index('executions_job').on(t.jobId, t.seq),
    uniqueIndex('executions_idempotency')
      .on(t.apiKeyId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
  ],
)

export type StepRunStatus = 'RUNNING' | 'SUCCESS' | 'FAILED' | 'SKIPPED'

/** The replay: every step's outcome, timings and screenshot (a file in the data dir). */
export const executionSteps = sqliteTable(
  'execution_steps',
  {
    executionSeq: integer('execution_seq')
      .notNull()
      .references(() => executions.seq, { onDelete: 'cascade' }),
    executionOrder: integer('execution_order').notNull(),
    flowName: text('flow_name').notNull(),
    totalSteps: integer('total_steps').notNull(),
    status: text('status').$type<StepRunStatus>().notNull(),
    result: text('result', { mode: 'json' }).$type<unknown>(),
    error: text('error', { mode: 'json' }).$type<Record<string, unknown>>(),
    screenshot: text('screenshot'),
    /** Where the acted-on element was in the screenshot (window pixels), for the replay's outline. */
    target: text('target', { mode: 'json' }).$type<{ x: number; y: number; width: number; height: number }>(),
    startedAt: text('started_at').notNull(),
    finishedAt: text('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.executionSeq, t.executionOrder] })],
)

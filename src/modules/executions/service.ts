import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { preparedFor } from '../../db/prepared.ts'
import { executionSteps, executions, TERMINAL_STATUSES } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import type { StepRecord } from '../../protocol/messages.ts'
import { enqueueStatusEvent } from '../webhooks/service.ts'
import { type Completion, type ExecutionRow, replayPath, type StepRow } from './model.ts'

const byId = preparedFor((db) =>
  db
    .select()
    .from(executions)
    .where(eq(executions.id, sql.placeholder('id')))
    .prepare(),
)

export function findExecution(ctx: AppContext, id: string): ExecutionRow | undefined {
  return byId(ctx.db).get({ id })
}

export function getExecution(ctx: AppContext, id: string): ExecutionRow {
  const row = findExecution(ctx, id)
  if (!row) throw new AppError('EXECUTION_NOT_FOUND', `No execution with id ${id}`)
  return row
}

export function listSteps(ctx: AppContext, seq: number): StepRow[] {
  return ctx.db
    .select()
    .from(executionSteps)
    .where(eq(executionSteps.executionSeq, seq))
    .orderBy(asc(executionSteps.executionOrder))
    .all()
}

export const isTerminal = (row: ExecutionRow) => TERMINAL_STATUSES.includes(row.status)
const replayUrl = (row: ExecutionRow) => `${row.baseUrl}${replayPath(row.seq)}`

/** Claims a queued execution for a desktop: one atomic UPDATE, plus its execution_started event. */
export function claimExecution(
  ctx: AppContext,
  seq: number,
  desktopId: string,
  lease: string,
): ExecutionRow | null {
  return ctx.db.transaction(
    (tx) => {
      const startedAt = ctx.clock.now().toISOString()
      const row = tx
        .update(executions)
        .set({ status: 'running', desktopId, lease, startedAt })
        .where(and(eq(executions.seq, seq), eq(executions.status, 'queued')))
        .returning()
        .get()
      if (row?.callbackUrl)
        enqueueStatusEvent(tx, {
          url: row.callbackUrl,
          jobExecutionId: row.id,
          executionId: row.seq,
          eventType: 'execution_started',
          payload: { status: 'running' },
          timestamp: startedAt,
        })
      return row ?? null
    },
    { behavior: 'immediate' },
  )
}

/**
 * Records a step event for the replay (and its status event). Screenshots go to the data dir as
 * files; the row holds their name.
 */
export function recordStep(
  ctx: AppContext,
  exec: ExecutionRow,
  event: 'started' | 'finished',
  step: StepRecord,
): void {
  let screenshot: string | null = null
  if (step.screenshot) {
    const dir = join(ctx.config.dataDir, 'screenshots', exec.id)
    mkdirSync(dir, { recursive: true })
    screenshot = `${step.executionOrder}.jpg`
    writeFileSync(join(dir, screenshot), Buffer.from(step.screenshot, 'base64'))
  }
  const row = {
    executionSeq: exec.seq,
    executionOrder: step.executionOrder,
    flowName: step.flowName,
    totalSteps: step.totalSteps,
    status: step.status,
    result: step.result ?? null,
    error: (step.error as Record<string, unknown> | undefined) ?? null,
    screenshot,
    startedAt: step.startedAt,
    finishedAt: step.finishedAt ?? null,
  }
  ctx.db.transaction(
    (tx) => {
      tx.insert(executionSteps)
        .values(row)
        .onConflictDoUpdate({
          target: [executionSteps.executionSeq, executionSteps.executionOrder],
          set: row,
        })
        .run()
      if (!exec.callbackUrl) return
      enqueueStatusEvent(tx, {
        url: exec.callbackUrl,
        jobExecutionId: exec.id,
        executionId: exec.seq,
        eventType:
          event === 'started' ? 'step_started' : step.status === 'FAILED' ? 'step_failed' : 'step_completed',
        payload: {
          step: {
            flowName: step.flowName,
            executionOrder: step.executionOrder,
            totalSteps: step.totalSteps,
            status: step.status,
            ...(event === 'finished' ? { result: step.result ?? null } : {}),
            ...(step.error ? { error: step.error } : {}),
          },
        },
        timestamp: event === 'started' ? step.startedAt : (step.finishedAt ?? step.startedAt),
      })
    },
    { behavior: 'immediate' },
  )
}

/**
 * Ends a running execution (once: a later report for it is ignored) and queues its
 * execution_completed event. Returns the finished row, or null if it had already ended.
 */
export function completeExecution(ctx: AppContext, id: string, c: Completion): ExecutionRow | null {
  return ctx.db.transaction(
    (tx) => {
      const finishedAt = ctx.clock.now().toISOString()
      const row = tx
        .update(executions)
        .set({
          status: c.status,
          result: c.body,
          httpStatus: c.httpStatus,
          scenario: c.scenario,
          error: c.error,
          finishedAt,
        })
        .where(and(eq(executions.id, id), sql`${executions.status} IN ('queued', 'running')`))
        .returning()
        .get()
      if (row?.callbackUrl)
        enqueueStatusEvent(tx, {
          url: row.callbackUrl,
          jobExecutionId: row.id,
          executionId: row.seq,
          eventType: 'execution_completed',
          payload: { status: c.status, result: c.body, replayUrl: replayUrl(row) },
          timestamp: finishedAt,
        })
      return row ?? null
    },
    { behavior: 'immediate' },
  )
}

export function runningExecutions(ctx: AppContext): ExecutionRow[] {
  return ctx.db.select().from(executions).where(eq(executions.status, 'running')).all()
}

export function queuedExecutions(ctx: AppContext): Pick<ExecutionRow, 'seq' | 'id' | 'jobId'>[] {
  return ctx.db
    .select({ seq: executions.seq, id: executions.id, jobId: executions.jobId })
    .from(executions)
    .where(eq(executions.status, 'queued'))
    .orderBy(asc(executions.seq))
    .all()
}

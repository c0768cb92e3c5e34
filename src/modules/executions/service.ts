import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { preparedFor } from '../../db/prepared.ts'
import { executionSteps, executions, TERMINAL_STATUSES } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import type { StepRecord } from '../../protocol/messages.ts'
import { type AuditEntry, recordAudits } from '../audit/record.ts'
import { enqueueStatusEvent } from '../webhooks/service.ts'
import { dispatchAuditEntry } from './dispatch-audit.ts'
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

export const executionNotFound = (id: string) =>
  new AppError('EXECUTION_NOT_FOUND', `No execution with id ${id}`)

export function getExecution(ctx: AppContext, id: string): ExecutionRow {
  const row = findExecution(ctx, id)
  if (!row) throw executionNotFound(id)
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

/**
 * Claims queued executions for desktops, all in one durable transaction (one fsync for a whole
 * dispatch pass), each with its execution_started event and its `execution.dispatched` audit row
 * (appended together at the end: the chain's head is read once per pass). The claim and its row
 * must be durable before the run is sent: after a crash, a claimed execution is never dispatched
 * again, and no run reaches an agent unrecorded. Returns the rows claimed (an execution no longer
 * queued is skipped).
 */
export function claimExecutions(
  ctx: AppContext,
  claims: { seq: number; desktopId: string; lease: string }[],
): ExecutionRow[] {
  return ctx.db.transaction(
    (tx) => {
      const startedAt = ctx.clock.now().toISOString()
      const rows: ExecutionRow[] = []
      const audits: AuditEntry[] = []
      for (const c of claims) {
        const row = tx
          .update(executions)
          .set({ status: 'running', desktopId: c.desktopId, lease: c.lease, startedAt })
          .where(and(eq(executions.seq, c.seq), eq(executions.status, 'queued')))
          .returning()
          .get()
        if (!row) continue
        rows.push(row)
        audits.push(dispatchAuditEntry(ctx, row))
        if (row.callbackUrl)
          enqueueStatusEvent(tx, {
            url: row.callbackUrl,
            jobExecutionId: row.id,
            executionId: row.seq,
            eventType: 'execution_started',
            payload: { status: 'running' },
            timestamp: startedAt,
          })
      }
      recordAudits(ctx, audits, tx)
      return rows
    },
    { behavior: 'immediate' },
  )
}

/**
 * Writes a step's screenshot off the event loop (file creation can take milliseconds on a disk
 * busy with commits, and a run's steps must not wait for it). The row names the file at once; a
 * failed write is logged and the replay shows the step without its picture.
 */
function saveScreenshot(ctx: AppContext, executionId: string, name: string, base64: string): void {
  const dir = join(ctx.config.dataDir, 'screenshots', executionId)
  // Written aside and renamed into place: a replay reading it meanwhile never sees a half-written file.
  const temp = join(dir, `.${name}.${process.pid}.tmp`)
  mkdir(dir, { recursive: true })
    .then(() => writeFile(temp, Buffer.from(base64, 'base64')))
    .then(() => rename(temp, join(dir, name)))
    .catch((err) => ctx.log.error({ err, jobExecutionId: executionId }, 'could not save a step screenshot'))
}

/**
 * The file of a step's screenshot, or a NOT_FOUND naming why there is none. The row is written
 * before the file, and a file may have been removed by hand (or by retention): a 404, not a 500.
 */
export async function stepScreenshotFile(
  ctx: AppContext,
  exec: Pick<ExecutionRow, 'id' | 'seq'>,
  n: string,
  runName: string,
): Promise<Bun.BunFile> {
  const step = /^[1-9]\d{0,5}$/.test(n)
    ? ctx.db
        .select({ screenshot: executionSteps.screenshot })
        .from(executionSteps)
        .where(and(eq(executionSteps.executionSeq, exec.seq), eq(executionSteps.executionOrder, Number(n))))
        .get()
    : undefined
  if (!step?.screenshot) throw new AppError('NOT_FOUND', `${runName} has no screenshot for step ${n}`)
  const file = Bun.file(join(ctx.config.dataDir, 'screenshots', exec.id, step.screenshot))
  if (!(await file.exists()))
    throw new AppError(
      'NOT_FOUND',
      `The screenshot of step ${n} of ${runName} is not on disk (not written yet, or removed)`,
    )
  return file
}

/**
 * Marks an execution written already claimed (see acceptExecution) as running, with its event and
 * its `execution.dispatched` audit row, inside the acceptance's group-commit write: like a claim of
 * the queue, it is durable before the run is sent.
 */
export function claimInserted(ctx: AppContext, row: ExecutionRow): void {
  ctx.db
    .update(executions)
    .set({ status: 'running', desktopId: row.desktopId, lease: row.lease, startedAt: row.startedAt })
    .where(eq(executions.seq, row.seq))
    .run()
  recordAudits(ctx, [dispatchAuditEntry(ctx, row)])
  if (!row.callbackUrl) return
  ctx.writes.tag('outbox')
  enqueueStatusEvent(ctx.db, {
    url: row.callbackUrl,
    jobExecutionId: row.id,
    executionId: row.seq,
    eventType: 'execution_started',
    payload: { status: 'running' },
    timestamp: row.startedAt ?? undefined,
  })
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
  // Under --min-free-disk (storage-guard.ts) the run goes on without its screenshots.
  if (step.screenshot && ctx.storage.lowDisk === undefined) {
    screenshot = `${step.executionOrder}.jpg`
    saveScreenshot(ctx, exec.id, screenshot, step.screenshot)
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
    target: step.target ?? null,
    startedAt: step.startedAt,
    finishedAt: step.finishedAt ?? null,
  }
  // Rides along with the next durable commit (the run's completion at the latest, which is queued
  // after it): a step costs no fsync of its own.
  ctx.writes.defer(
    () => {
      const tx = ctx.db
      tx.insert(executionSteps)
        .values(row)
        .onConflictDoUpdate({
          target: [executionSteps.executionSeq, executionSteps.executionOrder],
          set: row,
        })
        .run()
      if (!exec.callbackUrl) return
      ctx.writes.tag('outbox')
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
    (err) => ctx.log.error({ err, jobExecutionId: exec.id }, 'could not record a step'),
  )
}

/**
 * Ends a running execution (once: a later report for it is ignored) and queues its
 * execution_completed event. Returns the finished row, or null if it had already ended.
 */
export function completeExecution(
  ctx: AppContext,
  id: string,
  completion: () => Completion,
): Promise<ExecutionRow | null> {
  return ctx.writes.run(() => {
    // Evaluated inside the commit, after the run's deferred step records: a 207's per-step
    // outcomes see every step.
    const c = completion()
    const finishedAt = ctx.clock.now().toISOString()
    const row = ctx.db
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
    if (row?.callbackUrl) ctx.writes.tag('outbox')
    if (row?.callbackUrl)
      enqueueStatusEvent(ctx.db, {
        url: row.callbackUrl,
        jobExecutionId: row.id,
        executionId: row.seq,
        eventType: 'execution_completed',
        payload: { status: c.status, result: c.body, replayUrl: replayUrl(row) },
        timestamp: finishedAt,
      })
    return row ?? null
  })
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

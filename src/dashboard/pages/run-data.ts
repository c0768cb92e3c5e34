import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { desktops, type ExecutionStatus, executions, jobs } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import type { ExecutionRow } from '../../modules/executions/model.ts'
import { listSteps } from '../../modules/executions/service.ts'
import { listDeliveries } from '../../modules/webhooks/service.ts'
import type { Bounds } from '../../protocol/elements.ts'
import { jobSecrets, NO_JOB_SECRETS, secretMasker } from '../ui/mask.ts'
import { durationMs } from './runs-data.ts'

export interface RunStep {
  n: number
  name: string
  status: string
  startedAt: string
  finishedAt: string | null
  durationMs?: number
  result: unknown
  error: Record<string, unknown> | null
  /** The session-gated URL of the screenshot after the step, when one was taken. */
  screenshotUrl: string | null
  /** The acted-on element in the screenshot's pixels, for the outline. */
  target: Bounds | null
}

export interface RunDelivery {
  id: number
  eventType: string
  status: string
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  createdAt: string
  deliveredAt: string | null
}

export interface RunDetail {
  seq: number
  id: string
  jobId: string
  method: string | null
  path: string | null
  jobVersion: number
  status: ExecutionStatus
  scenario: string | null
  httpStatus: number | null
  desktop: string | null
  queuedAt: string
  startedAt: string | null
  finishedAt: string | null
  durationMs?: number
  input: unknown
  output: unknown
  error: Record<string, unknown> | null
  /** Where status events went: scheme, host and path (a query string may carry a token). */
  callback: string | null
  steps: RunStep[]
  deliveries: RunDelivery[]
}

export const screenshotUrl = (seq: number, n: number) => `/_/runs/${seq}/steps/${n}/screenshot`

function callbackShown(url: string | null): string | null {
  if (!url) return null
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return null
  }
}

/** `/_/runs/<seq>`'s run, or a 404 naming the run. */
export function findRunBySeq(ctx: AppContext, seqText: string): ExecutionRow {
  const row = /^[1-9]\d{0,15}$/.test(seqText)
    ? ctx.db
        .select()
        .from(executions)
        .where(eq(executions.seq, Number(seqText)))
        .get()
    : undefined
  if (!row) throw new AppError('EXECUTION_NOT_FOUND', `There is no run #${seqText} (removed by retention?)`)
  return row
}

/** Everything the run page shows, with secrets masked. */
export function loadRun(ctx: AppContext, row: ExecutionRow): RunDetail {
  const job = ctx.db
    .select({
      id: jobs.id,
      method: jobs.method,
      path: jobs.path,
      keptHeaders: jobs.keptHeaders,
      secretInputs: jobs.secretInputs,
    })
    .from(jobs)
    .where(eq(jobs.id, row.jobId))
    .get()
  const desktop = row.desktopId
    ? ctx.db.select({ name: desktops.name }).from(desktops).where(eq(desktops.id, row.desktopId)).get()
    : undefined
  // The caller's password typed by a step shows up in the step's result and error too.
  const hide = secretMasker(job ? jobSecrets(ctx, job) : NO_JOB_SECRETS, row.input)
  const steps = listSteps(ctx, row.seq).map(
    (s): RunStep => ({
      n: s.executionOrder,
      name: hide(s.flowName) as string,
      status: s.status,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
      durationMs: durationMs(s.startedAt, s.finishedAt),
      result: hide(s.result ?? null),
      error: s.error ? (hide(s.error) as Record<string, unknown>) : null,
      screenshotUrl: s.screenshot ? screenshotUrl(row.seq, s.executionOrder) : null,
      target: s.target ?? null,
    }),
  )
  const deliveries = listDeliveries(ctx, row.id).map(
    (d): RunDelivery => ({
      id: d.id,
      eventType: d.eventType,
      status: d.status,
      attempts: d.attempts,
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError === null ? null : (hide(d.lastError) as string),
      createdAt: d.createdAt,
      deliveredAt: d.deliveredAt,
    }),
  )
  return {
    seq: row.seq,
    id: row.id,
    jobId: row.jobId,
    method: job?.method ?? null,
    path: job?.path ?? null,
    jobVersion: row.jobVersion,
    status: row.status,
    scenario: row.scenario,
    httpStatus: row.httpStatus,
    desktop: desktop?.name ?? null,
    queuedAt: row.queuedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: durationMs(row.startedAt, row.finishedAt),
    input: hide(row.input),
    output: row.result === null || row.result === undefined ? null : hide(row.result),
    error: row.error ? (hide(row.error) as Record<string, unknown>) : null,
    callback: callbackShown(row.callbackUrl),
    steps,
    deliveries,
  }
}

/**
 * The step shown first: the one named by `?step=`, else the one the run failed at, else the first.
 */
export function initialStep(run: RunDetail, asked: string | null): number | undefined {
  const n = asked && /^\d{1,6}$/.test(asked) ? Number(asked) : undefined
  if (n !== undefined && run.steps.some((s) => s.n === n)) return n
  const failedAt = run.steps.find((s) => s.status === 'FAILED')
  return (failedAt ?? run.steps[0])?.n
}

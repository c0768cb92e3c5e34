import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { desktops, type ExecutionStatus, executions, jobs } from '../../db/schema/index.ts'
import { isCredentialHeader } from '../../lib/credential-headers.ts'
import { AppError } from '../../lib/errors.ts'
import type { ExecutionRow } from '../../modules/executions/model.ts'
import { listSteps } from '../../modules/executions/service.ts'
import { MASK, scrubSecrets } from '../../modules/secrets/scrub.ts'
import { jobSecretNames, jobSecretValues } from '../../modules/secrets/service.ts'
import { listDeliveries } from '../../modules/webhooks/service.ts'
import type { Bounds } from '../../protocol/elements.ts'
import { maskSecrets } from '../ui/parts.tsx'
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

/** Member names that hold a credential beyond what the header rule's words say. */
const EXTRA_SECRET_WORDS = /(^|-)(pwd|pin|passcode|otp)(-|$)/

/**
 * A member name that holds a credential: a secret or kept header of the job, or a name whose words
 * say so (`password`, `apiKey`, `client_secret`, `x-auth-token`), by the rule that drops
 * credential headers from calls.
 */
export function secretKeyTest(named: Iterable<string>): (key: string) => boolean {
  const set = new Set([...named].map((n) => n.toLowerCase()))
  return (key) => {
    if (set.has(key.toLowerCase())) return true
    const words = key
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/[_\s.]+/g, '-')
      .toLowerCase()
    return isCredentialHeader(words) || EXTRA_SECRET_WORDS.test(words)
  }
}

function visit(value: unknown, each: (key: string, v: unknown) => void): void {
  if (Array.isArray(value)) for (const v of value) visit(v, each)
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      each(k, v)
      visit(v, each)
    }
}

/**
 * What hides a run's secrets wherever they appear on its page: the job's secret values, and the
 * values the caller sent under credential-looking names (a password typed by a step shows up in
 * the step's result and error too) are replaced; members named like a secret are masked whole.
 */
export function runMasker(
  ctx: AppContext,
  job: { id: string; keptHeaders: string[] } | undefined,
  input: unknown,
): (value: unknown) => unknown {
  const isSecret = secretKeyTest(job ? [...jobSecretNames(ctx, job.id), ...job.keptHeaders] : [])
  const values: string[] = []
  if (job)
    try {
      values.push(...Object.values(jobSecretValues(ctx, job.id)))
    } catch (err) {
      // A replaced secrets.key must not hide the run; names and the caller's values still mask.
      ctx.log.warn({ err, jobId: job.id }, 'job secrets unreadable; masking the run by member names only')
    }
  visit(input, (k, v) => {
    if (!isSecret(k)) return
    visit({ v }, (_, inner) => {
      if (typeof inner === 'string' || typeof inner === 'number') values.push(String(inner))
    })
  })
  // A value of one or two characters would mangle every word it occurs in: those are masked only
  // where they are the whole string.
  const long = values.filter((v) => v.length >= 3)
  const short = new Set(values.filter((v) => v.length > 0 && v.length < 3))
  return (value) => {
    const keys = new Set<string>()
    visit(value, (k) => {
      if (isSecret(k)) keys.add(k.toLowerCase())
    })
    return maskSecrets(maskWhole(scrubSecrets(value, long), short), keys)
  }
}

function maskWhole(value: unknown, whole: ReadonlySet<string>): unknown {
  if (whole.size === 0) return value
  if (typeof value === 'string') return whole.has(value) ? MASK : value
  if (Array.isArray(value)) return value.map((v) => maskWhole(v, whole))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskWhole(v, whole)]))
  return value
}

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
    .select({ id: jobs.id, method: jobs.method, path: jobs.path, keptHeaders: jobs.keptHeaders })
    .from(jobs)
    .where(eq(jobs.id, row.jobId))
    .get()
  const desktop = row.desktopId
    ? ctx.db.select({ name: desktops.name }).from(desktops).where(eq(desktops.id, row.desktopId)).get()
    : undefined
  const hide = runMasker(ctx, job, row.input)
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

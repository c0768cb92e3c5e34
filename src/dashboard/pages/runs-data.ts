import { and, asc, desc, eq, gt, gte, lt, type SQL, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { type ExecutionStatus, executions, jobs } from '../../db/schema/index.ts'

export const RUNS_PER_PAGE = 50

export const RUN_STATUSES: readonly ExecutionStatus[] = [
  'queued',
  'running',
  'succeeded',
  'partial',
  'failed',
  'timed_out',
  'cancelled',
]

/** The runs list's filters as the form sends them (kept as typed, to show them again). */
export interface RunFilters {
  job: string
  status: string
  from: string
  to: string
}

/** A page of the list: the filters, plus where it starts (a keyset cursor on `seq`). */
export interface RunQuery extends RunFilters {
  /** Runs older than this seq (the "Older" link). */
  before?: number
  /** Runs newer than this seq (the "Newer" link). */
  after?: number
}

export class FilterError extends Error {}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const CURSOR = /^[1-9]\d{0,15}$/

/** A calendar day (`YYYY-MM-DD`, the date input's value) that exists, else undefined. */
function day(value: string): string | undefined {
  const m = DAY.exec(value)
  if (!m) return undefined
  const d = new Date(`${value}T00:00:00.000Z`)
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? undefined : value
}

/**
 * Reads the list's query string. Every value a person could have typed or edited in the address
 * is checked, and a bad one is named (a FilterError, shown as a 400 with the form).
 */
export function parseRunQuery(params: URLSearchParams, jobIds: ReadonlySet<string>): RunQuery {
  const text = (name: string) => (params.get(name) ?? '').trim()
  const q: RunQuery = { job: text('job'), status: text('status'), from: text('from'), to: text('to') }
  if (q.job && !jobIds.has(q.job))
    throw new FilterError(`There is no job with id "${q.job}"; pick one from the list`)
  if (q.status && !RUN_STATUSES.includes(q.status as ExecutionStatus))
    throw new FilterError(`"${q.status}" is not a run status; use one of ${RUN_STATUSES.join(', ')}`)
  for (const [name, label] of [
    ['from', 'From'],
    ['to', 'To'],
  ] as const)
    if (q[name] && !day(q[name]))
      throw new FilterError(
        `${label} must be a date such as 2025-03-31 (year-month-day); "${q[name]}" is not one`,
      )
  if (q.from && q.to && q.from > q.to) throw new FilterError(`From (${q.from}) is after To (${q.to})`)
  for (const name of ['before', 'after'] as const) {
    const value = params.get(name)
    if (value === null) continue
    if (!CURSOR.test(value)) throw new FilterError(`"${value}" is not a run number (${name})`)
    q[name] = Number(value)
  }
  if (q.before !== undefined && q.after !== undefined)
    throw new FilterError('A page starts either before or after a run, not both')
  return q
}

/** The query string of a list page with these filters (empty ones left out). */
export function runsHref(filters: RunFilters, cursor: { before?: number; after?: number } = {}): string {
  const params = new URLSearchParams()
  const { job, status, from, to } = filters
  for (const [k, v] of Object.entries({ job, status, from, to, ...cursor }))
    if (v !== undefined && v !== '') params.set(k, String(v))
  const qs = params.toString()
  return qs ? `/_/runs?${qs}` : '/_/runs'
}

export interface RunListRow {
  seq: number
  jobId: string
  method: string | null
  path: string | null
  status: ExecutionStatus
  scenario: string | null
  queuedAt: string
  startedAt: string | null
  finishedAt: string | null
}

export interface RunPage {
  rows: RunListRow[]
  /** Cursors of the neighbouring pages; undefined when there is none. */
  newer?: number
  older?: number
}

/** The next UTC day after `YYYY-MM-DD`: "to" includes its whole day. */
const dayAfter = (value: string) =>
  new Date(Date.parse(`${value}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10)

function conditions(f: RunFilters): SQL[] {
  const where: SQL[] = []
  if (f.job) where.push(eq(executions.jobId, f.job))
  if (f.status) where.push(eq(executions.status, f.status as ExecutionStatus))
  // Stored times are ISO strings in UTC, so comparing text compares instants.
  if (f.from) where.push(gte(executions.queuedAt, `${f.from}T00:00:00.000Z`))
  if (f.to) where.push(lt(executions.queuedAt, `${dayAfter(f.to)}T00:00:00.000Z`))
  return where
}

/**
 * One page of runs, newest first. Keyset paging on `seq` (the executions_job index serves a job's
 * runs in order): a page costs the same at run 50 as at run 500,000, and new runs arriving between
 * clicks do not shift what "Older" shows.
 */
export function listRuns(ctx: AppContext, q: RunQuery): RunPage {
  const where = conditions(q)
  const page = ctx.db
    .select({
      seq: executions.seq,
      jobId: executions.jobId,
      method: jobs.method,
      path: jobs.path,
      status: executions.status,
      scenario: executions.scenario,
      queuedAt: executions.queuedAt,
      startedAt: executions.startedAt,
      finishedAt: executions.finishedAt,
    })
    .from(executions)
    .leftJoin(jobs, eq(jobs.id, executions.jobId))
  const rows =
    q.after !== undefined
      ? page
          .where(and(...where, gt(executions.seq, q.after)))
          .orderBy(asc(executions.seq))
          .limit(RUNS_PER_PAGE)
          .all()
          .reverse()
      : page
          .where(and(...where, q.before === undefined ? undefined : lt(executions.seq, q.before)))
          .orderBy(desc(executions.seq))
          .limit(RUNS_PER_PAGE)
          .all()
  if (rows.length === 0) return { rows }
  const newest = rows[0]!.seq
  const oldest = rows.at(-1)!.seq
  return {
    rows,
    newer: anyRun(ctx, where, gt(executions.seq, newest)) ? newest : undefined,
    older: anyRun(ctx, where, lt(executions.seq, oldest)) ? oldest : undefined,
  }
}

function anyRun(ctx: AppContext, where: SQL[], edge: SQL): boolean {
  return !!ctx.db
    .select({ one: sql<number>`1` })
    .from(executions)
    .where(and(...where, edge))
    .limit(1)
    .get()
}

export interface JobChoice {
  id: string
  method: string
  path: string
}

/** Every job, for the filter's select. */
export function jobChoices(ctx: AppContext): JobChoice[] {
  return ctx.db
    .select({ id: jobs.id, method: jobs.method, path: jobs.path })
    .from(jobs)
    .orderBy(asc(jobs.path), asc(jobs.method))
    .all()
}

/** A run's length for a person: "850 ms", "12.4 s", "3 min 05 s", "2 h 04 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
  const s = Math.round(ms / 1000)
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`
}

/** From start to finish; undefined while it has not started or finished. */
export function durationMs(startedAt: string | null, finishedAt: string | null): number | undefined {
  if (!startedAt || !finishedAt) return undefined
  return Date.parse(finishedAt) - Date.parse(startedAt)
}

import { desc, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import {
  type BuildStatus,
  builds,
  type ExecutionStatus,
  executions,
  jobVersions,
  samples,
} from '../../db/schema/index.ts'
import { baseUrl } from '../../http/base-url.ts'
import { AppError } from '../../lib/errors.ts'
import {
  getJob,
  type Job,
  type JobView,
  type ScenarioSummary,
  toView,
  UNSORTED_SCENARIO,
} from '../../modules/jobs/service.ts'
import { type StabilityBreakdown, stabilityBreakdown } from '../../modules/jobs/stability.ts'
import { listKeys } from '../../modules/keys/service.ts'
import type { openApiCache } from '../../modules/openapi/service.ts'
import { type Automation, parseAutomation } from '../../protocol/automation.ts'
import { jobSecrets, secretMasker } from '../ui/mask.ts'
import { diffVersions, type VersionDiff } from '../ui/version-diff.ts'

/** The page shows this many of the newest samples, versions, runs and builds. */
export const SHOWN_SAMPLES = 50
export const SHOWN_VERSIONS = 20
export const SHOWN_RUNS = 10
export const SHOWN_BUILDS = 10

export interface LastResult {
  /** A live run in this scenario, else the newest sample's status. */
  source: 'run' | 'sample'
  status: string
  at: string
  seq?: number
}

export interface ScenarioDetail extends ScenarioSummary {
  last: LastResult | null
}

export interface SampleView {
  id: string
  scenario: string | null
  status: string
  /** The body members (secrets masked); path parameters and headers apart. */
  body: Record<string, unknown>
  params: Record<string, unknown>
  headers: Record<string, unknown>
  expect: unknown
  prompt: string | null
  createdAt: string
}

export interface VersionView {
  version: number
  createdAt: string
  buildId: string | null
  automation: Automation | null
  /** Why the stored automation does not read as one (an import from another release?). */
  problems: string[]
  /** What changed since the version before it (null for the first, or when either is unreadable). */
  diff: VersionDiff | null
}

export interface RunRow {
  seq: number
  status: ExecutionStatus
  queuedAt: string
  finishedAt: string | null
  jobVersion: number
  scenario: string | null
}

export interface BuildRow {
  id: string
  status: BuildStatus
  createdAt: string
  scenario: string | null
  error: { code: string; message: string } | null
}

export interface JobPageData {
  job: Job
  view: JobView
  keyPrefix: string | null
  stability: StabilityBreakdown
  scenarios: ScenarioDetail[]
  sampleCount: number
  samples: SampleView[]
  /** Newest first. */
  versions: VersionView[]
  versionCount: number
  runs: RunRow[]
  builds: BuildRow[]
  operation: unknown
  secretNames: string[]
  /** The newest sample's body with masked values emptied: the starting point of "Teach another sample". */
  exampleInput: Record<string, unknown>
}

function scenarioDetails(ctx: AppContext, jobId: string): ScenarioDetail[] {
  const counts = ctx.db
    .select({
      scenario: samples.scenario,
      total: sql<number>`count(*)`,
      passing: sql<number>`coalesce(sum(${samples.status} = 'passing'), 0)`,
      lastStatus: sql<string>`(SELECT s2.status FROM samples s2 WHERE s2.job_id = ${samples.jobId} AND s2.scenario IS ${samples.scenario} ORDER BY s2.updated_at DESC LIMIT 1)`,
      lastAt: sql<string>`max(${samples.updatedAt})`,
    })
    .from(samples)
    .where(eq(samples.jobId, jobId))
    .groupBy(samples.scenario)
    .all()
  const lastRuns = new Map(
    ctx.db
      .select({
        scenario: executions.scenario,
        seq: executions.seq,
        status: executions.status,
        at: sql<string>`coalesce(${executions.finishedAt}, ${executions.queuedAt})`,
      })
      .from(executions)
      .where(
        sql`${executions.seq} IN (SELECT max(seq) FROM executions WHERE job_id = ${jobId} AND scenario IS NOT NULL GROUP BY scenario)`,
      )
      .all()
      .map((r) => [r.scenario, r]),
  )
  return counts.map((c) => {
    const run = c.scenario === null ? undefined : lastRuns.get(c.scenario)
    const last: LastResult = run
      ? { source: 'run', status: run.status, at: run.at, seq: run.seq }
      : { source: 'sample', status: c.lastStatus, at: c.lastAt }
    return { name: c.scenario ?? UNSORTED_SCENARIO, samples: c.total, passing: c.passing, last }
  })
}

type SampleRow = typeof samples.$inferSelect

function newestSamples(ctx: AppContext, jobId: string): SampleRow[] {
  return ctx.db
    .select()
    .from(samples)
    .where(eq(samples.jobId, jobId))
    .orderBy(desc(samples.createdAt))
    .limit(SHOWN_SAMPLES)
    .all()
}

/** For a person: the sample's secrets hidden by the one rule (ui/mask.ts). */
function sampleView(s: SampleRow, hide: (value: unknown) => unknown): SampleView {
  const { _http, ...body } = hide(s.input) as Record<string, unknown>
  const http = (_http ?? {}) as { params?: Record<string, unknown>; headers?: Record<string, unknown> }
  return {
    id: s.id,
    scenario: s.scenario,
    status: s.status,
    body,
    params: http.params ?? {},
    headers: http.headers ?? {},
    expect: s.expect === null ? null : hide(s.expect),
    prompt: s.prompt,
    createdAt: s.createdAt,
  }
}

function versionViews(ctx: AppContext, jobId: string): { versions: VersionView[]; count: number } {
  const rows = ctx.db
    .select()
    .from(jobVersions)
    .where(eq(jobVersions.jobId, jobId))
    .orderBy(desc(jobVersions.version))
    // One more than shown, so the oldest shown version has its diff too.
    .limit(SHOWN_VERSIONS + 1)
    .all()
  const count =
    ctx.db.select({ n: sql<number>`count(*)` }).from(jobVersions).where(eq(jobVersions.jobId, jobId)).get()
      ?.n ?? 0
  const parsed = rows.map((r) => {
    const p = parseAutomation(r.automation)
    return {
      version: r.version,
      createdAt: r.createdAt,
      buildId: r.buildId,
      automation: p.ok ? p.automation : null,
      problems: p.ok ? [] : p.errors,
      diff: null as VersionDiff | null,
    }
  })
  for (const [i, v] of parsed.entries()) {
    const before = parsed[i + 1]
    if (before?.automation && v.automation && before.version === v.version - 1)
      v.diff = diffVersions(before.automation, v.automation)
  }
  return { versions: parsed.slice(0, SHOWN_VERSIONS), count }
}

function recentRuns(ctx: AppContext, jobId: string): RunRow[] {
  return ctx.db
    .select({
      seq: executions.seq,
      status: executions.status,
      queuedAt: executions.queuedAt,
      finishedAt: executions.finishedAt,
      jobVersion: executions.jobVersion,
      scenario: executions.scenario,
    })
    .from(executions)
    .where(eq(executions.jobId, jobId))
    .orderBy(desc(executions.seq))
    .limit(SHOWN_RUNS)
    .all()
}

function recentBuilds(ctx: AppContext, jobId: string): BuildRow[] {
  return ctx.db
    .select({
      id: builds.id,
      status: builds.status,
      createdAt: builds.createdAt,
      scenario: builds.scenario,
      error: builds.error,
    })
    .from(builds)
    .where(eq(builds.jobId, jobId))
    .orderBy(desc(builds.createdAt), desc(builds.id))
    .limit(SHOWN_BUILDS)
    .all()
}

type OpenApiCache = ReturnType<typeof openApiCache>

/** Each document's operations by job id, indexed once per document (its ETag), not per page view. */
const operationIndex = new WeakMap<OpenApiCache, { etag: string; byJob: Map<string, unknown> }>()

/** The job's operation in the served OpenAPI document (the same bytes /swagger.json serves). */
export function operationOf(cache: OpenApiCache, jobId: string): unknown {
  const doc = cache.get()
  let index = operationIndex.get(cache)
  if (index?.etag !== doc.etag) {
    const byJob = new Map<string, unknown>()
    const parsed = JSON.parse(doc.body) as { paths: Record<string, Record<string, unknown>> }
    for (const [path, item] of Object.entries(parsed.paths))
      for (const [method, op] of Object.entries(item)) {
        const id = (op as { 'x-deskhook-job-id'?: unknown })['x-deskhook-job-id']
        if (typeof id === 'string') byJob.set(id, { [path]: { [method]: op } })
      }
    index = { etag: doc.etag, byJob }
    operationIndex.set(cache, index)
  }
  return index.byJob.get(jobId) ?? null
}

export function loadJobPage(
  ctx: AppContext,
  openApi: ReturnType<typeof openApiCache>,
  id: string,
): JobPageData {
  const job = getJob(ctx, id)
  if (!job) throw new AppError('JOB_NOT_FOUND', 'No such job (it may have been deleted)')
  const scenarios = scenarioDetails(ctx, job.id)
  const secrets = jobSecrets(ctx, job)
  const rows = newestSamples(ctx, job.id)
  const { versions, count } = versionViews(ctx, job.id)
  const { _http: _, ...newestBody } = rows[0]?.input ?? {}
  return {
    job,
    view: toView(
      job,
      scenarios.map(({ last: _, ...s }) => s),
      baseUrl(ctx),
    ),
    keyPrefix:
      listKeys(ctx)
        .filter((k) => !k.revokedAt)
        .at(-1)?.prefix ?? null,
    stability: stabilityBreakdown(ctx, job.id),
    scenarios,
    sampleCount: scenarios.reduce((n, s) => n + s.samples, 0),
    samples: rows.map((r) => sampleView(r, secretMasker(secrets, r.input))),
    versions,
    versionCount: count,
    runs: recentRuns(ctx, job.id),
    builds: recentBuilds(ctx, job.id),
    operation: operationOf(openApi, job.id),
    secretNames: [...secrets.names],
    // Secret members start empty: the person types them, the page never holds them.
    exampleInput: secretMasker(secrets, rows[0]?.input, '')(newestBody) as Record<string, unknown>,
  }
}

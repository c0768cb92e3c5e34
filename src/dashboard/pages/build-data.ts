import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobVersions, samples } from '../../db/schema/index.ts'
import { type BuildView, getBuild, toBuildView } from '../../modules/builds/service.ts'
import { getJob } from '../../modules/jobs/service.ts'
import type { Automation, Step } from '../../protocol/automation.ts'
import { jobSecrets, NO_JOB_SECRETS, secretMasker } from '../ui/mask.ts'

export const FINISHED = new Set(['succeeded', 'failed'])

/** One path through the learned automation: the main steps, or a scenario the main steps branch to. */
export interface LearnedPath {
  name: string
  outcome: string
  /** Steps of its own (a scenario also runs the main steps before its branch). */
  steps: number
  /** Output keys the caller gets back on this path. */
  outputs: string[]
  /** The scenario this build's sample ended in. */
  thisBuild: boolean
}

export interface LearnedVersion {
  version: number
  createdAt: string
  isDraft: boolean
  isLive: boolean
  totalSteps: number
  paths: LearnedPath[]
  /** The job's stability score right after this build (its `done` progress entry). */
  stabilityScore: number | null
}

export interface BuildPageData {
  build: BuildView
  job: { id: string; method: string; path: string; mode: string } | null
  /** The sample's input with secret values masked: body members, and the HTTP details apart. */
  input: Record<string, unknown> | null
  http: unknown
  learned: LearnedVersion | null
}

function outputsOf(steps: Step[], declared: Record<string, unknown> | undefined): string[] {
  const read = steps.flatMap((s) => (s.kind === 'read' ? [s.into] : []))
  return [...new Set([...read, ...Object.keys(declared ?? {})])]
}

/** What an automation teaches, path by path; tolerant of shapes older versions stored. */
export function learnedPaths(automation: unknown, scenario: string | null): LearnedPath[] {
  const a = (automation ?? {}) as Partial<Automation>
  const main = Array.isArray(a.steps) ? a.steps : []
  const scenarios = Array.isArray(a.scenarios) ? a.scenarios : []
  const mainName = a.mainScenario ?? 'main'
  const paths: LearnedPath[] = [
    {
      name: mainName,
      outcome: 'success',
      steps: main.filter((s) => s.kind !== 'branch').length,
      outputs: outputsOf(main, a.outputs),
      thisBuild: scenario === mainName,
    },
  ]
  for (const s of scenarios) {
    const branchAt = main.findIndex((step) => step.kind === 'branch' && step.scenario === s.name)
    const before = branchAt < 0 ? [] : main.slice(0, branchAt)
    const own = Array.isArray(s.steps) ? s.steps : []
    paths.push({
      name: s.name,
      outcome: s.outcome,
      steps: own.length,
      outputs: outputsOf([...before, ...own], s.outputs),
      thisBuild: scenario === s.name,
    })
  }
  return paths
}

/** The job version a succeeded build wrote, and what it holds. */
function learnedVersion(
  ctx: AppContext,
  build: BuildView,
  job: { draftVersion: number | null; liveVersion: number | null },
): LearnedVersion | null {
  if (build.status !== 'succeeded') return null
  const row = ctx.db
    .select()
    .from(jobVersions)
    .where(and(eq(jobVersions.jobId, build.jobId), eq(jobVersions.buildId, build.id)))
    .get()
  if (!row) return null
  const done = build.progress.findLast((p) => p.stage === 'done')
  const score = (done?.data as { stabilityScore?: unknown } | undefined)?.stabilityScore
  const paths = learnedPaths(row.automation, build.scenario)
  return {
    version: row.version,
    createdAt: row.createdAt,
    isDraft: job.draftVersion === row.version,
    isLive: job.liveVersion === row.version,
    totalSteps: paths.reduce((n, p) => n + p.steps, 0),
    paths,
    stabilityScore: typeof score === 'number' ? score : null,
  }
}

export function buildPageData(ctx: AppContext, id: string): BuildPageData {
  const build = toBuildView(getBuild(ctx, id))
  const job = getJob(ctx, build.jobId)
  const sample = ctx.db
    .select({ input: samples.input })
    .from(samples)
    .where(eq(samples.id, build.sampleId))
    .get()
  let input: Record<string, unknown> | null = null
  let http: unknown = null
  if (sample) {
    const hide = secretMasker(job ? jobSecrets(ctx, job) : NO_JOB_SECRETS, sample.input)
    const masked = hide(sample.input) as Record<string, unknown>
    const { _http, ...body } = masked
    input = body
    http = _http ?? null
  }
  return {
    build,
    job: job ? { id: job.id, method: job.method, path: job.path, mode: job.mode } : null,
    input,
    http,
    learned: job ? learnedVersion(ctx, build, job) : null,
  }
}

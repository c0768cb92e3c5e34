import { and, eq, ne } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { builds, jobSubmittedValues, jobs, samples } from '../../db/schema/index.ts'
import { openSampleInput } from '../secrets/sample-secrets.ts'
import { digestSecretInputs } from '../secrets/secret-digest.ts'

/** The builder's word for "the submit went through" in a build's progress. */
const SUBMITTED = 'The submit led to'

const pressedSubmit = (progress: { stage: string; message: string }[]) =>
  progress.some((p) => p.stage === 'observe' && p.message.startsWith(SUBMITTED))

/**
 * Whether an earlier build of the job already pressed the submit for a sample with these very
 * values (a failed build, then the same sample sent again, even after the first was removed):
 * the app may now hold its record.
 */
export function submittedBefore(
  ctx: AppContext,
  jobId: string,
  buildId: string,
  input: Record<string, unknown>,
): boolean {
  const paths = secretInputsOf(ctx, jobId)
  const key = callerKey(ctx, jobId, input, paths)
  const remembered = ctx.db
    .select({ key: jobSubmittedValues.valuesKey })
    .from(jobSubmittedValues)
    .where(and(eq(jobSubmittedValues.jobId, jobId), eq(jobSubmittedValues.valuesKey, key)))
    .get()
  if (remembered) return true
  return ctx.db
    .select({
      progress: builds.progress,
      id: samples.id,
      jobId: samples.jobId,
      input: samples.input,
      sealedSecretInputs: samples.sealedSecretInputs,
    })
    .from(builds)
    .innerJoin(samples, eq(builds.sampleId, samples.id))
    .where(and(eq(builds.jobId, jobId), ne(builds.id, buildId)))
    .all()
    .some((row) => pressedSubmit(row.progress) && storedKey(ctx, row, paths) === key)
}

/**
 * Called as a sample is removed (inside that transaction): if one of its builds pressed the
 * submit, the job keeps that fact about these values.
 */
export function rememberSubmitted(
  ctx: AppContext,
  tx: Pick<AppContext['db'], 'select' | 'insert'>,
  jobId: string,
  sampleId: string,
  now: string,
): void {
  const sample = tx
    .select({
      id: samples.id,
      jobId: samples.jobId,
      input: samples.input,
      sealedSecretInputs: samples.sealedSecretInputs,
    })
    .from(samples)
    .where(eq(samples.id, sampleId))
    .get()
  if (!sample) return
  const pressed = tx
    .select({ progress: builds.progress })
    .from(builds)
    .where(eq(builds.sampleId, sampleId))
    .all()
    .some((b) => pressedSubmit(b.progress))
  if (!pressed) return
  const paths = tx.select({ p: jobs.secretInputs }).from(jobs).where(eq(jobs.id, jobId)).get()?.p ?? []
  // Values that no longer open are remembered masked: never in clear, at worst never matched.
  const valuesKey = storedKey(ctx, sample, paths) ?? callerKey(ctx, jobId, sample.input, paths)
  tx.insert(jobSubmittedValues).values({ jobId, valuesKey, createdAt: now }).onConflictDoNothing().run()
}

/**
 * Rewrites the job's remembered values with `paths` digested (a member became secret after they
 * were remembered), so they hold no secret and still match the same values sent again.
 */
export function digestSubmittedValues(
  ctx: AppContext,
  tx: Pick<AppContext['db'], 'select' | 'insert' | 'delete'>,
  jobId: string,
  paths: readonly string[],
): number {
  if (paths.length === 0) return 0
  const rows = tx.select().from(jobSubmittedValues).where(eq(jobSubmittedValues.jobId, jobId)).all()
  let changed = 0
  for (const row of rows) {
    let values: Record<string, unknown>
    try {
      values = JSON.parse(row.valuesKey)
    } catch {
      continue
    }
    const valuesKey = canonicalJson(digestSecretInputs(ctx, submittedScope(jobId), values, paths))
    if (valuesKey === row.valuesKey) continue
    tx.delete(jobSubmittedValues)
      .where(and(eq(jobSubmittedValues.jobId, jobId), eq(jobSubmittedValues.valuesKey, row.valuesKey)))
      .run()
    tx.insert(jobSubmittedValues)
      .values({ ...row, valuesKey })
      .onConflictDoNothing()
      .run()
    changed++
  }
  return changed
}

const submittedScope = (jobId: string) => `submitted:${jobId}`

const secretInputsOf = (ctx: AppContext, jobId: string) =>
  ctx.db.select({ p: jobs.secretInputs }).from(jobs).where(eq(jobs.id, jobId)).get()?.p ?? []

/** The values' key with each secret input digested (keyed): no key holds a password. */
function callerKey(
  ctx: AppContext,
  jobId: string,
  input: Record<string, unknown>,
  paths: readonly string[],
): string {
  return callerValues(digestSecretInputs(ctx, submittedScope(jobId), input, paths))
}

/** A stored sample's key, its sealed values opened; null when they do not open (replaced key). */
function storedKey(
  ctx: AppContext,
  sample: Parameters<typeof openSampleInput>[1],
  paths: readonly string[],
): string | null {
  try {
    return callerKey(ctx, sample.jobId, openSampleInput(ctx, sample), paths)
  } catch {
    return null
  }
}

/** The caller's values in a canonical form (keys sorted; transport details left out). */
export function callerValues(input: Record<string, unknown>): string {
  const { _http, ...rest } = input
  const params = (_http as { params?: unknown } | undefined)?.params ?? {}
  return canonicalJson({ ...rest, params })
}

/** Keys sorted at every level, so the same values always give the same text. */
function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sort(x)]),
          )
        : v
  return JSON.stringify(sort(value))
}

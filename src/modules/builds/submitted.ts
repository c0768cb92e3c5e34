import { and, eq, ne } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { builds, jobSubmittedValues, samples } from '../../db/schema/index.ts'

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
  const key = callerValues(input)
  const remembered = ctx.db
    .select({ key: jobSubmittedValues.valuesKey })
    .from(jobSubmittedValues)
    .where(and(eq(jobSubmittedValues.jobId, jobId), eq(jobSubmittedValues.valuesKey, key)))
    .get()
  if (remembered) return true
  return ctx.db
    .select({ progress: builds.progress, input: samples.input })
    .from(builds)
    .innerJoin(samples, eq(builds.sampleId, samples.id))
    .where(and(eq(builds.jobId, jobId), ne(builds.id, buildId)))
    .all()
    .some((row) => callerValues(row.input) === key && pressedSubmit(row.progress))
}

/**
 * Called as a sample is removed (inside that transaction): if one of its builds pressed the
 * submit, the job keeps that fact about these values.
 */
export function rememberSubmitted(
  tx: Pick<AppContext['db'], 'select' | 'insert'>,
  jobId: string,
  sampleId: string,
  now: string,
): void {
  const sample = tx.select({ input: samples.input }).from(samples).where(eq(samples.id, sampleId)).get()
  if (!sample) return
  const pressed = tx
    .select({ progress: builds.progress })
    .from(builds)
    .where(eq(builds.sampleId, sampleId))
    .all()
    .some((b) => pressedSubmit(b.progress))
  if (!pressed) return
  tx.insert(jobSubmittedValues)
    .values({ jobId, valuesKey: callerValues(sample.input), createdAt: now })
    .onConflictDoNothing()
    .run()
}

/** The caller's values in a canonical form (keys sorted; transport details left out). */
export function callerValues(input: Record<string, unknown>): string {
  const { _http, ...rest } = input
  const params = (_http as { params?: unknown } | undefined)?.params ?? {}
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value as Record<string, unknown>)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, sort(v)]),
          )
        : value
  return JSON.stringify(sort({ ...rest, params }))
}

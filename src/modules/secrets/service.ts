import { and, asc, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobSecrets } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { getJobByRoute, requireJob } from '../jobs/service.ts'
import { openSecret, sealSecret } from './cipher.ts'
import { loadSecretsKey } from './key-file.ts'
import { listRouteSecrets, removeRouteSecret, secretRoute, setRouteSecret } from './route-secrets.ts'
import { type ScrubMode, scrubSecrets } from './scrub.ts'

/** Usable as `{{$secrets.NAME}}` in a step template. */
const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/
export const MAX_SECRET_BYTES = 4096

const keys = new WeakMap<AppContext, Buffer>()

/**
 * The data dir's secrets key (cached per context); `create` makes it on first use. Everything
 * this installation seals (job secrets, samples' secret inputs) or keys a digest with uses it.
 */
export function secretsKey(ctx: AppContext, create: boolean): Buffer | null {
  const cached = keys.get(ctx)
  if (cached) return cached
  const key = loadSecretsKey(ctx.config.dataDir, create)
  if (key) keys.set(ctx, key)
  return key
}

export const jobSecretContext = (jobId: string, name: string) => `deskhook.job-secret:${jobId}:${name}`
const context = jobSecretContext

export const isSecretName = (name: string) => NAME.test(name)

export function checkSecretName(name: string): void {
  if (!NAME.test(name))
    throw new AppError(
      'INVALID_REQUEST',
      `A secret name is a letter or _ then letters, digits, _ or - (at most 64), e.g. password; got ${JSON.stringify(name)}`,
      { field: 'name' },
    )
}

/**
 * Stores (or replaces) a job's secret, encrypted. Returns whether it replaced one, and `pending`
 * when no job is on the route yet: the first teaching call there gets it (route-secrets.ts).
 */
export function setJobSecret(ctx: AppContext, method: string, path: string, name: string, value: string) {
  checkSecretName(name)
  if (value.length === 0)
    throw new AppError('INVALID_REQUEST', 'The secret value is empty', { field: 'value' })
  if (Buffer.byteLength(value) > MAX_SECRET_BYTES)
    throw new AppError('INVALID_REQUEST', `The secret value is longer than ${MAX_SECRET_BYTES} bytes`, {
      field: 'value',
    })
  const now = ctx.clock.now().toISOString()
  const route = secretRoute(method, path)
  const job = getJobByRoute(ctx, route.method, route.path)
  if (!job) {
    const key = secretsKey(ctx, true)!
    const replaced = ctx.db.transaction((tx) => setRouteSecret(tx, key, route, name, value, now), {
      behavior: 'immediate',
    })
    return { job: route, pending: true, replaced }
  }
  const sealed = sealSecret(secretsKey(ctx, true)!, value, context(job.id, name))
  const replaced = ctx.db.transaction(
    (tx) => {
      const existing = tx
        .select({ name: jobSecrets.name })
        .from(jobSecrets)
        .where(and(eq(jobSecrets.jobId, job.id), eq(jobSecrets.name, name)))
        .get()
      tx.insert(jobSecrets)
        .values({ jobId: job.id, name, ciphertext: sealed, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [jobSecrets.jobId, jobSecrets.name],
          set: { ciphertext: sealed, updatedAt: now },
        })
        .run()
      return Boolean(existing)
    },
    { behavior: 'immediate' },
  )
  ctx.events.emit('jobs.changed', job.id)
  return { job: { method: job.method, path: job.path }, pending: false, replaced }
}

/** Names and dates only: a value never leaves the store except into a run's memory. */
export function listJobSecrets(ctx: AppContext, method: string, path: string) {
  const route = secretRoute(method, path)
  const job = getJobByRoute(ctx, route.method, route.path)
  if (!job) return { job: route, pending: true, secrets: listRouteSecrets(ctx.db, route) }
  return {
    job: { method: job.method, path: job.path },
    pending: false,
    secrets: ctx.db
      .select({ name: jobSecrets.name, createdAt: jobSecrets.createdAt, updatedAt: jobSecrets.updatedAt })
      .from(jobSecrets)
      .where(eq(jobSecrets.jobId, job.id))
      .orderBy(asc(jobSecrets.name))
      .all(),
  }
}

export function removeJobSecret(ctx: AppContext, method: string, path: string, name: string) {
  const route = secretRoute(method, path)
  const pending = getJobByRoute(ctx, route.method, route.path) === undefined
  if (pending) {
    if (!removeRouteSecret(ctx.db, route, name))
      throw new AppError(
        'SECRET_NOT_FOUND',
        `No job is registered on ${route.method} ${route.path} yet, and no secret named ${JSON.stringify(name)} is kept for it`,
      )
    return { job: route }
  }
  const job = requireJob(ctx, method, path)
  const gone = ctx.db
    .delete(jobSecrets)
    .where(and(eq(jobSecrets.jobId, job.id), eq(jobSecrets.name, name)))
    .returning({ name: jobSecrets.name })
    .get()
  if (!gone)
    throw new AppError(
      'SECRET_NOT_FOUND',
      `${job.method} ${job.path} has no secret named ${JSON.stringify(name)}`,
    )
  ctx.events.emit('jobs.changed', job.id)
  return { job }
}

/** What the builder may be told: the names of a job's secrets (e.g. username, password). */
export function jobSecretNames(ctx: AppContext, jobId: string): string[] {
  return ctx.db
    .select({ name: jobSecrets.name })
    .from(jobSecrets)
    .where(eq(jobSecrets.jobId, jobId))
    .orderBy(asc(jobSecrets.name))
    .all()
    .map((r) => r.name)
}

const cache = new WeakMap<AppContext, Map<string, Readonly<Record<string, string>>>>()

/**
 * A job's secrets in clear, for the moment a run is sent (`$secrets` in its input) and for
 * scrubbing what comes back. Kept in memory per job until the job changes here or another process
 * commits; a job without secrets costs one map lookup per run.
 */
export function jobSecretValues(ctx: AppContext, jobId: string): Readonly<Record<string, string>> {
  let byJob = cache.get(ctx)
  if (!byJob) {
    const fresh = new Map<string, Readonly<Record<string, string>>>()
    byJob = fresh
    cache.set(ctx, fresh)
    ctx.events.on('jobs.changed', (id) => fresh.delete(id))
    ctx.events.on('db.external-change', () => fresh.clear())
  }
  let values = byJob.get(jobId)
  if (!values) {
    const rows = ctx.db.select().from(jobSecrets).where(eq(jobSecrets.jobId, jobId)).all()
    const out: Record<string, string> = {}
    if (rows.length) {
      const key = secretsKey(ctx, false)
      if (!key)
        throw new AppError(
          'INTERNAL',
          'The job has secrets but the data dir has no secrets.key: they cannot be read; set them again',
        )
      for (const r of rows) {
        try {
          out[r.name] = openSecret(key, r.ciphertext, context(jobId, r.name))
        } catch {
          throw new AppError(
            'INTERNAL',
            `The secret "${r.name}" does not decrypt with this data dir's secrets.key (was the key replaced?)`,
          )
        }
      }
    }
    values = Object.freeze(out)
    byJob.set(jobId, values)
  }
  return values
}

/**
 * Masks a job's secret values in anything about to be stored, logged or shown; `exact` for what a
 * run answers and the steps a job keeps (src/lib/scrub-secrets.ts ScrubMode).
 */
export function scrubJobSecrets<T>(
  secrets: Readonly<Record<string, string>>,
  value: T,
  mode: ScrubMode = 'loose',
): T {
  return scrubSecrets(value, Object.values(secrets), mode)
}

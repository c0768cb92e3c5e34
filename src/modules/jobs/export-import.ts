import { and, asc, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobs, jobVersions, samples } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import type { Automation } from '../../protocol/automation.ts'
import { SYSTEM_ACTOR } from '../audit/actor.ts'
import { recordAudit } from '../audit/record.ts'
import { protectSecretInputs } from '../secrets/protect-secret-inputs.ts'
import { mergeSecretInputs, splitSecretInputs } from '../secrets/secret-inputs.ts'
import { maskUrlCredentialsIn } from '../secrets/url-credentials.ts'
import { inputKey, JOB_FILE_FORMAT, JOB_FILE_VERSION, type JobFile, type JobFileSample } from './job-file.ts'
import { checkJobFile } from './job-file-check.ts'
import { transactionWithRoutes } from './routes-cache.ts'
import { getJob, getJobByRoute, insertJobVersion, type Job } from './service.ts'

/**
 * The job as a file. Exports the live version (what callers get today) unless another is asked
 * for, else the newest draft; a job that never had a successful build has nothing to run, so it
 * cannot be exported.
 */
export function exportJob(
  ctx: AppContext,
  method: string,
  path: string,
  opts: { version?: number } = {},
): JobFile {
  const job = getJobByRoute(ctx, method, path)
  if (!job) throw new AppError('JOB_NOT_FOUND', `No job is registered on ${method.toUpperCase()} ${path}`)
  const version = opts.version ?? job.liveVersion ?? job.draftVersion
  if (version === null)
    throw new AppError(
      'NOT_FOUND',
      `${job.method} ${job.path} has no version to export yet: teach it until a build succeeds (or import one)`,
    )
  const row = ctx.db
    .select({ automation: jobVersions.automation })
    .from(jobVersions)
    .where(and(eq(jobVersions.jobId, job.id), eq(jobVersions.version, version)))
    .get()
  if (!row)
    throw new AppError(
      'NOT_FOUND',
      `${job.method} ${job.path} has no version ${version}; its newest is ${job.draftVersion ?? 'none'}`,
    )
  return {
    format: JOB_FILE_FORMAT,
    version: JOB_FILE_VERSION,
    method: job.method,
    path: job.path,
    prompt: job.prompt,
    desktopPool: job.desktopPool ?? null,
    timeoutMs: job.timeoutMs ?? null,
    ...(job.secretInputs.length ? { secretInputs: job.secretInputs } : {}),
    // An app's credentials in addresses (`?key=…`, `&session=…`) stay out of files shared as code:
    // a job that needs one in its address keeps it as a job secret (`{{$secrets.NAME}}`).
    automation: maskUrlCredentialsIn(row.automation as Automation),
    samples: maskUrlCredentialsIn(jobSamples(ctx, job.id, job.secretInputs)),
    exportedAt: ctx.clock.now().toISOString(),
  }
}

/** The job's samples, each secret input's value masked: a job file never carries one. */
function jobSamples(ctx: AppContext, jobId: string, secretInputs: readonly string[]): JobFileSample[] {
  return ctx.db
    .select()
    .from(samples)
    .where(eq(samples.jobId, jobId))
    .orderBy(asc(samples.createdAt), sql`rowid`)
    .all()
    .map((s) => ({
      input: splitSecretInputs(s.input, secretInputs).masked,
      expect: s.expect ?? undefined,
      scenario: s.scenario ?? undefined,
      status: s.status,
    }))
}

export interface ImportResult {
  job: Job
  version: number
  created: boolean
  samplesAdded: number
}

/**
 * Writes a job file into this installation: the job (created in learning, or its prompt, pool and
 * timeout updated), the samples it does not have yet, and the automation as a new version — all
 * in one transaction, so a failed import leaves nothing behind. `live` promotes that version in
 * the same transaction: an imported job serves calls with no build on this installation.
 */
export function importJob(
  ctx: AppContext,
  data: unknown,
  opts: { live?: boolean } = {},
  actor = SYSTEM_ACTOR,
): ImportResult {
  const file = checkJobFile(data)
  const result = transactionWithRoutes(ctx, (tx, addRoute) => {
    const now = ctx.clock.now().toISOString()
    const settings = {
      prompt: file.prompt,
      desktopPool: file.desktopPool ?? null,
      timeoutMs: file.timeoutMs ?? null,
      updatedAt: now,
    }
    const existing = getJobByRoute(ctx, file.method, file.path)
    const jobId = existing?.id ?? newId()
    const secretInputs = mergeSecretInputs(existing?.secretInputs ?? [], file.secretInputs ?? [])
    if (existing) {
      tx.update(jobs)
        .set({ ...settings, secretInputs })
        .where(eq(jobs.id, jobId))
        .run()
    } else {
      tx.insert(jobs)
        .values({
          id: jobId,
          method: file.method,
          path: file.path,
          createdAt: now,
          ...settings,
          secretInputs,
        })
        .run()
      addRoute(file.method, file.path, jobId, "rename the path in the file to that job's path")
    }
    const known = new Set(
      tx
        .select({ input: samples.input })
        .from(samples)
        .where(eq(samples.jobId, jobId))
        .all()
        .map((s) => inputKey(s.input)),
    )
    let samplesAdded = 0
    for (const s of file.samples) {
      // Stored samples hold MASK at secret inputs: a file that has the value is the same sample.
      const key = inputKey(splitSecretInputs(s.input, secretInputs).masked)
      if (known.has(key)) continue
      known.add(key)
      tx.insert(samples)
        .values({
          id: newId(),
          jobId,
          input: s.input,
          expect: s.expect ?? null,
          scenario: s.scenario ?? null,
          status: s.status ?? 'pending',
          createdAt: now,
          updatedAt: now,
        })
        .run()
      samplesAdded++
    }
    // A value the file (or an earlier sample) holds in clear at a secret input is sealed.
    protectSecretInputs(ctx, tx, jobId, secretInputs)
    const version = insertJobVersion(tx, now, jobId, file.automation)
    if (opts.live) tx.update(jobs).set({ mode: 'live', liveVersion: version }).where(eq(jobs.id, jobId)).run()
    const details = { method: file.method, path: file.path, version, created: !existing, live: !!opts.live }
    recordAudit(ctx, { actor, action: 'job.imported', target: { kind: 'job', id: jobId }, details }, tx)
    return { jobId, version, created: !existing, samplesAdded }
  })
  ctx.events.emit('jobs.changed', result.jobId)
  const { jobId, ...rest } = result
  return { job: getJob(ctx, jobId)!, ...rest }
}

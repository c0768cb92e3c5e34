import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobs, samples } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { schemaProblems } from '../../lib/validation.ts'
import { insertBuild } from '../builds/service.ts'
import { isReservedPath, matchPattern, parsePattern } from '../jobs/path-pattern.ts'
import { JOB_METHODS } from '../jobs/router.ts'
import { routerFor, transactionWithRoutes } from '../jobs/routes-cache.ts'
import { getJobByRoute, type Job } from '../jobs/service.ts'
import { protectSecretInputs } from '../secrets/protect-secret-inputs.ts'
import { sealSampleInput } from '../secrets/sample-secrets.ts'
import { mergeSecretInputs } from '../secrets/secret-inputs.ts'
import type { HttpInfo, JobInput } from '../triggers/job-input.ts'
import { ENVELOPE_KEY, EXPECT_TYPES, TeachEnvelope, type TeachResponse } from './model.ts'

export interface TeachRequest {
  method: string
  path: string
  envelope: unknown
  input: JobInput
  http: HttpInfo
}

export interface TeachResult {
  response: TeachResponse
  created: boolean
  job: Job
}

/**
 * A teaching call: creates the job on its first sample (Learning mode), or adds a sample to it,
 * and queues a build for that sample. Job, sample and build are written in one transaction.
 */
export function teach(ctx: AppContext, req: TeachRequest): TeachResult {
  const envelope = validateEnvelope(req.envelope)
  const method = envelope.method ?? req.method.toUpperCase()
  if (!(JOB_METHODS as readonly string[]).includes(method))
    throw new AppError(
      'INVALID_ENVELOPE',
      `Jobs can be registered on ${JOB_METHODS.join(', ')}, not ${method}; set ${ENVELOPE_KEY}.method to teach one of those from this call`,
      { field: `${ENVELOPE_KEY}.method` },
    )
  const { pattern, params } = resolvePattern(ctx, method, req.path, envelope.path)
  const result = transactionWithRoutes(ctx, (tx, addRoute) => {
    const now = ctx.clock.now().toISOString()
    let job = getJobByRoute(ctx, method, pattern)
    const created = !job
    if (!job) {
      if (!envelope.prompt)
        throw new AppError(
          'INVALID_ENVELOPE',
          `${ENVELOPE_KEY}.prompt is required on the first teaching call of ${method} ${pattern}: describe what the job should do`,
          { field: `${ENVELOPE_KEY}.prompt` },
        )
      job = {
        id: newId(),
        method,
        path: pattern,
        mode: 'learning',
        prompt: envelope.prompt,
        stabilityScore: 0,
        liveVersion: null,
        draftVersion: null,
        desktopId: null,
        desktopPool: null,
        timeoutMs: null,
        resettable: envelope.resettable ?? false,
        keptHeaders: (envelope.keepHeaders ?? []).map((h) => h.toLowerCase()),
        secretInputs: envelope.secrets ?? [],
        createdAt: now,
        updatedAt: now,
      }
      tx.insert(jobs).values(job).run()
      addRoute(method, pattern, job.id, "teach that job's path instead")
    } else if (envelope.prompt && envelope.prompt !== job.prompt) {
      // The latest description wins: teaching is how a job's purpose gets refined.
      job = { ...job, prompt: envelope.prompt, updatedAt: now }
      tx.update(jobs).set({ prompt: job.prompt, updatedAt: now }).where(eq(jobs.id, job.id)).run()
    }
    if (!created && envelope.keepHeaders !== undefined) {
      job = { ...job, keptHeaders: envelope.keepHeaders.map((h) => h.toLowerCase()), updatedAt: now }
      tx.update(jobs).set({ keptHeaders: job.keptHeaders, updatedAt: now }).where(eq(jobs.id, job.id)).run()
    }
    if (!created && envelope.secrets?.some((p) => !job!.secretInputs.includes(p))) {
      // Once secret, always secret: a later sample that leaves one out does not unmark it.
      job = { ...job, secretInputs: mergeSecretInputs(job.secretInputs, envelope.secrets), updatedAt: now }
      tx.update(jobs).set({ secretInputs: job.secretInputs, updatedAt: now }).where(eq(jobs.id, job.id)).run()
      protectSecretInputs(ctx, tx, job.id, job.secretInputs)
    }
    if (!created && envelope.resettable !== undefined && envelope.resettable !== job.resettable) {
      job = { ...job, resettable: envelope.resettable, updatedAt: now }
      tx.update(jobs).set({ resettable: job.resettable, updatedAt: now }).where(eq(jobs.id, job.id)).run()
    }
    const sampleId = newId()
    // The builder replays the sample later: its secret inputs are kept, sealed, never in clear.
    const stored = sealSampleInput(
      ctx,
      job.id,
      sampleId,
      { ...req.input, _http: { ...req.http, params } },
      job.secretInputs,
    )
    const sample = {
      id: sampleId,
      jobId: job.id,
      input: stored.input,
      sealedSecretInputs: stored.sealedSecretInputs,
      expect: envelope.expect ?? null,
      prompt: envelope.prompt ?? null,
      scenario: envelope.scenario ?? null,
      status: 'pending' as const,
      createdAt: now,
      updatedAt: now,
    }
    tx.insert(samples).values(sample).run()
    const build = insertBuild(tx, now, {
      jobId: job.id,
      sampleId: sample.id,
      scenario: sample.scenario,
      desktop: envelope.desktop ?? null,
      demonstrate: envelope.demonstrate ?? false,
    })
    const response: TeachResponse = {
      jobId: job.id,
      mode: job.mode,
      buildId: build.id,
      buildPath: `/_builds/${build.id}`,
      sampleId: sample.id,
      stabilityScore: job.stabilityScore,
    }
    return { response, created, job }
  })
  ctx.events.emit('jobs.changed', result.job.id)
  ctx.events.emit('build.queued', result.response.buildId)
  return result
}

function validateEnvelope(raw: unknown): TeachEnvelope {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new AppError(
      'INVALID_ENVELOPE',
      `${ENVELOPE_KEY} must be an object such as {"teach": true, "prompt": "Create a customer and return its id"}`,
      { field: ENVELOPE_KEY },
    )
  const problems = schemaProblems(TeachEnvelope, raw, ENVELOPE_KEY)
  if ((raw as { teach?: unknown }).teach === false)
    problems.unshift(
      `${ENVELOPE_KEY}.teach: must be true for a teaching call; to call the job live, leave out the ${ENVELOPE_KEY} envelope`,
    )
  if (problems.length)
    throw new AppError('INVALID_ENVELOPE', problems.join('; '), {
      field: problems[0]!.split(':')[0],
      problems,
    })
  const envelope = raw as TeachEnvelope
  if (envelope.expect) checkExpect(envelope.expect, `${ENVELOPE_KEY}.expect`)
  return envelope
}

/** `{"$type": "string"}` stands for a value the app generates; anything else is compared exactly. */
function checkExpect(value: unknown, at: string): void {
  if (typeof value !== 'object' || value === null) return
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkExpect(v, `${at}[${i}]`)
    return
  }
  const $type = (value as { $type?: unknown }).$type
  if ($type !== undefined && !(EXPECT_TYPES as readonly unknown[]).includes($type))
    throw new AppError('INVALID_ENVELOPE', `${at}.$type must be one of ${EXPECT_TYPES.join(', ')}`, {
      field: `${at}.$type`,
    })
  for (const [k, v] of Object.entries(value)) if (k !== '$type') checkExpect(v, `${at}.${k}`)
}

/**
 * Which pattern a teaching call teaches: the envelope's `path` (the call's own path must be an
 * instance of it), else the job that already matches the call, else the call's path as written.
 */
function resolvePattern(
  ctx: AppContext,
  method: string,
  requestPath: string,
  declared: string | undefined,
): { pattern: string; params: Record<string, string> } {
  if (declared !== undefined) {
    const { pattern } = parsePattern(declared, `${ENVELOPE_KEY}.path`)
    if (pattern === requestPath || `${pattern}/` === requestPath) return { pattern, params: {} }
    const params = matchPattern(pattern, requestPath)
    if (!params)
      throw new AppError(
        'INVALID_PATH',
        `The call's path ${requestPath} is not an instance of ${ENVELOPE_KEY}.path ${pattern}`,
        { field: `${ENVELOPE_KEY}.path` },
      )
    return { pattern, params }
  }
  // A call made on a literal pattern (`/customers/:id`) teaches that pattern; a concrete path
  // extends the job that already matches it, if any.
  const literal = requestPath.includes('/:')
  const existing = literal ? null : routerFor(ctx).find(method, requestPath)
  if (existing && !isReservedPath(requestPath)) return { pattern: existing.pattern, params: existing.params }
  return { pattern: parsePattern(requestPath, 'path').pattern, params: {} }
}

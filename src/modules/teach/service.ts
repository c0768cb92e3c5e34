import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobAnswers, jobs, samples } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { schemaProblems } from '../../lib/validation.ts'
import { insertBuild } from '../builds/service.ts'
import { JOB_METHODS } from '../jobs/router.ts'
import { transactionWithRoutes } from '../jobs/routes-cache.ts'
import { getJobByRoute, type Job } from '../jobs/service.ts'
import { protectSecretInputs } from '../secrets/protect-secret-inputs.ts'
import { claimRouteSecrets } from '../secrets/route-secrets.ts'
import { sealSampleInput } from '../secrets/sample-secrets.ts'
import { jobSecretContext, secretsKey } from '../secrets/service.ts'
import type { HttpInfo, JobInput } from '../triggers/job-input.ts'
import { splitEnvelopeSecrets } from './envelope-secrets.ts'
import { ENVELOPE_KEY, EXPECT_TYPES, TeachEnvelope, type TeachResponse } from './model.ts'
import { checkRouteOverlap, resolvePattern } from './resolve-route.ts'

export interface TeachRequest {
  method: string
  path: string
  envelope: unknown
  input: JobInput
  http: HttpInfo
  /**
   * Throws when the caller may not teach `method` `path`: called with what this call will teach
   * (the taught method, on the call's path and on the job's pattern) before anything is written.
   */
  authorize?: (method: string, path: string) => void
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
  req.authorize?.(method, req.path)
  const { pattern, params } = resolvePattern(ctx, method, req.path, envelope.path, envelope.prompt)
  if (pattern !== req.path) req.authorize?.(method, pattern)
  const result = transactionWithRoutes(ctx, (tx, addRoute) => {
    const now = ctx.clock.now().toISOString()
    let job = getJobByRoute(ctx, method, pattern)
    const created = !job
    const named = splitEnvelopeSecrets(
      envelope.secrets,
      req.input,
      job ?? { secretInputs: [], neededSecrets: [] },
    )
    if (!job) {
      if (!envelope.prompt)
        throw new AppError(
          'INVALID_ENVELOPE',
          `${ENVELOPE_KEY}.prompt is required on the first teaching call of ${method} ${pattern}: describe what the job should do`,
          { field: `${ENVELOPE_KEY}.prompt` },
        )
      checkRouteOverlap(ctx, method, pattern)
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
        secretInputs: named.secretInputs,
        neededSecrets: named.neededSecrets,
        createdAt: now,
        updatedAt: now,
      }
      tx.insert(jobs).values(job).run()
      addRoute(method, pattern, job.id, "teach that job's path instead")
      // Secrets set for this route before it was taught (`jobs secret set` first) are the job's now.
      claimRouteSecrets(tx, secretsKey(ctx, false), { method, path: pattern }, job.id, jobSecretContext, now)
    } else if (envelope.prompt && envelope.prompt !== job.prompt) {
      // The latest description wins: teaching is how a job's purpose gets refined.
      job = { ...job, prompt: envelope.prompt, updatedAt: now }
      tx.update(jobs).set({ prompt: job.prompt, updatedAt: now }).where(eq(jobs.id, job.id)).run()
    }
    if (!created && envelope.keepHeaders !== undefined) {
      job = { ...job, keptHeaders: envelope.keepHeaders.map((h) => h.toLowerCase()), updatedAt: now }
      tx.update(jobs).set({ keptHeaders: job.keptHeaders, updatedAt: now }).where(eq(jobs.id, job.id)).run()
    }
    if (!created && named.secretInputs.some((p) => !job!.secretInputs.includes(p))) {
      // Once secret, always secret: a later sample that leaves one out does not unmark it.
      job = { ...job, secretInputs: named.secretInputs, updatedAt: now }
      tx.update(jobs).set({ secretInputs: job.secretInputs, updatedAt: now }).where(eq(jobs.id, job.id)).run()
      protectSecretInputs(ctx, tx, job.id, job.secretInputs)
    }
    if (!created && named.neededSecrets.join() !== job.neededSecrets.join()) {
      job = { ...job, neededSecrets: named.neededSecrets, updatedAt: now }
      tx.update(jobs)
        .set({ neededSecrets: job.neededSecrets, updatedAt: now })
        .where(eq(jobs.id, job.id))
        .run()
    }
    // A literal `expect` says what the outputs are: outputs chosen in earlier builds are read again.
    if (!created && envelope.expect && hasLiteral(envelope.expect))
      tx.delete(jobAnswers)
        .where(and(eq(jobAnswers.jobId, job.id), eq(jobAnswers.kind, 'choose_outputs')))
        .run()
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

/** Whether `expect` holds a literal value anywhere (not only `{"$type": …}` placeholders). */
function hasLiteral(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0 || value.some(hasLiteral)
  if (value !== null && typeof value === 'object') {
    if ('$type' in value) return false
    return Object.values(value).some(hasLiteral)
  }
  return true
}

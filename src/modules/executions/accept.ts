import { createHash } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import type { GroupCommitter } from '../../db/group-commit.ts'
import { preparedFor } from '../../db/prepared.ts'
import { executions } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import type { Job } from '../jobs/service.ts'
import type { ExecutionRow } from './model.ts'

/** Stripe's window: a retried call with the same key within a day gets the same execution. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

export interface AcceptRequest {
  job: Job
  method: string
  path: string
  input: Record<string, unknown>
  apiKeyId: string | null
  callbackUrl: string | null
  idempotencyKey: string | null
  requestId: string
  baseUrl: string
}

export function checkIdempotencyKey(raw: string | null): string | null {
  if (raw === null) return null
  if (!IDEMPOTENCY_KEY.test(raw))
    throw new AppError('INVALID_REQUEST', 'Idempotency-Key must be 1–255 visible ASCII characters')
  return raw
}

/** Method, path and input (without request headers, which differ between retries). */
function fingerprint(req: AcceptRequest): string {
  const { _http, ...body } = req.input
  return createHash('sha256')
    .update(`${req.method} ${req.path}\n${JSON.stringify(body)}`)
    .digest('base64url')
}

const insertExecution = preparedFor((db) =>
  db
    .insert(executions)
    .values({
      id: sql.placeholder('id'),
      jobId: sql.placeholder('jobId'),
      jobVersion: sql.placeholder('jobVersion'),
      apiKeyId: sql.placeholder('apiKeyId'),
      input: sql.placeholder('input'),
      callbackUrl: sql.placeholder('callbackUrl'),
      timeoutMs: sql.placeholder('timeoutMs'),
      requestId: sql.placeholder('requestId'),
      baseUrl: sql.placeholder('baseUrl'),
      idempotencyKey: sql.placeholder('idempotencyKey'),
      idempotencyFingerprint: sql.placeholder('idempotencyFingerprint'),
      queuedAt: sql.placeholder('queuedAt'),
    })
    .returning()
    .prepare(),
)

/**
 * Records an accepted live call as a queued execution and resolves once it is durable (group
 * commit), so the caller's 202 (or held connection) never refers to a row that could be lost.
 * With an Idempotency-Key already used by this API key in the last 24 h, resolves with that
 * execution instead (`reused`), or fails with 422 when the call is not the same.
 */
export function acceptExecution(
  ctx: AppContext,
  committer: GroupCommitter,
  req: AcceptRequest,
): Promise<{ execution: ExecutionRow; reused: boolean }> {
  const version = req.job.liveVersion
  if (version === null)
    throw new AppError('JOB_NOT_LIVE', `${req.job.method} ${req.job.path} has no live version`)
  const fp = req.idempotencyKey ? fingerprint(req) : null
  return committer.run(() => {
    const now = ctx.clock.now()
    if (req.idempotencyKey) {
      const prev = ctx.db
        .select()
        .from(executions)
        .where(
          and(eq(executions.apiKeyId, req.apiKeyId ?? ''), eq(executions.idempotencyKey, req.idempotencyKey)),
        )
        .get()
      if (prev && now.getTime() - Date.parse(prev.queuedAt) < IDEMPOTENCY_TTL_MS) {
        if (prev.idempotencyFingerprint !== fp)
          throw new AppError(
            'IDEMPOTENCY_KEY_REUSED',
            'This Idempotency-Key was already used with a different call (method, path or input) in the last 24 hours',
            { jobExecutionId: prev.id },
          )
        return { execution: prev, reused: true }
      }
      // Expired: the key may start a new execution; the old one keeps its record, not the key.
      if (prev)
        ctx.db.update(executions).set({ idempotencyKey: null }).where(eq(executions.seq, prev.seq)).run()
    }
    const execution = insertExecution(ctx.db).get({
      id: newId(),
      jobId: req.job.id,
      jobVersion: version,
      apiKeyId: req.apiKeyId,
      input: req.input,
      callbackUrl: req.callbackUrl,
      timeoutMs: req.job.timeoutMs ?? ctx.config.runTimeoutMs,
      requestId: req.requestId,
      baseUrl: req.baseUrl,
      idempotencyKey: req.idempotencyKey,
      idempotencyFingerprint: fp,
      queuedAt: now.toISOString(),
    })!
    return { execution, reused: false }
  })
}

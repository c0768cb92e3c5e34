import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import stableStringify from 'safe-stable-stringify'
import type { AppContext } from '../../context.ts'
import { preparedFor } from '../../db/prepared.ts'
import { executions } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { normalisePath } from '../jobs/path-pattern.ts'
import type { Job } from '../jobs/service.ts'
import { callSecretPaths } from '../secrets/kept-headers.ts'
import { digestSecretInputs } from '../secrets/secret-digest.ts'
import { holdSecretInputs, splitSecretInputs } from '../secrets/secret-inputs.ts'
import type { ExecutionRow } from './model.ts'
import { claimInserted } from './service.ts'

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
  /**
   * An idle desktop the scheduler set aside for this call: the execution is written already
   * claimed (running, with its execution_started event), saving the claim its own commit.
   */
  claim?: { desktopId: string; lease: string } | null
}

export function checkIdempotencyKey(raw: string | null): string | null {
  if (raw === null) return null
  if (!IDEMPOTENCY_KEY.test(raw))
    throw new AppError('INVALID_REQUEST', 'Idempotency-Key must be 1–255 visible ASCII characters')
  return raw
}

/**
 * Method, path and input (without request headers, which differ between retries), each in one
 * canonical form: the path as jobs have it (`/orders/` is `/orders`), the input with its keys
 * sorted, so the same JSON with keys in another order is the same call. A secret input enters
 * only as its keyed digest: the stored fingerprint is no plain hash a password could be guessed
 * from, and another password is still another call.
 */
function fingerprint(ctx: AppContext, req: AcceptRequest): string {
  const input = digestSecretInputs(ctx, `idempotency:${req.job.id}`, req.input, req.job.secretInputs ?? [])
  const { _http, ...body } = input
  return createHash('sha256')
    .update(`${req.method.toUpperCase()} ${normalisePath(req.path)}\n${stableStringify(body)}`)
    .digest('base64url')
}

/**
 * The hot insert, as one raw prepared statement: drizzle's mapping of a RETURNING row costs more
 * than the insert itself at thousands of calls a second, and every value is known here anyway
 * (only `seq` comes from SQLite).
 */
const insertExecution = preparedFor((db) =>
  db.$client.prepare<
    unknown,
    [
      string,
      string,
      number,
      string | null,
      string,
      string | null,
      number,
      string,
      string,
      string | null,
      string | null,
      string,
    ]
  >(
    `INSERT INTO executions (id, job_id, job_version, api_key_id, input, callback_url, timeout_ms, request_id,
       base_url, idempotency_key, idempotency_fingerprint, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
)

/**
 * Records an accepted live call as a queued execution and resolves once it is durable (group
 * commit), so the caller's 202 (or held connection) never refers to a row that could be lost.
 * With an Idempotency-Key already used by this API key in the last 24 h, resolves with that
 * execution instead (`reused`), or fails with 422 when the call is not the same.
 */
export function acceptExecution(
  ctx: AppContext,
  req: AcceptRequest,
): Promise<{ execution: ExecutionRow; reused: boolean }> {
  const version = req.job.liveVersion
  if (version === null)
    throw new AppError('JOB_NOT_LIVE', `${req.job.method} ${req.job.path} has no live version`)
  const fp = req.idempotencyKey ? fingerprint(ctx, req) : null
  return ctx.writes.run(
    () => {
      const now = ctx.clock.now()
      if (req.idempotencyKey) {
        const prev = ctx.db
          .select()
          .from(executions)
          .where(
            and(
              eq(executions.apiKeyId, req.apiKeyId ?? ''),
              eq(executions.idempotencyKey, req.idempotencyKey),
            ),
          )
          .get()
        if (prev && now.getTime() - Date.parse(prev.queuedAt) < IDEMPOTENCY_TTL_MS) {
          if (prev.idempotencyFingerprint !== fp)
            throw new AppError(
              'IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was already used with a different call (method, path or input) in the last 24 hours',
              { jobExecutionId: prev.id },
            )
          // The first call's callback keeps receiving the events; a retry naming another one would
          // silently never hear back.
          if ((prev.callbackUrl ?? null) !== (req.callbackUrl ?? null))
            throw new AppError(
              'IDEMPOTENCY_KEY_REUSED',
              `This Idempotency-Key was already used in the last 24 hours with ${prev.callbackUrl ? `callback_url ${prev.callbackUrl}` : 'no callback_url'}; a retry must send the same one`,
              { jobExecutionId: prev.id, field: 'callback_url' },
            )
          return { execution: prev, reused: true }
        }
        // Expired: the key may start a new execution; the old one keeps its record, not the key.
        if (prev)
          ctx.db.update(executions).set({ idempotencyKey: null }).where(eq(executions.seq, prev.seq)).run()
      }
      // Secret inputs and kept headers are stored masked; their values wait in memory for the run
      // (never on disk), each call's its own.
      const { masked, values } = splitSecretInputs(req.input, callSecretPaths(req.job))
      const execution: ExecutionRow = {
        seq: 0,
        id: newId(),
        jobId: req.job.id,
        jobVersion: version,
        apiKeyId: req.apiKeyId,
        status: req.claim ? 'running' : 'queued',
        priority: 0,
        input: masked,
        callbackUrl: req.callbackUrl,
        desktopId: req.claim?.desktopId ?? null,
        lease: req.claim?.lease ?? null,
        timeoutMs: req.job.timeoutMs ?? ctx.config.runTimeoutMs,
        result: null,
        httpStatus: null,
        scenario: null,
        error: null,
        requestId: req.requestId,
        baseUrl: req.baseUrl,
        idempotencyKey: req.idempotencyKey,
        idempotencyFingerprint: fp,
        queuedAt: now.toISOString(),
        startedAt: req.claim ? now.toISOString() : null,
        finishedAt: null,
      }
      const { lastInsertRowid } = insertExecution(ctx.db).run(
        execution.id,
        execution.jobId,
        execution.jobVersion,
        execution.apiKeyId,
        JSON.stringify(execution.input),
        execution.callbackUrl,
        execution.timeoutMs,
        execution.requestId,
        execution.baseUrl,
        execution.idempotencyKey,
        execution.idempotencyFingerprint,
        execution.queuedAt,
      )
      execution.seq = Number(lastInsertRowid)
      holdSecretInputs(ctx, execution.id, values)
      if (req.claim) claimInserted(ctx, execution)
      return { execution, reused: false }
    },
    // Without an Idempotency-Key or a claim the write is the lone INSERT: atomic, no savepoint.
    { singleStatement: !req.idempotencyKey && !req.claim },
  )
}

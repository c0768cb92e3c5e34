import type { Server } from 'bun'
import type { AppContext } from '../../context.ts'
import type { Runtime } from '../../runtime/index.ts'
import { acceptExecution, checkIdempotencyKey } from '../executions/accept.ts'
import type { ExecutionRow } from '../executions/model.ts'
import { getExecution, isTerminal } from '../executions/service.ts'
import type { Job } from '../jobs/service.ts'
import { validateCallbackUrl } from '../webhooks/callback-url.ts'
import type { JobInput } from './job-input.ts'

export interface LiveCall {
  request: Request
  server: Server<unknown> | null
  job: Job
  method: string
  path: string
  input: JobInput
  apiKeyId: string | null
  requestId: string
  baseUrl: string
  query: URLSearchParams
}

export interface LiveAnswer {
  status: number
  body: unknown
  headers: Record<string, string>
}

/** `respond-async` and `wait=N` from an RFC 7240 Prefer header. */
function preferences(header: string | null): { async: boolean; waitMs?: number } {
  if (!header) return { async: false }
  const prefs = header.split(',').map((p) => p.trim().toLowerCase())
  const wait = prefs.map((p) => /^wait=(\d+)$/.exec(p)?.[1]).find(Boolean)
  return { async: prefs.includes('respond-async'), waitMs: wait ? Number(wait) * 1000 : undefined }
}

const acknowledgement = (row: ExecutionRow, status = 'queued'): LiveAnswer => ({
  status: 202,
  body: { jobExecutionId: row.id, status, resultPath: `/_executions/${row.id}` },
  headers: { location: `/_executions/${row.id}` },
})

/**
 * A call to a live job: the execution is written (durably) before anything is answered. Async
 * calls get the acknowledgement at once; sync calls are held until the run ends, or get the
 * acknowledgement when the sync wait runs out, never a cut connection.
 */
export async function liveCall(ctx: AppContext, runtime: Runtime, call: LiveCall): Promise<LiveAnswer> {
  const rawCallback = call.query.get('callback_url')
  const callbackUrl = rawCallback === null ? null : (await validateCallbackUrl(ctx, rawCallback)).toString()
  const idempotencyKey = checkIdempotencyKey(call.request.headers.get('idempotency-key'))
  const prefer = preferences(call.request.headers.get('prefer'))
  const asyncParam = call.query.get('async')
  const isAsync =
    asyncParam === '1' ||
    asyncParam === 'true' ||
    call.request.headers.get('x-job-async')?.toLowerCase() === 'true' ||
    prefer.async

  const claim = runtime.scheduler.claimForCall(call.job)
  let accepted: Awaited<ReturnType<typeof acceptExecution>>
  try {
    accepted = await acceptExecution(ctx, {
      job: call.job,
      method: call.method,
      path: call.path,
      input: call.input,
      apiKeyId: call.apiKeyId,
      callbackUrl,
      idempotencyKey,
      requestId: call.requestId,
      baseUrl: call.baseUrl,
      claim,
    })
  } catch (err) {
    if (claim) runtime.scheduler.releaseClaim(claim.desktopId)
    throw err
  }
  const { execution, reused } = accepted
  if (reused) {
    if (claim) runtime.scheduler.releaseClaim(claim.desktopId)
  } else if (claim) runtime.scheduler.dispatchClaimed(execution)
  else runtime.scheduler.enqueued(execution)
  const replayed: Record<string, string> = reused ? { 'idempotent-replayed': 'true' } : {}
  if (isAsync) {
    const ack = acknowledgement(execution, reused ? execution.status : 'queued')
    return { ...ack, headers: { ...ack.headers, ...replayed } }
  }

  const waitMs = Math.min(prefer.waitMs ?? ctx.config.syncWaitMs, ctx.config.syncWaitMs)
  if (!isTerminal(execution)) {
    // Bun's idle timeout would cut a connection held longer than ~10 s: lift it for this one.
    call.server?.timeout(call.request, 0)
    await runtime.waiters.wait(execution.id, waitMs)
  }
  const row = getExecution(ctx, execution.id)
  if (!isTerminal(row)) {
    const ack = acknowledgement(row, row.status)
    return {
      ...ack,
      headers: { ...ack.headers, ...replayed, 'preference-applied': `wait=${Math.round(waitMs / 1000)}` },
    }
  }
  return {
    status: row.httpStatus ?? 502,
    body: row.result,
    headers: { 'x-job-execution-id': row.id, ...replayed },
  }
}

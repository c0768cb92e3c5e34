import type { AppContext } from '../../context.ts'
import { metricsOf } from './service.ts'

/** The job a request called, set by the trigger route once it matched one. */
const calledJob = new WeakMap<Request, { method: string; path: string }>()

/** Marks the request as a call to this job (counted with its status once answered). */
export function noteJobCall(request: Request, job: { method: string; path: string }): void {
  calledJob.set(request, job)
}

/** After the response: one count per job call, labelled with the job's pattern, not the raw path. */
export function countJobCall(ctx: AppContext, request: Request, status: unknown): void {
  const job = calledJob.get(request)
  if (!job) return
  const code = typeof status === 'number' ? status : Number(status ?? 200) || 200
  metricsOf(ctx).jobCalls.inc([job.method, job.path, String(code)])
}

import type { AppContext } from '../../context.ts'
import { isCredentialHeader } from '../../lib/credential-headers.ts'
import type { Job } from '../jobs/service.ts'
import { jobSecretValues, setJobSecret } from './service.ts'

/**
 * A credential header the job opts in (`deskhook.keepHeaders`) is never stored with the call: its
 * value becomes the job secret of the same name (encrypted at rest, scrubbed from replays), written
 * only when it changed, so steps can use `{{$secrets.x-tenant-token}}`. Other kept headers are in
 * `_http.headers` anyway.
 */
export function keepHeaderSecrets(ctx: AppContext, job: Job, request: Request): void {
  if (job.keptHeaders.length === 0) return
  const wanted = job.keptHeaders.filter((name) => isCredentialHeader(name) && request.headers.has(name))
  if (wanted.length === 0) return
  const current = jobSecretValues(ctx, job.id)
  for (const name of wanted) {
    const value = request.headers.get(name)!
    if (value !== '' && current[name] !== value) setJobSecret(ctx, job.method, job.path, name, value)
  }
}

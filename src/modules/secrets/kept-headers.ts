import type { AppContext } from '../../context.ts'
import { isCredentialHeader } from '../../lib/credential-headers.ts'
import type { Job } from '../jobs/service.ts'
import type { SecretInputValues } from './secret-inputs.ts'
import { jobSecretValues, setJobSecret } from './service.ts'

/**
 * Credential headers a job opts in (`deskhook.keepHeaders`). A live call's value belongs to that
 * call alone: it joins the call's `_http.headers` as a secret input of the call
 * (`_http.headers.<name>`), so it is stored masked, held in this process's memory until the run is
 * sent (secret-inputs.ts), masked in everything the run reports, and given to the run as
 * `{{$secrets.<name>}}`. Two queued calls with different tokens each run with their own; a call
 * accepted before a restart ends `SECRET_INPUT_LOST` rather than run with another caller's token.
 * Other kept headers are in `_http.headers` anyway.
 */
type KeptHeaders = Pick<Job, 'keptHeaders'>

const keptCredentialHeaders = (job: KeptHeaders) => job.keptHeaders.filter((name) => isCredentialHeader(name))

/** Where a kept header's value stands in a call's input. */
export const keptHeaderPath = (name: string) => `_http.headers.${name}`

/** The paths of a call's input that are the caller's secrets: its secret inputs and kept headers. */
export function callSecretPaths(job: KeptHeaders & Pick<Job, 'secretInputs'>): string[] {
  const kept = keptCredentialHeaders(job).map(keptHeaderPath)
  const inputs = job.secretInputs ?? []
  return kept.length ? [...inputs, ...kept] : inputs
}

/** The call's values of the job's kept credential headers, for its `_http.headers`. */
export function keptHeaderValues(job: KeptHeaders, request: Request): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of keptCredentialHeaders(job)) {
    const value = request.headers.get(name)
    if (value) out[name] = value
  }
  return out
}

/**
 * The `$secrets` a call's run gets: the job's secrets, where each kept header's name is the
 * call's own value (from its held secret inputs), or absent when the call did not send it; never
 * a value another call (or a teaching call) left in the job's secrets.
 */
export function withCallHeaders(
  secrets: Readonly<Record<string, string>>,
  job: KeptHeaders | undefined,
  held: SecretInputValues | undefined,
): Readonly<Record<string, string>> {
  const names = job ? keptCredentialHeaders(job) : []
  if (names.length === 0) return secrets
  const out: Record<string, string> = { ...secrets }
  for (const name of names) {
    const value = held?.[keptHeaderPath(name)]
    if (typeof value === 'string') out[name] = value
    else delete out[name]
  }
  return out
}

/**
 * A teaching call's kept header becomes the job secret of the same name (encrypted at rest,
 * scrubbed from replays), written only when it changed: the builder signs in with it while it
 * builds. Live calls never read it for a kept header (withCallHeaders).
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

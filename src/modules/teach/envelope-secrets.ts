import { mergeSecretInputs } from '../secrets/secret-inputs.ts'
import { isSecretName } from '../secrets/service.ts'

/**
 * What a teaching call's `secrets` names: a member this call carries (or one the job already
 * keeps as a secret input) is a secret input, masked wherever it is kept; a name the call does not
 * carry (`username`, `password` on a job whose caller sends neither) is a job secret the job signs
 * in with, set with `jobs secret set`, and the job's builds wait for it. A sample that leaves out
 * a secret input (a "missing password" scenario) thus never turns it into a job secret.
 */
export function splitEnvelopeSecrets(
  named: readonly string[] | undefined,
  input: Record<string, unknown>,
  job: { secretInputs: readonly string[]; neededSecrets: readonly string[] },
): { secretInputs: string[]; neededSecrets: string[] } {
  const carried = (path: string) => valueAt(input, path) !== undefined
  const asJobSecret = (named ?? []).filter(
    (n) => isSecretName(n) && !carried(n) && !job.secretInputs.includes(n),
  )
  const asInput = (named ?? []).filter((n) => !asJobSecret.includes(n))
  const neededSecrets = [...new Set([...job.neededSecrets, ...asJobSecret])].filter(
    (n) => !asInput.includes(n),
  )
  return { secretInputs: mergeSecretInputs([...job.secretInputs], asInput), neededSecrets }
}

function valueAt(input: Record<string, unknown>, path: string): unknown {
  let at: unknown = input
  for (const k of path.split('.'))
    at = at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[k] : undefined
  return at
}

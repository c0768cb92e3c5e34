import type { AppContext } from '../../context.ts'
import { isCredentialHeader } from '../../lib/credential-headers.ts'
import { MASK, scrubSecrets } from '../../modules/secrets/scrub.ts'
import { jobSecretNames, jobSecretValues } from '../../modules/secrets/service.ts'

/**
 * The one rule for what the dashboard hides. A member whose name holds a credential has its whole
 * value masked: a job secret or kept header of the job, or a name whose words say so (`password`,
 * `apiKey`, `client_secret`, `x-auth-token`, `pin`). A secret value is replaced wherever it occurs
 * (in other members, step results, errors): the job's secret values, and what the caller sent
 * under a credential name (a typed password shows up in the step that typed it).
 */

/** Names that hold a credential beyond the header rule's words (a PIN is no header). */
const EXTRA_SECRET_WORDS = /(^|-)(pwd|pin|passcode|otp)(-|$)/

/** `apiKey`, `api_key`, `API KEY` → `api-key`: the header rule's dash-separated words. */
const words = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_\s.]+/g, '-')
    .toLowerCase()

/** A member name that holds a credential: one of `named` (any case), or by its words. */
export function secretKeyTest(named: Iterable<string>): (key: string) => boolean {
  const set = new Set([...named].map((n) => n.toLowerCase()))
  return (key) => {
    if (set.has(key.toLowerCase())) return true
    const w = words(key)
    return isCredentialHeader(w) || EXTRA_SECRET_WORDS.test(w)
  }
}

/** What a job's pages hide: which member names, and which values wherever they occur. */
export interface Secrets {
  /** The job's secret names (pages list them; their values never show). */
  names: readonly string[]
  isSecret: (key: string) => boolean
  values: readonly string[]
}

/**
 * A job's secrets: its secret names and kept headers, and its secret values. Values that cannot
 * be read (a replaced secrets.key) leave names and the caller's values to mask: the page still
 * shows, and says so in the log.
 */
export function jobSecrets(
  ctx: AppContext,
  job: { id: string; keptHeaders: readonly string[]; secretInputs?: readonly string[] },
): Secrets {
  let values: string[] = []
  try {
    values = Object.values(jobSecretValues(ctx, job.id))
  } catch (err) {
    ctx.log.warn(
      { err, jobId: job.id },
      'job secrets unreadable; masking by member names and sent values only',
    )
  }
  const names = jobSecretNames(ctx, job.id)
  // A secret input (`login.pin`) is masked by its member name wherever it shows.
  const inputNames = (job.secretInputs ?? []).map((p) => p.split('.').pop()!)
  return { names, isSecret: secretKeyTest([...names, ...job.keptHeaders, ...inputNames]), values }
}

/** No job (deleted): only what names and the caller's values say. */
export const NO_JOB_SECRETS: Secrets = { names: [], isSecret: secretKeyTest([]), values: [] }

function visit(value: unknown, each: (key: string, v: unknown) => void): void {
  if (Array.isArray(value)) for (const v of value) visit(v, each)
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      each(k, v)
      visit(v, each)
    }
}

/** The strings and numbers a caller sent under credential names, anywhere in `input`. */
function sentSecretValues(input: unknown, isSecret: (key: string) => boolean): string[] {
  const out: string[] = []
  visit(input, (k, v) => {
    if (!isSecret(k)) return
    visit({ v }, (_, inner) => {
      if (typeof inner === 'string' || typeof inner === 'number') out.push(String(inner))
    })
  })
  return out
}

function maskByName(value: unknown, isSecret: (key: string) => boolean, mask: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => maskByName(v, isSecret, mask))
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, isSecret(k) ? mask : maskByName(v, isSecret, mask)]),
    )
  return value
}

function maskWhole(value: unknown, whole: ReadonlySet<string>, mask: unknown): unknown {
  if (typeof value === 'string') return whole.has(value) ? mask : value
  if (Array.isArray(value)) return value.map((v) => maskWhole(v, whole, mask))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskWhole(v, whole, mask)]))
  return value
}

/**
 * What hides `secrets`, and the values `input` (the call's input) sent under credential names,
 * in anything shown with that call. `mask` is what a masked member (or a whole masked value)
 * shows: `''` for a form a person fills in again.
 */
export function secretMasker(
  secrets: Secrets,
  input: unknown = undefined,
  mask: unknown = MASK,
): (value: unknown) => unknown {
  const values = [...secrets.values, ...sentSecretValues(input, secrets.isSecret)]
  // A value of one or two characters would mangle every word it occurs in (and tells nothing
  // there): such a value is masked only where it is the whole string.
  const anywhere = values.filter((v) => v.length >= 3)
  const whole = new Set(values.filter((v) => v.length > 0 && v.length < 3))
  return (value) => {
    const named = maskByName(value, secrets.isSecret, mask)
    const scrubbed = scrubSecrets(named, anywhere)
    return whole.size ? maskWhole(scrubbed, whole, mask) : scrubbed
  }
}

import { MIN_FORM_LENGTH, secretForms } from './secret-forms.ts'

/** What a secret's value becomes wherever it would otherwise be stored, logged or shown. */
export const MASK = '•••'

/**
 * How widely a secret is matched. `loose` (the default: what is stored, logged, shown or
 * answered): each value exactly and in its common encodings (Base64, Base64url, URL encoding,
 * hex: secret-forms.ts) when long enough not to match by chance, and in any letter case when it
 * also looks like a secret rather than a word (a digit or a symbol in it, or 12 characters and
 * more): a user named "office" must not mask the app's own "Office Webmail" in an answer.
 * `exact` (the steps a job keeps, whose conditions must match the screen): values and their
 * encodings as written, never another letter case.
 */
export type ScrubMode = 'loose' | 'exact'

/** A value whose other letter cases are masked too: not a plain word (see ScrubMode). */
const caselessSecret = (s: string) => s.length >= MIN_FORM_LENGTH && (/[^\p{L}\s]/u.test(s) || s.length >= 12)

/**
 * Replaces every occurrence of the values in every string of `value` (object keys too), deeply,
 * as `mode` says. Returns the same object when nothing matched, so the common case allocates
 * nothing.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[], mode: ScrubMode = 'loose'): T {
  const matcher = maskMatcher(secrets, mode)
  if (!matcher) return value
  return scrub(value, matcher) as T
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Longest first in each alternation, so a value that contains another is replaced whole. */
const alternation = (needles: Iterable<string>) =>
  [...new Set(needles)]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|')

type Matcher = (text: string) => string

/** The same list of secrets is scrubbed with again and again (every step of a run): compiled once. */
const matchers = new Map<string, Matcher | null>()
const MAX_MATCHERS = 256

function maskMatcher(secrets: readonly string[], mode: ScrubMode): Matcher | null {
  const cacheKey = `${mode}:${JSON.stringify(secrets)}`
  const cached = matchers.get(cacheKey)
  if (cached !== undefined) return cached
  const values = secrets.filter((s) => s.length > 0)
  const caseless = (s: string) => mode === 'loose' && caselessSecret(s)
  const exact = values.filter((s) => !caseless(s))
  const loose = values.filter((s) => caseless(s))
  for (const s of values) (caseless(s) ? loose : exact).push(...secretForms(s))
  const regexes: RegExp[] = []
  // Case-insensitive first: the longer forms go before a short exact value could cut into them.
  if (loose.length) regexes.push(new RegExp(alternation(loose), 'giu'))
  if (exact.length) regexes.push(new RegExp(alternation(exact), 'gu'))
  const matcher: Matcher | null = regexes.length
    ? (text) => regexes.reduce((out, re) => out.replace(re, MASK), text)
    : null
  if (matchers.size >= MAX_MATCHERS) matchers.delete(matchers.keys().next().value!)
  matchers.set(cacheKey, matcher)
  return matcher
}

/**
 * For automations: a value the builder copied from the screen (a "Signed in as ada" it waits
 * for) becomes `{{$secrets.NAME}}`, which renders back to the value at run time, so the stored
 * automation holds no value and still works.
 */
export function templateSecrets<T>(value: T, secrets: Readonly<Record<string, string>>): T {
  return replaceSecrets(
    value,
    Object.entries(secrets).map(([name, v]) => [v, `{{$secrets.${name}}}`]),
  )
}

type Needle = readonly [find: string, replaceWith: string]

function replaceSecrets<T>(value: T, pairs: Needle[]): T {
  // Longest first, so a value that contains another is replaced whole.
  const needles = pairs.filter(([find]) => find.length > 0).sort((a, b) => b[0].length - a[0].length)
  if (needles.length === 0) return value
  return scrub(value, (text) => scrubText(text, needles)) as T
}

function scrubText(text: string, needles: Needle[]): string {
  let out = text
  for (const [find, replaceWith] of needles) if (out.includes(find)) out = out.split(find).join(replaceWith)
  return out
}

function scrub(value: unknown, scrubText: Matcher): unknown {
  if (typeof value === 'string') return scrubText(value)
  if (Array.isArray(value)) {
    let changed = false
    const out = value.map((v) => {
      const s = scrub(v, scrubText)
      if (s !== v) changed = true
      return s
    })
    return changed ? out : value
  }
  if (value !== null && typeof value === 'object') {
    let changed = false
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const key = scrubText(k)
      const s = scrub(v, scrubText)
      if (s !== v || key !== k) changed = true
      out[key] = s
    }
    return changed ? out : value
  }
  return value
}

/**
 * The secret texts inside a run's input as the agent receives it: the job's secrets (`$secrets`)
 * and the caller's secret inputs (`$secretInputs` lists their paths). Texts of one or two
 * characters would mangle every word they occur in and are left out.
 */
export function runInputSecretTexts(input: Record<string, unknown>): string[] {
  const out: string[] = []
  const add = (v: unknown) => {
    if (typeof v === 'string' || typeof v === 'number') {
      if (String(v).length >= 3) out.push(String(v))
    } else if (Array.isArray(v)) v.forEach(add)
    else if (v && typeof v === 'object') Object.values(v).forEach(add)
  }
  add(input.$secrets)
  const paths = Array.isArray(input.$secretInputs) ? input.$secretInputs : []
  for (const path of paths) {
    if (typeof path !== 'string') continue
    let at: unknown = input
    for (const k of path.split('.'))
      at = at && typeof at === 'object' ? (at as Record<string, unknown>)[k] : undefined
    add(at)
  }
  return out
}

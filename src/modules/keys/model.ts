import { AppError } from '../../lib/errors.ts'
import { isReservedPath, normalisePath } from '../jobs/path-pattern.ts'

/** What a key may do: run live jobs, teach (and answer and record), read executions and builds. */
export const SCOPES = ['call', 'teach', 'read'] as const
export type Scope = (typeof SCOPES)[number]

/** `POST /customers/*`: an optional method and a path whose `*` and `:name` segments match any one. */
export interface JobPattern {
  method: string | null
  segments: string[]
  /** The pattern as the admin wrote it (normalised), for lists and error messages. */
  text: string
}

/** The limits one key carries; null means "not limited" (the default, so old keys keep working). */
export interface KeyLimits {
  scopes: Scope[] | null
  jobs: string[] | null
  ratePerSecond: number | null
  burst: number | null
  expiresAt: string | null
}

/** Who the request's key is and what it may do: what the key gate hands to the request. */
export interface KeyGrant {
  id: string
  name: string
  scopes: readonly Scope[] | null
  jobs: readonly JobPattern[] | null
}

/** What a request needs from its key; `scopes` is any-of, `job` says the key's job patterns apply. */
export interface KeyAccess {
  method: string
  path: string
  scopes: readonly Scope[]
  job: boolean
  /**
   * Match the job patterns on the path alone: the gate's look at a job trigger, whose method is
   * known only once the body is read (a teaching call may teach another method, `deskhook.method`);
   * the trigger handler then checks the method the call will run or teach.
   */
  anyMethod?: boolean
}

const invalid = (message: string) => new AppError('INVALID_REQUEST', message)

export function parseScopes(raw: string | readonly string[]): Scope[] {
  const list = (typeof raw === 'string' ? raw.split(',') : raw)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
  if (list.length === 0) throw invalid(`Name at least one scope: ${SCOPES.join(', ')}`)
  const unknown = list.filter((s) => !(SCOPES as readonly string[]).includes(s))
  if (unknown.length)
    throw invalid(`Unknown scope ${unknown.join(', ')}: the scopes are ${SCOPES.join(', ')}`)
  return SCOPES.filter((s) => list.includes(s))
}

const METHOD = /^[A-Z]+$/
const SEGMENT = /^(\*|:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9\-._~!$&'+,;=@%]+)$/

export function parseJobPattern(raw: string): JobPattern {
  const parts = raw.trim().split(/\s+/)
  const [method, path] = parts.length === 2 ? [parts[0]!.toUpperCase(), parts[1]!] : [null, parts[0] ?? '']
  if (parts.length > 2 || (method !== null && !METHOD.test(method)))
    throw invalid(`Job pattern "${raw}": write it as "/path" or "METHOD /path"`)
  if (!path.startsWith('/') || isReservedPath(path))
    throw invalid(`Job pattern "${raw}": the path must start with / and not with /_`)
  const normal = normalisePath(path)
  const segments = normal.split('/').slice(1)
  if (segments.some((s) => !SEGMENT.test(s)))
    throw invalid(`Job pattern "${raw}": segments are names, :params or *`)
  return { method, segments, text: method ? `${method} ${normal}` : normal }
}

export function parseJobPatterns(raw: string | readonly string[]): string[] {
  const list = (typeof raw === 'string' ? raw.split(',') : raw).map((s) => s.trim()).filter(Boolean)
  if (list.length === 0) throw invalid('Name at least one job pattern, e.g. /customers/*')
  return list.map((p) => parseJobPattern(p).text)
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
}

/** `90s`, `15m`, `24h`, `30d`, `2w` → milliseconds. */
export function parseDuration(raw: string, what: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(raw.trim())
  if (!m) throw invalid(`${what} "${raw}": write a number and a unit, e.g. 90s, 15m, 24h, 30d`)
  return Math.round(Number(m[1]) * UNITS[m[2]!]!)
}

/** Rate and burst together: a burst alone means nothing, a rate alone gets a burst of one second's worth. */
export function parseRate(
  rate: number | string | null | undefined,
  burst: number | string | null | undefined,
): { ratePerSecond: number | null; burst: number | null } {
  if (rate == null || rate === '') {
    if (burst != null && burst !== '') throw invalid('A burst needs a rate (--rate, requests per second)')
    return { ratePerSecond: null, burst: null }
  }
  const r = Number(rate)
  if (!Number.isFinite(r) || r <= 0 || r > 100_000)
    throw invalid(`Rate "${rate}": requests per second, a number above 0`)
  const b = burst == null || burst === '' ? Math.max(1, Math.ceil(r)) : Number(burst)
  if (!Number.isInteger(b) || b < 1 || b > 1_000_000)
    throw invalid(`Burst "${burst}": a whole number of at least 1`)
  return { ratePerSecond: r, burst: b }
}

/** What a key may do, in one line: `call,read on /customers/* · 5/s burst 10`. */
export function describeLimits(k: Pick<KeyLimits, 'scopes' | 'jobs' | 'ratePerSecond' | 'burst'>): string {
  const scopes = k.scopes ? k.scopes.join(',') : 'all'
  const jobs = k.jobs ? ` on ${k.jobs.join(', ')}` : ''
  const rate = k.ratePerSecond ? ` · ${k.ratePerSecond}/s burst ${k.burst}` : ''
  return `${scopes}${jobs}${rate}`
}

import { AppError } from '../../lib/errors.ts'
import { normalisePath } from '../jobs/path-pattern.ts'
import type { JobPattern, KeyAccess, KeyGrant, Scope } from './model.ts'

/**
 * Pure checks of a key's grant against a request: no I/O, so the trigger handler can re-check
 * once it knows whether the call teaches or runs.
 */
export function matchesJobPattern(pattern: JobPattern, method: string | null, path: string): boolean {
  if (pattern.method && method !== null && pattern.method !== method.toUpperCase()) return false
  const segments = normalisePath(path).split('/').slice(1)
  const p = pattern.segments
  // A trailing `*` takes the rest of the path (one segment or more); elsewhere a `*` is one segment.
  const open = p[p.length - 1] === '*'
  if (open ? segments.length < p.length : segments.length !== p.length) return false
  return p.every((s, i) => s === '*' || s.startsWith(':') || s === segments[i])
}

export function permits(grant: KeyGrant, access: KeyAccess): boolean {
  if (grant.scopes && !access.scopes.some((s) => grant.scopes!.includes(s))) return false
  const method = access.anyMethod ? null : access.method
  if (access.job && grant.jobs && !grant.jobs.some((p) => matchesJobPattern(p, method, access.path)))
    return false
  return true
}

/** `403 FORBIDDEN_SCOPE`, naming what the key may do, so the caller knows which key to use instead. */
export function requireAccess(grant: KeyGrant, access: KeyAccess): void {
  if (permits(grant, access)) return
  const scopes = grant.scopes ?? ['call', 'teach', 'read']
  const jobs = grant.jobs?.map((p) => p.text) ?? null
  const may = `${scopes.join(', ')}${jobs ? ` on ${jobs.join(', ')}` : ''}`
  throw new AppError(
    'FORBIDDEN_SCOPE',
    `The API key "${grant.name}" may not ${describe(access)}; it may ${may}`,
    { allowed: { scopes, jobs }, needed: access.scopes },
  )
}

/**
 * The trigger handler's second look, once it knows whether the call teaches or runs: `method` and
 * `path` are what the call will run or teach (a teaching call's `deskhook.method` and pattern, not
 * its HTTP method). `job: false` checks the scope alone, before the taught route is known.
 */
export function requireScope(
  grant: KeyGrant | undefined,
  scope: Scope,
  method: string,
  path: string,
  job = true,
): void {
  if (grant) requireAccess(grant, { method, path, scopes: [scope], job })
}

function describe(access: KeyAccess): string {
  const verb = access.scopes.length === 1 ? access.scopes[0] : access.scopes.join(' or ')
  return `${verb} ${access.method.toUpperCase()} ${access.path}`
}

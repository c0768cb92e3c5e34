import { isCredentialHeader } from '../../lib/credential-headers.ts'
import { ENVELOPE_KEY } from '../teach/model.ts'

export interface HttpInfo {
  method: string
  path: string
  params: Record<string, string>
  headers: Record<string, string>
}

export type JobInput = Record<string, unknown>

/** Query parameters that steer deskhook itself; they are not part of the job's input. */
export const CONTROL_QUERY_PARAMS = ['async', 'callback_url'] as const

/**
 * Repeated query keys become arrays (`?tag=a&tag=b` → `["a", "b"]`). Built on a null-prototype
 * object so keys such as `constructor` or `__proto__` are ordinary data, never Object's own.
 */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null)
  for (const [key, value] of params) {
    if ((CONTROL_QUERY_PARAMS as readonly string[]).includes(key)) continue
    const prev = Object.hasOwn(out, key) ? out[key] : undefined
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]
  }
  return out
}

export function httpInfo(request: Request, path: string, params: Record<string, string>): HttpInfo {
  const headers: Record<string, string> = {}
  // Header names from Bun's Headers are already lower-case.
  request.headers.forEach((value, name) => {
    // The caller's credentials (x-api-key, Authorization, Cookie, tokens…) are never kept.
    if (!isCredentialHeader(name)) headers[name] = value
  })
  return { method: request.method.toUpperCase(), path, params, headers }
}

/**
 * The job's input: query parameters merged with the JSON body, the body winning on a shared key,
 * with the teach envelope taken out (and returned separately). `_http` is added by the caller.
 */
export function mergeInput(
  query: Record<string, string | string[]>,
  body: Record<string, unknown> | undefined,
): { input: JobInput; envelope: unknown; teaching: boolean } {
  const merged: JobInput = { ...query, ...body }
  const teaching = body !== undefined && Object.hasOwn(body, ENVELOPE_KEY)
  const envelope = teaching ? body[ENVELOPE_KEY] : undefined
  delete merged[ENVELOPE_KEY]
  delete merged._http
  return { input: merged, envelope, teaching }
}

import { AppError } from '../../lib/errors.ts'

/**
 * Job paths are plain segments or `:name` parameters. Anything the router would read as a regex or
 * wildcard (`*`, `(`, `)`) is refused, so a pattern means exactly what it looks like.
 */
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/
const STATIC = /^[A-Za-z0-9\-._~!$&'+,;=@%]+$/
/**
 * Delimiters that stay encoded in a canonical segment and that the router never decodes in a
 * request path: a static segment holding one could be taught but never called (issue 23 N13).
 */
const ENCODED_DELIMITER = /%(2F|3F|23)/i
export const MAX_PATH_LENGTH = 1000

export function isReservedPath(path: string): boolean {
  return path.startsWith('/_') || path === '/swagger.json'
}

/**
 * The one form of a job path, for teaching, routing, listing, OpenAPI and the CLI: no trailing
 * slash, and each static segment percent-decoded, Unicode-normalised (NFC) and encoded again the
 * one way (`/café`, `/caf%C3%A9` and `/caf%c3%a9` are one path; `/%61bc` is `/abc`; `/%5Fjobs` is
 * `/_jobs`). An encoded `/` stays encoded inside its segment. Undecodable escapes stay as sent
 * (the path check refuses them).
 */
export function normalisePath(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  return trimmed
    .split('/')
    .map((segment) => (PARAM.test(segment) ? segment : canonicalSegment(segment)))
    .join('/')
}

/** Sub-delimiters a segment may hold as they are (RFC 3986), so they are never escaped. */
const KEPT = /%(24|26|2B|2C|3B|3D|40|21|27)/g

function canonicalSegment(segment: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(segment)
  } catch {
    return segment
  }
  return encodeURIComponent(decoded.normalize('NFC')).replace(KEPT, (kept) => decodeURIComponent(kept))
}

/** A stored (canonical) path as the router's tree holds it: static segments decoded, `/` kept encoded. */
export function routerPath(pattern: string): string {
  return pattern
    .split('/')
    .map((segment) => (PARAM.test(segment) ? segment : decodeSegmentKeepingSlash(segment)))
    .join('/')
}

function decodeSegmentKeepingSlash(segment: string): string {
  try {
    return decodeURIComponent(segment.replace(/%2F/gi, '%252F'))
  } catch {
    return segment
  }
}

export interface ParsedPattern {
  pattern: string
  params: string[]
}

export function parsePattern(raw: string, member = 'path'): ParsedPattern {
  const pattern = normalisePath(raw)
  const bad = (why: string) =>
    new AppError('INVALID_PATH', `${member} ${JSON.stringify(raw)} is not a valid job path: ${why}`, {
      field: member,
    })
  if (!pattern.startsWith('/')) throw bad('it must start with /')
  if (pattern.length > MAX_PATH_LENGTH) throw bad(`it is longer than ${MAX_PATH_LENGTH} characters`)
  if (isReservedPath(pattern))
    throw new AppError(
      'RESERVED_PATH',
      `${pattern} is reserved: paths starting with /_ and /swagger.json belong to deskhook itself`,
      { field: member },
    )
  const params: string[] = []
  if (pattern === '/') return { pattern, params }
  for (const segment of pattern.slice(1).split('/')) {
    const param = PARAM.exec(segment)
    if (param) {
      if (params.includes(param[1]!)) throw bad(`the parameter :${param[1]} appears twice`)
      params.push(param[1]!)
    } else if (segment === '') {
      throw bad('it has an empty segment (//)')
    } else if (!STATIC.test(segment)) {
      throw bad(
        `the segment ${JSON.stringify(segment)} has characters a job path cannot hold (*, (, ), :, spaces…)`,
      )
    } else if (ENCODED_DELIMITER.test(segment)) {
      throw bad(
        `the segment ${JSON.stringify(segment)} holds an encoded /, ? or # (%2F, %3F, %23), which stays encoded in a request path, so no call could ever reach the job; use another character, or a :parameter (whose value may hold one)`,
      )
    }
  }
  return { pattern, params }
}

/**
 * When a teach call names its pattern (`deskhook.path`) and is made on a concrete path, the concrete
 * path must be an instance of the pattern; the filled-in segments become the sample's params.
 */
export function matchPattern(pattern: string, concretePath: string): Record<string, string> | null {
  const p = normalisePath(pattern).split('/')
  const c = normalisePath(concretePath).split('/')
  if (p.length !== c.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < p.length; i++) {
    const seg = p[i]!
    const value = c[i]!
    if (seg.startsWith(':')) {
      if (value === '') return null
      params[seg.slice(1)] = safeDecode(value)
    } else if (seg !== value) {
      return null
    }
  }
  return params
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

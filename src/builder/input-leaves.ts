// The values a sample brings, flattened to the template paths an automation uses
// (`customer.email`, `_http.params.id`). Inputs are the caller's values: body and query values and
// path parameters. Request headers are transport (`accept`, `user-agent`, `content-length`…):
// one becomes an input only when the prompt or the sample's `expect` names it ("use the
// X-Customer-Ref header"); credentials never do. Method and path never do.
import { isCredentialHeader } from '../lib/credential-headers.ts'
import { compact } from './words.ts'

export interface InputLeaf {
  /** Template path: `{{customer.email}}`. */
  path: string
  /** The last segment, the part that names the value ("email"). */
  key: string
  value: unknown
  /** `header`: a request header the prompt or `expect` names; placed like any other value. */
  source: 'body' | 'params' | 'header'
  /**
   * The one value a lookup is given (a SKU, an email): with no field named for it, it is typed
   * where a person would type it, in the app's search box.
   */
  query?: boolean
}

/** What names a header: the task's wording and the sample's expected output. */
export interface HeaderNaming {
  prompt?: string
  expect?: Record<string, unknown> | null
}

/** Keys a template can name: `{{first name}}` is not a placeholder, so such a key cannot be used. */
const TEMPLATE_KEY = /^[\w$-]+$/

export function inputLeaves(input: Record<string, unknown>, naming: HeaderNaming = {}): InputLeaf[] {
  const leaves: InputLeaf[] = []
  const visit = (value: unknown, path: string[], source: InputLeaf['source']) => {
    if (value === null || value === undefined || !TEMPLATE_KEY.test(path.at(-1) ?? '')) return
    // Objects are walked; arrays stay one value (a multi-select takes the whole list).
    if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) visit(inner, [...path, key], source)
      return
    }
    leaves.push({ path: path.join('.'), key: path.at(-1) ?? '', value, source })
  }
  for (const [key, value] of Object.entries(input)) {
    if (key !== '_http') visit(value, [key], 'body')
  }
  const http = input._http
  if (http && typeof http === 'object') {
    const { params, headers } = http as { params?: unknown; headers?: unknown }
    if (params && typeof params === 'object') visit(params, ['_http', 'params'], 'params')
    if (headers && typeof headers === 'object')
      for (const [name, value] of Object.entries(headers))
        if (headerNamed(name, naming)) visit(value, ['_http', 'headers', name], 'header')
  }
  return leaves
}

/**
 * Whether the task names this header: the prompt spells it ("X-Customer-Ref", or "Accept-Language
 * header": a hyphenated name, or the word "header" right after it), or `expect` has a key for it
 * (`customerRef` for `x-customer-ref`).
 */
export function headerNamed(name: string, naming: HeaderNaming): boolean {
  const lower = name.toLowerCase()
  // Headers that carry credentials are never an input, whatever names them.
  if (isCredentialHeader(lower)) return false
  const bare = compact(lower.replace(/^x-/, ''))
  if (
    naming.expect &&
    Object.keys(naming.expect).some((key) => compact(key) === bare || compact(key) === compact(lower))
  )
    return true
  const prompt = naming.prompt?.toLowerCase() ?? ''
  const escaped = lower.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const spelled = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])(\\W+\\w+){0,2}`, 'g')
  for (const match of prompt.matchAll(spelled)) {
    if (lower.includes('-') || /\bheaders?\b/.test(match[0])) return true
  }
  return false
}

/** The sample's value as a person reads it in a question ("X-99", "true", "a, b"). */
export function shownValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(shownValue).join(', ')
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/** Keys (at any depth) that no template can name, so the builder cannot use their values. */
export function unusableKeys(input: Record<string, unknown>): string[] {
  const out: string[] = []
  const visit = (value: unknown, path: string[]) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return
    for (const [key, inner] of Object.entries(value)) {
      if (TEMPLATE_KEY.test(key)) visit(inner, [...path, key])
      else out.push([...path, key].join('.'))
    }
  }
  // Header names are the caller's transport, not keys they chose: never reported.
  const { _http, ...values } = input
  visit(values, [])
  const params = (_http as { params?: unknown } | undefined)?.params
  if (params && typeof params === 'object') visit(params, ['_http', 'params'])
  return out
}

/** The sample's text values with their template paths (a search's results, a record's own row). */
export function textValues(leaves: InputLeaf[]): { path: string; value: string }[] {
  return leaves.flatMap((l) =>
    l.source !== 'header' && (typeof l.value === 'string' || typeof l.value === 'number')
      ? [{ path: l.path, value: String(l.value) }]
      : [],
  )
}

// The values a sample brings, flattened to the template paths an automation uses
// (`customer.email`, `_http.params.id`). Of `_http`, path parameters are real inputs; headers
// only count when one clearly names a field; method and path never do.
export interface InputLeaf {
  /** Template path: `{{customer.email}}`. */
  path: string
  /** The last segment, the part that names the value ("email"). */
  key: string
  value: unknown
  /** Headers are only used when they match a field clearly; they are never asked about. */
  source: 'body' | 'params' | 'header'
}

/** Keys a template can name: `{{first name}}` is not a placeholder, so such a key cannot be used. */
const TEMPLATE_KEY = /^[\w$-]+$/

export function inputLeaves(input: Record<string, unknown>): InputLeaf[] {
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
    if (headers && typeof headers === 'object') visit(headers, ['_http', 'headers'], 'header')
  }
  return leaves
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
  visit(input, [])
  return out
}

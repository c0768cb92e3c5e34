/** What a secret's value becomes wherever it would otherwise be stored, logged or shown. */
export const MASK = '•••'

/**
 * Replaces every occurrence of the values in every string of `value` (object keys too), deeply.
 * Returns the same object when nothing matched, so the common case allocates nothing.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const needles = secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length)
  if (needles.length === 0) return value
  return scrub(value, needles) as T
}

function scrubText(text: string, needles: string[]): string {
  let out = text
  for (const n of needles) if (out.includes(n)) out = out.split(n).join(MASK)
  return out
}

function scrub(value: unknown, needles: string[]): unknown {
  if (typeof value === 'string') return scrubText(value, needles)
  if (Array.isArray(value)) {
    let changed = false
    const out = value.map((v) => {
      const s = scrub(v, needles)
      if (s !== v) changed = true
      return s
    })
    return changed ? out : value
  }
  if (value !== null && typeof value === 'object') {
    let changed = false
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const key = scrubText(k, needles)
      const s = scrub(v, needles)
      if (s !== v || key !== k) changed = true
      out[key] = s
    }
    return changed ? out : value
  }
  return value
}

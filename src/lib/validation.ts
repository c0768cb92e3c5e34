import type { TSchema } from '@sinclair/typebox'
import { Value, type ValueError } from '@sinclair/typebox/value'

/**
 * Turns typebox errors into one line a person can act on, naming the member as the caller wrote it
 * (`deskhook.prompt`), with the known members listed when one is unexpected.
 */
export function schemaProblems(
  schema: TSchema,
  value: unknown,
  prefix: string,
  /** Schemas that `$ref`s inside `schema` point to (a variant of a `Type.Recursive` checked alone). */
  references: TSchema[] = [],
): string[] {
  const seen = new Set<string>()
  const problems: string[] = []
  for (const e of Value.Errors(schema, references, value)) {
    const name = memberName(prefix, e)
    if (seen.has(name)) continue
    seen.add(name)
    problems.push(`${name}: ${describe(schema, e)}`)
  }
  return problems
}

function memberName(prefix: string, e: ValueError): string {
  const parts = e.path.split('/').filter(Boolean)
  return [prefix, ...parts].filter(Boolean).join('.') || 'body'
}

function describe(root: TSchema, e: ValueError): string {
  const s = e.schema
  if (e.message === 'Unexpected property') {
    const known = Object.keys((root.properties as object | undefined) ?? {})
    return `is not a known member${known.length ? ` (known: ${known.join(', ')})` : ''}`
  }
  if (e.message === 'Expected required property') return 'is required'
  if (s.const !== undefined) return `must be ${JSON.stringify(s.const)}`
  if (s.type === 'string' && typeof e.value === 'string') {
    if (s.minLength && e.value.length < s.minLength) return 'must not be empty'
    if (s.maxLength && e.value.length > s.maxLength) return `must be at most ${s.maxLength} characters`
  }
  if (s.type)
    return `must be ${article(String(s.type))}${e.value === undefined ? '' : `, got ${typeName(e.value)}`}`
  return e.message.toLowerCase()
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : article(typeof v))

import type { TSchema } from '@sinclair/typebox'
import { ValueErrorType } from '@sinclair/typebox/errors'
import { Value, type ValueError } from '@sinclair/typebox/value'
import { schemaProblems } from './validation.ts'

/** Members that tell the variants of a union apart (`{"kind": "click"}`, `{"by": "role"}`). */
const DISCRIMINATORS = ['kind', 'by'] as const

/**
 * `schemaProblems`, but a value that matches no variant of a union is explained instead of being
 * reported as "expected union value": against the variant its `kind`/`by` names, or by listing
 * what the member may be. Hand-edited documents (job files) fail mostly in exactly such places.
 * `references` resolves `Type.Recursive`/`$ref` schemas when a variant is checked on its own.
 */
export function explainProblems(
  schema: TSchema,
  value: unknown,
  prefix: string,
  references: TSchema[] = [],
): string[] {
  const unions = new Map<string, ValueError>()
  for (const e of Value.Errors(schema, references, value))
    if (e.type === ValueErrorType.Union && !unions.has(e.path)) unions.set(e.path, e)
  const unionNames = new Set([...unions.keys()].map((p) => memberName(prefix, p)))
  const plain = schemaProblems(schema, value, prefix, references).filter((p) => !unionNames.has(nameOf(p)))
  const refined = [...unions.values()].flatMap((e) =>
    explainUnion(e.schema, e.value, memberName(prefix, e.path), references),
  )
  return [...new Set([...plain, ...refined])]
}

function explainUnion(union: TSchema, value: unknown, at: string, references: TSchema[]): string[] {
  const variants = (union.anyOf ?? []) as TSchema[]
  const key = DISCRIMINATORS.find((k) => variants.every((v) => v.properties?.[k]?.const !== undefined))
  if (key && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const tag = (value as Record<string, unknown>)[key]
    const variant = variants.find((v) => v.properties[key].const === tag)
    if (variant) return explainProblems(variant, value, at, references)
    const allowed = variants.map((v) => String(v.properties[key].const)).join(', ')
    return [
      `${at}.${key}: must be one of ${allowed}${tag === undefined ? '' : `, got ${JSON.stringify(tag)}`}`,
    ]
  }
  const got = `, got ${describeValue(value)}`
  if (variants.every((v) => v.const !== undefined))
    return [`${at}: must be one of ${variants.map((v) => JSON.stringify(v.const)).join(', ')}${got}`]
  return [`${at}: must be ${variants.map(shapeName).join(' or ')}${got}`]
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object' && value !== null) return 'an object'
  const json = JSON.stringify(value)
  return json.length > 40 ? `${json.slice(0, 40)}…` : json
}

function shapeName(schema: TSchema): string {
  if (schema.type === 'null') return 'null'
  if (typeof schema.type === 'string')
    return /^[aeiou]/.test(schema.type) ? `an ${schema.type}` : `a ${schema.type}`
  return 'another shape'
}

/** The same dotted names `schemaProblems` uses, so both kinds of problem read alike. */
function memberName(prefix: string, pointer: string): string {
  return [prefix, ...pointer.split('/').filter(Boolean)].filter(Boolean).join('.') || 'body'
}

const nameOf = (problem: string) => problem.slice(0, problem.indexOf(': '))

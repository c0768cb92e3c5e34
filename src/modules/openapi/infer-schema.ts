import { createCompoundSchema, createSchema, mergeSchemas, type Schema } from 'genson-js'

type JsonSchema = Record<string, unknown>

/** The request body schema a job accepts, inferred from its samples (keys in every sample are required). */
export function inferInputSchema(inputs: Record<string, unknown>[]): JsonSchema {
  const bodies = inputs.map(({ _http, ...rest }) => rest)
  return bodies.length ? toOpenApi(createCompoundSchema(bodies)) : { type: 'object' }
}

/**
 * Marks the job's secret inputs (`password`, `login.pin`) in its request schema as OpenAPI marks a
 * password: `format: password` (forms and docs hide what is typed) and `writeOnly` (sent, never
 * returned). Their sample values are masked, so nothing else is learnt from them. Changes `schema`.
 */
export function markSecretProperties(schema: JsonSchema, paths: readonly string[]): JsonSchema {
  for (const path of paths) markPath(schema, path.split('.'))
  return schema
}

function markPath(schema: JsonSchema, keys: string[]): void {
  // A member that took several shapes across samples is an `anyOf`: mark it in each.
  if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf) markPath(branch as JsonSchema, keys)
  const properties = schema.properties as Record<string, JsonSchema> | undefined
  const member = properties?.[keys[0]!]
  if (!member) return
  if (keys.length > 1) return markPath(member, keys.slice(1))
  member.format = 'password'
  member.writeOnly = true
}

/**
 * The output schema, from the samples' `expect`: exact values give their own type, and
 * `{"$type": "string"}` placeholders give that type.
 */
export function inferOutputSchema(expects: Record<string, unknown>[]): JsonSchema {
  if (!expects.length) return { type: 'object' }
  return toOpenApi(mergeSchemas(expects.map((e) => fromExpect(e))))
}

function fromExpect(value: unknown): Schema {
  if (typeof value !== 'object' || value === null) return createSchema(value)
  if (Array.isArray(value)) {
    const items = value.map(fromExpect)
    return { type: 'array' as Schema['type'], ...(items.length ? { items: mergeSchemas(items) } : {}) }
  }
  const $type = (value as { $type?: string }).$type
  if (typeof $type === 'string') return { type: $type as Schema['type'] }
  const properties: Record<string, Schema> = {}
  for (const [k, v] of Object.entries(value)) properties[k] = fromExpect(v)
  return { type: 'object' as Schema['type'], properties, required: Object.keys(properties) }
}

/** genson emits `type: [...]` unions and `anyOf`; both are valid OpenAPI 3.1 (JSON Schema 2020-12). */
function toOpenApi(schema: Schema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema
}

// `{{customer.email}}` templates over the run's scope (the job input plus values read so far).
// Deliberately tiny: a dotted path, optional `| filter`s that split a date for composite controls
// (`{{dob | day2}}`, `{{dob | date:DD/MM/YYYY}}`), `spaces` for underscores shown as spaces, `commas` for a list
// typed into a box that separates entries with commas, and an optional `?? "fallback"` (used as is,
// unfiltered, when the input has no value); no logic, so automations stay data a person can read.
import { compileFilter, type Filter } from './date-filters.ts'
import { TemplateError } from './template-error.ts'

export type TemplateScope = Readonly<Record<string, unknown>>

export { TemplateError }

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g
const WHOLE = /^\{\{([^{}]*)\}\}$/

interface Expression {
  path: string
  filters: Filter[]
  fallback?: unknown
  hasFallback: boolean
}

/** `{{page | spaces}}`: underscores as spaces, the way a wiki titles the page "Oncall_rota". */
const spaces: Filter = (value) => String(value).replaceAll('_', ' ')
/** `{{tags | commas}}`: a list as its items separated by commas, as a tag box asks ("bikes, office"). */
const commas: Filter = (value) => (Array.isArray(value) ? value.map(String).join(', ') : String(value))
const WORD_FILTERS: Record<string, Filter> = { spaces, commas }

function parseExpression(source: string): Expression {
  const [pathPart = '', ...rest] = source.split('??')
  const [rawPath = '', ...filterSources] = pathPart.split('|')
  const path = rawPath.trim()
  if (!/^[\w$-]+(\.[\w$-]+)*$/.test(path))
    throw new TemplateError('TEMPLATE_INVALID', `Invalid placeholder {{${source}}}`)
  const filters = filterSources.map(
    (filter) => WORD_FILTERS[filter.trim()] ?? compileFilter(filter, source.trim()),
  )
  if (rest.length === 0) return { path, filters, hasFallback: false }
  try {
    return { path, filters, fallback: JSON.parse(rest.join('??').trim()), hasFallback: true }
  } catch {
    throw new TemplateError(
      'TEMPLATE_INVALID',
      `The fallback in {{${source}}} must be a JSON literal such as "text"`,
    )
  }
}

/** Looks a dotted path up in the scope (`_http.params.id`, `items.0.sku`). */
export function lookupPath(scope: TemplateScope, path: string): unknown {
  let current: unknown = scope
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

function evaluate(expression: Expression, scope: TemplateScope): unknown {
  const value = lookupPath(scope, expression.path)
  if (value !== undefined && value !== null)
    return expression.filters.reduce<unknown>((current, filter) => filter(current, expression.path), value)
  if (expression.hasFallback) return expression.fallback
  throw new TemplateError('INPUT_MISSING', `The input has no value for "${expression.path}"`, expression.path)
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return String(value)
}

/** Renders every placeholder as text. Throws TemplateError for a missing value. */
export function renderTemplate(template: string, scope: TemplateScope): string {
  return template.replace(PLACEHOLDER, (_match, source: string) =>
    asText(evaluate(parseExpression(source), scope)),
  )
}

/**
 * Like renderTemplate, but a template that is exactly one placeholder yields the value itself,
 * so `"{{customer.vip}}"` stays a boolean and `"{{tags}}"` stays a list.
 */
export function resolveTemplate(template: string, scope: TemplateScope): unknown {
  const whole = WHOLE.exec(template)
  if (whole) return evaluate(parseExpression(whole[1] ?? ''), scope)
  return renderTemplate(template, scope)
}

/** The input paths a template reads (for the builder and for input schemas). */
export function templatePaths(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => parseExpression(match[1] ?? '').path)
}

/** Reads a rendered value as a checkbox state; throws TemplateError for anything else. */
export function toBoolean(value: unknown, source: string): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  const text = String(value).trim().toLowerCase()
  if (['true', 'yes', 'on', '1', 'checked'].includes(text)) return true
  if (['false', 'no', 'off', '0', '', 'unchecked'].includes(text)) return false
  throw new TemplateError(
    'TEMPLATE_INVALID',
    `Cannot read ${JSON.stringify(value)} (from ${source}) as checked or not`,
  )
}

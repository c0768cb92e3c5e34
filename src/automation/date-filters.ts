// Template filters that split a date into the parts composite controls want: a day box, a month
// drop-down by name, a "DD/MM/YYYY" text box. Inputs are ISO dates (what JSON APIs send).
import { TemplateError } from './template-error.ts'

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

interface DateParts {
  year: number
  month: number
  day: number
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** The date of an ISO `YYYY-MM-DD` (a time after it is ignored); undefined for anything else. */
export function parseIsoDate(value: unknown): DateParts | undefined {
  if (typeof value !== 'string') return undefined
  const match = ISO_DATE.exec(value.trim())
  if (!match) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const check = new Date(Date.UTC(year, month - 1, day))
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return undefined
  return { year, month, day }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

const TOKENS: Record<string, (d: DateParts) => string> = {
  YYYY: (d) => pad(d.year, 4),
  YY: (d) => pad(d.year % 100),
  MMMM: (d) => MONTHS[d.month - 1]!,
  MMM: (d) => MONTHS[d.month - 1]!.slice(0, 3),
  MM: (d) => pad(d.month),
  M: (d) => String(d.month),
  DD: (d) => pad(d.day),
  D: (d) => String(d.day),
}
const TOKEN = /YYYY|YY|MMMM|MMM|MM|M|DD|D/g

const NAMED: Record<string, (d: DateParts) => string> = {
  day: TOKENS.D!,
  day2: TOKENS.DD!,
  month: TOKENS.M!,
  month2: TOKENS.MM!,
  monthName: TOKENS.MMMM!,
  monthShort: TOKENS.MMM!,
  year: TOKENS.YYYY!,
}

export type Filter = (value: unknown, path: string) => string

/** Compiles `day`, `month2`, `date:DD/MM/YYYY`…; an unknown filter is an invalid template. */
export function compileFilter(source: string, placeholder: string): Filter {
  const text = source.trim()
  const colon = text.indexOf(':')
  const name = (colon < 0 ? text : text.slice(0, colon)).trim()
  if (name === 'date') {
    const pattern = colon < 0 ? '' : text.slice(colon + 1).trim()
    if (!pattern)
      throw new TemplateError(
        'TEMPLATE_INVALID',
        `{{${placeholder}}}: the date filter needs a pattern, e.g. date:DD/MM/YYYY`,
      )
    return (value, path) => {
      const date = needDate(value, path, placeholder)
      return pattern.replace(TOKEN, (token) => TOKENS[token]!(date))
    }
  }
  const part = colon < 0 ? NAMED[name] : undefined
  if (!part) {
    const known = [...Object.keys(NAMED), 'date:PATTERN', 'spaces', 'commas'].join(', ')
    throw new TemplateError(
      'TEMPLATE_INVALID',
      `{{${placeholder}}}: unknown filter "${text}" (filters: ${known})`,
    )
  }
  return (value, path) => part(needDate(value, path, placeholder))
}

function needDate(value: unknown, path: string, placeholder: string): DateParts {
  const date = parseIsoDate(value)
  if (date) return date
  throw new TemplateError(
    'TEMPLATE_INVALID',
    `{{${placeholder}}}: the input "${path}" is ${JSON.stringify(value)}, not a date; send it as YYYY-MM-DD (ISO 8601)`,
    path,
  )
}

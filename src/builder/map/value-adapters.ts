// What a value is (a date, an e-mail, a yes/no) and how a control wants it written: a native
// date input takes the ISO date as is, day/month/year parts take `{{d | day2}}`, `{{d | monthName}}`…
// in the app's own format, a date-picker box takes `{{d | date:DD/MM/YYYY}}` as its placeholder
// shows, a yes/no radio group takes the caller's true/false through a value map. Pure.
import { fold, isPromptOption } from './option-match.ts'

export type ValueShape = 'boolean' | 'date' | 'email' | 'number' | 'list' | 'text'

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/
/** A date as people type it: 24/12/2024, 24.12.2024, 12-24-2024, 2024/12/24 (only ISO can be split into parts). */
const LOCAL_DATE = /^(\d{1,2}[/.-]\d{1,2}[/.-]\d{4}|\d{4}\/\d{1,2}\/\d{1,2})$/
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const NUMBER = /^-?\d+(?:[.,]\d+)?$/
const TRUE_WORDS = ['true', 'yes', 'on', 'y', 'oui', 'ja', 'si', 'sí']
const FALSE_WORDS = ['false', 'no', 'off', 'n', 'non', 'nein']

/** An ISO date (`2024-03-12`, a time after it allowed) that names a real day. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const match = ISO_DATE.exec(value.trim())
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** true / false for a boolean or a yes/no word, undefined for anything else. */
export function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (typeof value !== 'string') return undefined
  const word = fold(value)
  if (TRUE_WORDS.includes(word)) return true
  if (FALSE_WORDS.includes(word)) return false
  return undefined
}

export function valueShape(value: unknown): ValueShape {
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number') return 'number'
  const text = String(value).trim()
  const word = text.length > 1
  if (isIsoDate(text) || LOCAL_DATE.test(text)) return 'date'
  if (EMAIL.test(text)) return 'email'
  if (NUMBER.test(text)) return 'number'
  if (booleanOf(text) !== undefined && word) return 'boolean'
  return 'text'
}

/**
 * The pattern a date box's hint shows, in the runner's tokens ("dd/mm/yyyy" → "DD/MM/YYYY"), or
 * undefined when the text is not a date pattern (it needs a day, a month and a year).
 */
export function datePattern(text: string | undefined): string | undefined {
  if (!text) return undefined
  const match = /^\s*([dmyja]{1,4})([/.\- ])([dmyja]{1,4})\2([dmyja]{1,4})\s*$/i.exec(text)
  if (!match) return undefined
  const tokens = [match[1]!, match[3]!, match[4]!].map((t) => t.toUpperCase())
  const mapped = tokens.map((t) =>
    /^[DJ]{1,2}$/.test(t)
      ? t.replace(/J/g, 'D')
      : /^M{1,4}$/.test(t)
        ? t
        : /^[YA]{2,4}$/.test(t) && t.length !== 3
          ? 'Y'.repeat(t.length)
          : undefined,
  )
  if (mapped.some((t) => t === undefined)) return undefined
  const kinds = new Set(mapped.map((t) => t![0]))
  if (kinds.size !== 3) return undefined
  return mapped.join(match[2])
}

/** Whether a text is written in this pattern's layout ("24/12/2024" in DD/MM/YYYY): it can be typed as is. */
export function writtenIn(value: unknown, pattern: string): boolean {
  if (typeof value !== 'string') return false
  const layout = pattern
    .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    .replace(/YYYY|YY|MMMM|MMM|MM|M|DD|D/g, (t) =>
      t === 'MMMM' || t === 'MMM' ? '\\p{L}+\\.?' : t.length === 1 ? '\\d{1,2}' : `\\d{${t.length}}`,
    )
  return new RegExp(`^${layout}$`, 'u').test(value.trim())
}

export type DatePart = 'day' | 'month' | 'year'

/** Which part of a date a box or list is for, by its name or hint ("Day", "DD", "jour", "Jahr"). */
export function datePartOf(text: string): DatePart | undefined {
  const word = fold(text)
    .replace(/[^\p{L}]+/gu, ' ')
    .trim()
    .split(' ')
    .at(-1)
  if (!word) return undefined
  if (['day', 'dd', 'd', 'jour', 'jj', 'tag', 'dia'].includes(word)) return 'day'
  if (['month', 'mm', 'mon', 'mois', 'monat', 'mes'].includes(word)) return 'month'
  if (['year', 'yyyy', 'yy', 'annee', 'an', 'jahr', 'ano', 'aaaa'].includes(word)) return 'year'
  return undefined
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/** What the options of a list look like when they are the days, months or years of a date. */
export function partOfOptions(options: readonly string[]): DatePart | undefined {
  const real = options.filter((o) => !isPromptOption(o)).map(fold)
  if (real.length < 12) return undefined
  const numbers = real.map(Number)
  if (real.every((o) => /^\d{4}$/.test(o))) return 'year'
  if (real.length >= 28 && real.length <= 31 && numbers.every((n, i) => n === i + 1)) return 'day'
  if (
    real.length === 12 &&
    (numbers.every((n, i) => n === i + 1) ||
      real.every((o, i) => MONTHS[i]!.startsWith(o.replace(/\.$/, ''))))
  )
    return 'month'
  return undefined
}

/**
 * The template filter that writes one part the way the control shows it: `day2` for "01"…"31"
 * or a "DD" hint, `monthName` for "January", `monthShort` for "Jan", `month2` for "01".
 */
export function partFilter(part: DatePart, options: readonly string[], hint = ''): string {
  const real = options.filter((o) => !isPromptOption(o)).map(fold)
  const padded = real.some((o) => /^0\d$/.test(o)) || (real.length === 0 && /^(dd|mm)$/i.test(hint.trim()))
  if (part === 'year') return 'year'
  if (part === 'day') return padded ? 'day2' : 'day'
  if (real.length && real.every((o) => /^\p{L}/u.test(o)))
    return real.every((o) => o.replace(/\.$/, '').length <= 3) ? 'monthShort' : 'monthName'
  return padded ? 'month2' : 'month'
}

/** What a part filter writes for an ISO date ("monthName" of 2024-03-05 → "March"), for progress lines. */
export function partText(filter: string, iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number) as [number, number, number]
  const name = MONTHS[month - 1]!
  const texts: Record<string, string> = {
    day: String(day),
    day2: String(day).padStart(2, '0'),
    month: String(month),
    month2: String(month).padStart(2, '0'),
    monthName: name[0]!.toUpperCase() + name.slice(1),
    monthShort: name[0]!.toUpperCase() + name.slice(1, 3),
    year: String(year),
  }
  return texts[filter] ?? iso
}

/** The template that fills one native date input: the ISO day as is, a date-time cut to its day. */
export function nativeDateTemplate(path: string, value: unknown): string {
  return typeof value === 'string' && value.trim().length > 10
    ? `{{${path} | date:YYYY-MM-DD}}`
    : `{{${path}}}`
}

/** For a yes/no radio group: which radio each of the caller's words picks. */
export function booleanValueMap(options: readonly string[]): Record<string, string> | undefined {
  const yes = options.find((o) => booleanOf(o) === true)
  const no = options.find((o) => booleanOf(o) === false)
  if (!yes || !no) return undefined
  return { true: yes, false: no, yes, no }
}

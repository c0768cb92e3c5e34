// Turning what one run showed into what every run will show: numbers become \d+, the caller's
// own values become wildcards. Used for outcome signatures, wait conditions, read selectors and
// extract patterns, so "Customer C-1042 created" and "Customer C-1043 created" are one outcome.
import type { TextMatch } from '../protocol/automation.ts'

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** The input's text values worth recognising in the UI (short ones would match by accident). */
export function inputTexts(input: unknown): string[] {
  const out: string[] = []
  const visit = (value: unknown) => {
    if (typeof value === 'string' || typeof value === 'number') {
      const text = String(value).trim()
      if (text.length >= 3) out.push(text)
    } else if (Array.isArray(value)) value.forEach(visit)
    else if (value && typeof value === 'object') Object.values(value).forEach(visit)
  }
  visit(input)
  return [...new Set(out)].sort((a, b) => b.length - a.length)
}

type Piece = { kind: 'literal' | 'digits' | 'input' | 'capture'; text: string }

/** Splits text into literal runs, digit runs, occurrences of input values and (optionally) one token to capture. */
function pieces(text: string, inputs: string[], capture?: string): Piece[] {
  const spans: { start: number; end: number; kind: Piece['kind'] }[] = []
  const lower = text.toLowerCase()
  const claim = (start: number, end: number, kind: Piece['kind']) => {
    if (spans.some((s) => start < s.end && end > s.start)) return
    spans.push({ start, end, kind })
  }
  if (capture) {
    const at = text.indexOf(capture)
    if (at >= 0) claim(at, at + capture.length, 'capture')
  }
  for (const value of inputs.flatMap(shownAs)) {
    for (
      let at = lower.indexOf(value.toLowerCase());
      at >= 0;
      at = lower.indexOf(value.toLowerCase(), at + 1)
    )
      claim(at, at + value.length, 'input')
  }
  // A message that quotes the caller's value quotes the record's other values the same way
  // ("Status changed from 'open' to 'resolved'"): those vary with the record as much as the
  // caller's does. A message quoting no input value (a field's name in an error) keeps its words.
  const quoted = [...text.matchAll(/(['"‘“])([^'"‘’“”\n]{1,60})(['"’”])/g)].map((m) => ({
    start: m.index + 1,
    end: m.index + 1 + m[2]!.length,
  }))
  const quotesInput = quoted.some((q) =>
    spans.some((s) => s.kind === 'input' && s.start >= q.start && s.end <= q.end),
  )
  if (quotesInput) for (const q of quoted) claim(q.start, q.end, 'input')
  for (const m of text.matchAll(/\d+/g)) claim(m.index, m.index + m[0].length, 'digits')
  spans.sort((a, b) => a.start - b.start)
  const out: Piece[] = []
  let at = 0
  for (const span of spans) {
    if (span.start > at) out.push({ kind: 'literal', text: text.slice(at, span.start) })
    out.push({ kind: span.kind, text: text.slice(span.start, span.end) })
    at = span.end
  }
  if (at < text.length) out.push({ kind: 'literal', text: text.slice(at) })
  return out
}

/**
 * An input value as an app may show it: as given, and with underscores as spaces (a wiki shows
 * the page "Release_checklist" under the heading "Release checklist").
 */
function shownAs(value: string): string[] {
  const spaced = value.replaceAll('_', ' ')
  return spaced === value ? [value] : [value, spaced]
}

function toPattern(parts: Piece[]): string {
  return parts
    .map((p, i) => {
      if (p.kind === 'literal') return countAt(parts, i - 1) ? countedNoun(p.text) : escapeRegex(p.text)
      if (p.kind === 'digits') return '\\d+'
      if (p.kind === 'input') return '.+?'
      return `(${generaliseToken(p.text)})`
    })
    .join('')
}

/** A number standing alone ("2 items", "(3 results)"), not part of a code such as "C-1042". */
function countAt(parts: Piece[], i: number): boolean {
  if (parts[i]?.kind !== 'digits') return false
  const before = parts[i - 1]
  return !before || (before.kind === 'literal' && /(?:^|[\s(])$/.test(before.text))
}

/**
 * The noun after a count, in either number: the sample's "2 items" is "1 item" on the next run
 * and "1 entry" is "3 entries" (English plurals; a word that is no noun keeps matching itself).
 */
function countedNoun(literal: string): string {
  const m = /^(\s+)([A-Za-z]{2,})/.exec(literal)
  if (!m) return escapeRegex(literal)
  const word = m[2]!
  // Words of doing ("2 selected", "3 pending") read the same for one thing.
  if (/(?:ed|ing)$/i.test(word)) return escapeRegex(literal)
  const rest = escapeRegex(literal.slice(m[0].length))
  let noun: string
  if (/[^aeiou]ies$/i.test(word)) noun = `${word.slice(0, -3)}(?:y|ies)`
  else if (/[^aeiou]y$/i.test(word)) noun = `${word.slice(0, -1)}(?:y|ies)`
  else if (/(?:ss|x|ch|sh)es$/i.test(word)) noun = `${word.slice(0, -2)}(?:es)?`
  else if (/(?:ss|x|ch|sh)$/i.test(word)) noun = `${word}(?:es)?`
  else if (/[^s]s$/i.test(word)) noun = `${word}?`
  else noun = `${word}s?`
  return `${m[1]}${noun}${rest}`
}

/** "C-1042" → "C-\d+": the shape of a generated value. */
export function generaliseToken(token: string): string {
  // Each letter-and-digit run on its own: "C-1042" keeps its "C-", a hash keeps its letters.
  return token
    .split(/([A-Za-z0-9]+)/)
    .map((part, i) => (i % 2 === 1 ? generaliseRun(part) : escapeRegex(part)))
    .join('')
}

/**
 * A run of letters and digits as it varies between records: a hex hash ("bc3533e9db") as hex of
 * about that length, a random mix ("x7Kp2Q") as letters and digits, a prefixed number
 * ("INC0012", "HD20481") with its letters kept and its digits free.
 */
function generaliseRun(run: string): string {
  const digits = /\d/.test(run)
  const letters = /[A-Za-z]/.test(run)
  if (!digits) return escapeRegex(run)
  if (letters && run.length >= 6 && /^[0-9a-f]+$/i.test(run))
    return `[0-9a-fA-F]{${Math.min(6, run.length)},}`
  const switches = run
    .split('')
    .filter((c, i, all) => i > 0 && /\d/.test(c) !== /\d/.test(all[i - 1]!)).length
  // Letters and digits interleaved ("x7Kp2Q", the "00A1" of "HD-00A1") vary as a whole, however short.
  if (letters && switches >= 2) return `[A-Za-z0-9]{${Math.min(6, run.length)},}`
  return escapeRegex(run).replace(/\d+/g, '\\d+')
}

/**
 * A text match that holds for every run: the exact text (contains) when nothing in it varies,
 * else an anchored regex over digits and input values.
 */
export function generaliseText(
  text: string,
  inputs: string[],
  options: { lead?: boolean } = {},
): { pattern: string; match: TextMatch } {
  const lead = options.lead ? leadSentence(text) : text
  const parts = pieces(lead, inputs)
  if (lead !== text) return { pattern: `^${toPattern(parts)}`, match: 'regex' }
  if (parts.every((p) => p.kind === 'literal')) return { pattern: text, match: 'contains' }
  return { pattern: `^${toPattern(parts)}$`, match: 'regex' }
}

/**
 * A long message is recognised by its first sentence: what follows is detail that quotes the
 * record ("1 row(s) affected. UPDATE "customers" SET "name"='Isaac Newton' …"), which differs on
 * every call in values the caller never sent.
 */
export function leadSentence(text: string): string {
  if (text.length <= 80) return text
  const first = /^(.{8,80}?[.!?])\s+\S/su.exec(text)
  return first ? first[1]! : text
}

/**
 * The extract regex for a token inside a text: the generalised text with the token as its group.
 * Spacing is loose (\s*): a read returns the text as the app renders it ("Ticket #HD-20481"),
 * which may space inline runs differently from the snapshot's name ("Ticket # HD-20481").
 */
export function extractPattern(text: string, token: string, inputs: string[]): string {
  const loose = pieces(text, inputs, token)
    .flatMap((p): Piece[] =>
      p.kind === 'literal'
        ? p.text
            .split(/(\s+)/)
            .filter(Boolean)
            .map((t) => ({ kind: 'literal', text: t }))
        : [p],
    )
    .map((p, i, all) => {
      // Free text (a subject, a name: words, no digits) is whatever stands in its place; an id
      // keeps its shape ("C-1042" → C-\d+).
      if (p.kind === 'capture' && freeText(p.text))
        return all.slice(i + 1).some((q) => q.kind !== 'literal' || q.text.trim() !== '')
          ? '\\s*(.+?)\\s*'
          : '\\s*(.+)'
      if (p.kind === 'capture') return `\\s*(${generaliseToken(p.text)})\\s*`
      return p.kind === 'literal' && /^\s+$/.test(p.text) ? '\\s*' : toPattern([p])
    })
    .join('')
  return loose.replaceAll('\\s*\\s*', '\\s*')
}

/** Words rather than an identifier: spaces in it and no digit ("Password reset for payroll"). */
function freeText(text: string): boolean {
  return /\s/.test(text.trim()) && !/\d/.test(text)
}

/** Tokens that look generated: they contain a digit ("C-1042", "HD-20481", "4711"). */
export function idLikeTokens(text: string): string[] {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:[-_/.][\p{L}\p{N}]+)*/gu)]
    .map((m) => m[0])
    .filter((t) => /\d/.test(t))
}

/** The outcome signature: the kind of ending and its text with numbers and input values blanked. */
export function outcomeSignature(kind: string, text: string, inputs: string[]): string {
  const normalised = pieces(leadSentence(text.replace(/\s+/g, ' ').trim()), inputs)
    .map((p) => (p.kind === 'literal' ? p.text.toLowerCase() : p.kind === 'digits' ? '#' : '*'))
    .join('')
  return `${kind}: ${normalised}`
}

/** A scenario name from a message: the caller's own values left out, at most ~80 characters. */
export function nameFromMessage(message: string, inputs: string[]): string {
  const text = pieces(message, inputs)
    .map((p) => (p.kind === 'input' ? '…' : p.text))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
  const short = text.length <= 80 ? text : `${text.slice(0, 80).replace(/\s+\S*$/, '')}…`
  // What is left once values are out must still read as words: no "result (" or "( )".
  const tidy = short
    .replace(/[([{]\s*[.…,:;\s]*[)\]}]/g, ' ')
    .replace(/\s*[([{][^)\]}]*$/, '')
    .replace(/^[^([{]*[)\]}]/, (m) => m.slice(0, -1))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!:;,(]+$/, '')
  return tidy.length >= 3 && /\p{L}{2}/u.test(tidy) ? tidy : 'other outcome'
}

/** A name for the success path from its message, without the generated values ("Customer created"). */
export function successName(message: string, inputs: string[]): string {
  // A parenthesis around a generated figure ("(0.02 seconds)", "(3)") says nothing of the outcome.
  let text = message.replace(/\s*[([][^)\]]*\d[^)\]]*[)\]]/g, ' ')
  for (const token of idLikeTokens(message)) text = text.replace(token, ' ')
  text = text
    .replace(/(^|\s)[#№:]+(?=\s|$)/g, ' ')
    // A quoted record number left out reads as the caller's values do: “…”.
    .replace(/([“‘«])\s*([”’»])/g, '$1…$2')
    .replace(/\s+/g, ' ')
    .trim()
  return nameFromMessage(text || message, inputs)
}

/** The text with every input value the sample typed cut out (values of 3+ characters). */
export function withoutInputs(text: string, inputs: string[]): string {
  let out = text
  for (const value of [...inputs].filter((v) => v.length >= 3).sort((a, b) => b.length - a.length))
    out = out.split(value).join(' ')
  return out
}

// How selector names, condition texts and extracts compare text: the same rules everywhere.
import type { TextMatch } from '../protocol/automation.ts'

/**
 * Glyphs of icon fonts (Font Awesome, Material Icons' code points, Fluent's) sit in Unicode's
 * private use areas: a person sees a picture, not a character, so they are no part of a label,
 * a value or a name to match (docs/builder.md, "What a name is").
 */
const ICON_GLYPHS = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/gu

export function collapse(text: string): string {
  return text.replace(ICON_GLYPHS, ' ').replace(/\s+/g, ' ').trim()
}

export class PatternError extends Error {
  override readonly name = 'PatternError'
}

const compiled = new Map<string, RegExp>()

export function compilePattern(pattern: string): RegExp {
  let regex = compiled.get(pattern)
  if (!regex) {
    try {
      regex = new RegExp(pattern)
    } catch (error) {
      throw new PatternError(`Invalid regular expression /${pattern}/: ${(error as Error).message}`)
    }
    compiled.set(pattern, regex)
  }
  return regex
}

/**
 * exact: same text after collapsing whitespace; same: equal without case or accents; contains:
 * case-insensitive substring; regex: a match anywhere.
 */
export function matchesText(actual: string, expected: string, mode: TextMatch = 'exact'): boolean {
  switch (mode) {
    case 'exact': {
      // A name that was only a glyph (an icon-only button saved as "\uf013") names nothing now:
      // it never matches the nameless controls.
      const wanted = collapse(expected)
      return (wanted !== '' || expected.trim() === '') && collapse(actual) === wanted
    }
    case 'same':
      return foldText(actual) === foldText(expected)
    case 'contains':
      return collapse(actual).toLowerCase().includes(collapse(expected).toLowerCase())
    case 'regex':
      return compilePattern(expected).test(actual)
  }
}

/** Text compared the way people mean it: no case, no accents, collapsed spaces ("Régie" ≈ "regie"). */
export function foldText(text: string): string {
  return collapse(text).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Like foldText, also without punctuation or spaces: how column headers are matched ("E-mail:" ≈ "email"). */
export function foldWord(text: string): string {
  return foldText(text).replace(/[^\p{L}\p{N}]+/gu, '')
}

/** The app's word for the caller's word (`valueMap` keys compared with foldText), else the word itself. */
export function mapWord(word: string, valueMap: Readonly<Record<string, string>> | undefined): string {
  if (!valueMap) return word
  if (Object.hasOwn(valueMap, word)) return valueMap[word]!
  const folded = foldText(word)
  for (const [key, value] of Object.entries(valueMap)) if (foldText(key) === folded) return value
  return word
}

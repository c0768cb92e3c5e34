// How selector names, condition texts and extracts compare text: the same rules everywhere.
import type { TextMatch } from '../protocol/automation.ts'

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
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

/** exact: same text after collapsing whitespace; contains: case-insensitive substring; regex: a match anywhere. */
export function matchesText(actual: string, expected: string, mode: TextMatch = 'exact'): boolean {
  switch (mode) {
    case 'exact':
      return collapse(actual) === collapse(expected)
    case 'contains':
      return collapse(actual).toLowerCase().includes(collapse(expected).toLowerCase())
    case 'regex':
      return compilePattern(expected).test(actual)
  }
}

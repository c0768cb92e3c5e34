// Which of an app's options a caller's word means: "defect" is the tracker's “Code_Defect”, "uk"
// is “United Kingdom”, "Osterreich" is “Österreich”. Exact (case/accent-insensitive) first, then
// shared word stems, then prefixes and initials. One plausible option is taken and remembered as
// a value map; several, or none, are a `map_option` question. Pure, no desktop.
import { compact, stems } from '../words.ts'

/** Lower case without accents or spacing: how the runner compares option names too. */
export function fold(text: string): string {
  return deaccent(text).toLowerCase().replace(/\s+/g, ' ').trim()
}

/** The text without accents, case kept (so "FeatureRequest" still splits into words). */
export function deaccent(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '')
}

/** A drop-down's prompt rather than a choice: "Choose…", "-- select --", "Day" in the day list. */
export function isPromptOption(option: string, controlLabel = ''): boolean {
  const text = fold(option)
  return (
    compact(text) === '' ||
    /^(choose|select|pick|please|none selected|any)\b/.test(text.replace(/^[-–—\s]+/, '')) ||
    (controlLabel !== '' && compact(text) === compact(fold(controlLabel)))
  )
}

export type OptionMatch =
  /** The value is an option (ignoring case, accents and separators). */
  | { kind: 'exact'; option: string }
  /** Exactly one option plausibly means it: take it and remember the mapping. */
  | { kind: 'meaning'; option: string; why: string }
  /** Several options are plausible (best first), or none is: ask. */
  | { kind: 'ask'; plausible: string[] }

/** How an option can mean the value, or undefined when nothing links them. */
export function linkOf(value: string, option: string): string | undefined {
  const v = compact(fold(value))
  const o = compact(fold(option))
  if (!v || !o) return undefined
  const valueStems = stems(deaccent(value))
  const optionStems = stems(deaccent(option))
  const shared = valueStems.filter((s) => optionStems.includes(s))
  if (shared.length) return `they share the word “${shared.join(' ')}”`
  const words = fold(option)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
  if (words.length > 1 && v.length >= 2 && v === words.map((w) => w[0]).join(''))
    return `“${value}” reads as the initials of “${option}”`
  if (Math.min(v.length, o.length) >= 3 && (o.startsWith(v) || v.startsWith(o)))
    return `one starts with the other`
  // An abbreviation of one of its words: "docs" ↔ "Documentation", "req" ↔ "Feature_Request".
  // The other way round ("sqlite" over "MS SQL") needs a longer option word: three letters are a
  // family name ("sql"), not an abbreviation of the value.
  const short = valueStems.find((s) =>
    optionStems.some((t) => (s.length >= 3 && t.startsWith(s)) || (t.length >= 4 && s.startsWith(t))),
  )
  if (short) return `“${value}” reads as short for a word of “${option}”`
  return undefined
}

export function matchOption(value: string, options: readonly string[]): OptionMatch {
  const wanted = compact(fold(value))
  const exact = options.find((o) => compact(fold(o)) === wanted)
  if (exact !== undefined && wanted !== '') return { kind: 'exact', option: exact }
  const linked = options.flatMap((option) => {
    const why = linkOf(value, option)
    return why ? [{ option, why }] : []
  })
  if (linked.length === 1) return { kind: 'meaning', option: linked[0]!.option, why: linked[0]!.why }
  return { kind: 'ask', plausible: linked.map((l) => l.option) }
}

/** Whether the runner's own comparison (case and accents aside) already picks this option. */
export function runnerFinds(value: string, option: string): boolean {
  return fold(value) === fold(option)
}

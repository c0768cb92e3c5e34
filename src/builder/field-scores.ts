// Which control each input value goes into: a score from the names (key vs label, id) and the
// kinds (a boolean wants a checkbox, a value among a drop-down's options wants that drop-down),
// then a greedy one-to-one assignment that leaves near-ties and weak matches to a question.
import type { InputLeaf } from './input-leaves.ts'
import type { ScreenControl } from './screen.ts'
import { splitWords, textSimilarity } from './words.ts'

/** At or above: a match the builder takes without asking. */
export const CONFIDENT = 0.75
/** Two candidates closer than this are a tie: ask rather than guess. */
const TIE = 0.1
/** Headers are used only on a near-certain match, and never asked about. */
const HEADER_CONFIDENT = 0.9

const BOOLEAN_WORDS = new Set(['true', 'false', 'yes', 'no', 'on', 'off'])
const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase()

/** Whether the value is one of the control's options (by label, ignoring case). */
export function valueFits(value: unknown, control: ScreenControl): boolean {
  const options = new Set(control.options.map(norm))
  const values = Array.isArray(value) ? value : [value]
  return values.length > 0 && values.every((v) => options.has(norm(String(v))))
}

/** 0…1: how well the value's type suits the control. */
export function typeFit(value: unknown, control: ScreenControl): number {
  if (typeof value === 'boolean') return control.kind === 'checkbox' ? 1 : 0
  if (Array.isArray(value)) return control.kind === 'select' ? (valueFits(value, control) ? 1 : 0.6) : 0
  const text = String(value)
  switch (control.kind) {
    case 'checkbox':
      return BOOLEAN_WORDS.has(norm(text)) ? 0.8 : 0
    case 'select':
      return valueFits(value, control) ? 1 : 0.5
    case 'radio-group':
      return valueFits(value, control) ? 1 : 0.2
    case 'text':
      return control.element.role === 'spinbutton' && !/^-?\d+([.,]\d+)?$/.test(text.trim()) ? 0.3 : 1
  }
}

/** 0…1: key vs the control's names; a nested key may also be read with its parent ("customer" + "name"). */
export function nameScore(leaf: InputLeaf, control: ScreenControl): number {
  const segments = leaf.path.split('.')
  const keys = [leaf.key]
  if (segments.length > 1 && !segments[segments.length - 2]!.startsWith('_'))
    keys.push(`${segments[segments.length - 2]} ${leaf.key}`)
  let best = 0
  for (const key of keys) for (const name of control.names) best = Math.max(best, textSimilarity(key, name))
  return best
}

export function fieldScore(leaf: InputLeaf, control: ScreenControl): number {
  const fit = typeFit(leaf.value, control)
  if (fit === 0) return 0
  // A value that is one of the options is evidence on its own (the key may be "kind" for "Category").
  const optionBonus = control.kind !== 'text' && valueFits(leaf.value, control) ? 0.5 : 0
  return Math.min(1, nameScore(leaf, control) * fit + optionBonus)
}

export interface Assignment {
  leaf: InputLeaf
  control: ScreenControl
  score: number
}

export interface Unsure {
  leaf: InputLeaf
  /** Free controls the value could go into, best first. */
  candidates: { control: ScreenControl; score: number }[]
}

/** Assigns each confident leaf its control; everything else is a question (headers are dropped). */
export function assignFields(
  leaves: InputLeaf[],
  controls: ScreenControl[],
): { assigned: Assignment[]; unsure: Unsure[]; ignored: InputLeaf[] } {
  const pairs = leaves
    .flatMap((leaf) => controls.map((control) => ({ leaf, control, score: fieldScore(leaf, control) })))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score)
  const assigned = new Map<InputLeaf, Assignment>()
  const used = new Set<ScreenControl>()
  const tied = new Set<InputLeaf>()
  for (const pair of pairs) {
    if (assigned.has(pair.leaf) || tied.has(pair.leaf) || used.has(pair.control)) continue
    const needed = pair.leaf.source === 'header' ? HEADER_CONFIDENT : CONFIDENT
    if (pair.score < needed) continue
    // A near-equal other control means a guess, even when a better-matching value took it.
    const rival = pairs.find(
      (p) => p.leaf === pair.leaf && p.control !== pair.control && p.score > pair.score - TIE,
    )
    if (rival) {
      tied.add(pair.leaf)
      continue
    }
    assigned.set(pair.leaf, pair)
    used.add(pair.control)
  }
  const unsure: Unsure[] = []
  const ignored: InputLeaf[] = []
  for (const leaf of leaves) {
    if (assigned.has(leaf)) continue
    if (leaf.source === 'header') {
      ignored.push(leaf)
      continue
    }
    const candidates = controls
      .filter((control) => !used.has(control) && typeFit(leaf.value, control) > 0)
      .map((control) => ({ control, score: fieldScore(leaf, control) }))
      .sort((a, b) => b.score - a.score)
    unsure.push({ leaf, candidates })
  }
  return { assigned: [...assigned.values()], unsure, ignored }
}

/** 0…1: how well a screen can take the sample's values (mean of each value's best control). */
export function screenFitness(leaves: InputLeaf[], controls: ScreenControl[]): number {
  const counted = leaves.filter((leaf) => leaf.source !== 'header')
  if (counted.length === 0) return controls.length > 0 ? 1 : 0
  const best = counted.map((leaf) => Math.max(0, ...controls.map((c) => fieldScore(leaf, c))))
  return best.reduce((a, b) => a + b, 0) / counted.length
}

/** Words of a key as a person would say them ("customerId" → "customer id"). */
export function spokenKey(key: string): string {
  return splitWords(key).join(' ')
}

// Which control each input value goes into: a score from the names (key vs label, placeholder,
// caption, column, id), the kinds (a boolean wants a checkbox or a yes/no radio group, a value
// among a drop-down's options wants that drop-down, a date wants a date control) and the shapes
// (the only e-mail box takes the e-mail), then a greedy one-to-one assignment that leaves
// near-ties and weak matches to a question.
import type { InputLeaf } from '../input-leaves.ts'
import type { ScreenControl } from '../screen.ts'
import { splitWords, textSimilarity } from '../words.ts'
import { isPromptOption, matchOption } from './option-match.ts'
import { booleanValueMap, isIsoDate, type ValueShape, valueShape, writtenIn } from './value-adapters.ts'

/** At or above: a match the builder takes without asking. */
export const CONFIDENT = 0.75
/** A lookup's one value in the screen's search box: confident, yet below a field named for it. */
const QUERY_IN_SEARCH = 0.8
/** Two candidates closer than this are a tie: ask rather than guess. */
const TIE = 0.1

/** Keys a caller uses for the text of a search ("q", "query", "term"). */
const SEARCH_KEYS = new Set([
  'q',
  'query',
  'search',
  'term',
  'terms',
  'keyword',
  'keywords',
  'text',
  's',
  'find',
])
/** A value whose shape alone points at the one control of that shape (an e-mail, a date). */
const DISTINCT_SHAPES = new Set<ValueShape>(['email', 'date'])
/** The shape that alone points at a control: an e-mail, a date, a JSON number (not a numeric string: phones, zips). */
function distinctShape(value: unknown): ValueShape | undefined {
  if (typeof value === 'number') return 'number'
  const shape = valueShape(value)
  return DISTINCT_SHAPES.has(shape) ? shape : undefined
}
/** What the only control of the value's shape scores, even when its name says nothing. */
const UNIQUE_SHAPE = 0.85
/** A distinctly shaped value's score for a control of another make when one of its own make is there. */
const OTHER_SHAPE = 0.85

/** The control's real options (a list's "Choose…" prompt is not one). */
export function realOptions(control: ScreenControl): string[] {
  return control.options.filter((o) => !isPromptOption(o, control.label))
}

/** Whether the value is one of the control's options (by label, ignoring case, accents and separators). */
export function valueFits(value: unknown, control: ScreenControl): boolean {
  const options = realOptions(control)
  const values = Array.isArray(value) ? value : [value]
  return values.length > 0 && values.every((v) => matchOption(String(v), options).kind === 'exact')
}

/** Whether every value plausibly means exactly one option ("defect" → "Code_Defect"). */
function valueMeansOption(value: unknown, control: ScreenControl): boolean {
  const options = realOptions(control)
  const values = Array.isArray(value) ? value : [value]
  return values.length > 0 && values.every((v) => matchOption(String(v), options).kind !== 'ask')
}

/** What the control takes by its make: a date for date inputs, parts and pickers, else its shape. */
export function controlShape(control: ScreenControl): ValueShape | undefined {
  // A time, week or month picker is no place for a date.
  if (control.kind === 'date' && control.element.inputType && control.element.inputType !== 'date')
    return undefined
  if (control.kind === 'date' || control.kind === 'date-parts' || control.datePattern) return 'date'
  if (control.shape === 'email') return 'email'
  if (control.shape === 'number') return 'number'
  return undefined
}

/** What the other native pickers take: a time (14:30), a date and time, a month, a week. */
const PICKER_VALUES: Record<string, RegExp> = {
  time: /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?$/,
  'datetime-local': /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/,
  month: /^\d{4}-\d{2}(-\d{2})?$/,
  week: /^\d{4}-W\d{2}$/,
}

function pickerTakes(inputType: string, value: unknown): boolean {
  const pattern = PICKER_VALUES[inputType]
  return typeof value === 'string' && pattern !== undefined && pattern.test(value.trim())
}

/**
 * A box that says it takes several entries separated by commas ("Separate with commas or the
 * Enter key", "Separate tags with commas"): a list goes in as its items with commas between them.
 */
export function takesCommaList(control: ScreenControl): boolean {
  if (control.kind !== 'text' && !(control.kind === 'select' && control.typeahead)) return false
  const hints = [control.element.description ?? '', control.element.placeholder ?? '', ...control.names]
  return hints.some((h) => /\bseparat\w*\b.{0,40}\bcommas?\b/i.test(h))
}

/** 0…1: how well the value's type suits the control. */
export function typeFit(value: unknown, control: ScreenControl): number {
  const shape = valueShape(value)
  // Native inputs and parts take the ISO date (the runner splits only that); a picker box also
  // takes a date already written in its own layout.
  if (control.kind === 'date' && control.element.inputType && control.element.inputType !== 'date')
    return pickerTakes(control.element.inputType, value) ? 1 : 0
  if (control.kind === 'date' || control.kind === 'date-parts') return isIsoDate(value) ? 1 : 0
  if (shape === 'boolean' && typeof value === 'boolean') {
    if (control.kind === 'checkbox') return 1
    return control.kind === 'radio-group' && booleanValueMap(control.options) ? 1 : 0
  }
  if (Array.isArray(value)) {
    if (takesCommaList(control) && value.every((v) => typeof v !== 'object')) return 1
    return control.kind === 'select' ? (valueFits(value, control) ? 1 : 0.6) : 0
  }
  switch (control.kind) {
    case 'checkbox':
      return shape === 'boolean' ? 0.8 : 0
    case 'select':
      if (control.typeahead) return 1
      // A value no option plainly means still belongs to the list its key names: which option it
      // means is a question of its own (map_option), not a reason to doubt the field.
      return valueFits(value, control) ? 1 : valueMeansOption(value, control) ? 0.9 : 0.8
    case 'radio-group':
      if (shape === 'boolean' && booleanValueMap(control.options)) return 1
      return valueFits(value, control) ? 1 : valueMeansOption(value, control) ? 0.9 : 0.8
    case 'text': {
      if (control.datePattern) return isIsoDate(value) || writtenIn(value, control.datePattern) ? 1 : 0.2
      if (control.shape === 'email' && shape !== 'email') return 0.6
      return control.element.role === 'spinbutton' && shape !== 'number' ? 0.3 : 1
    }
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
  // A search box is often named only by its hint ("Search orders…"): it is where `q` goes.
  if (control.shape === 'search' && SEARCH_KEYS.has(leaf.key.toLowerCase())) best = Math.max(best, 0.9)
  // A lookup's one value goes into the search box too, below any field named for it.
  else if (control.shape === 'search' && leaf.query) best = Math.max(best, QUERY_IN_SEARCH)
  return best
}

/** 0…1: the value's shape matching the control's (an e-mail for an e-mail box), as weak evidence alone. */
export function shapeScore(leaf: InputLeaf, control: ScreenControl): number {
  const shape = distinctShape(leaf.value)
  return shape && controlShape(control) === shape ? 0.6 : 0
}

export function fieldScore(leaf: InputLeaf, control: ScreenControl): number {
  const fit = typeFit(leaf.value, control)
  if (fit === 0) return 0
  // A value that is one of the options is evidence on its own (the key may be "kind" for "Category").
  const optionBonus =
    control.kind === 'select' || control.kind === 'radio-group'
      ? valueFits(leaf.value, control)
        ? 0.5
        : valueMeansOption(leaf.value, control)
          ? 0.3
          : 0
      : 0
  return Math.min(1, Math.max(nameScore(leaf, control) * fit, shapeScore(leaf, control)) + optionBonus)
}

/**
 * Every value × control score. A value of a distinct shape (an e-mail, a date) and the only
 * control of that shape on the screen belong together even when the names say nothing.
 */
export function scorePairs(
  leaves: InputLeaf[],
  controls: ScreenControl[],
): { leaf: InputLeaf; control: ScreenControl; score: number }[] {
  return leaves.flatMap((leaf) => {
    const shape = distinctShape(leaf.value)
    const sameShape = shape ? controls.filter((c) => controlShape(c) === shape) : []
    return controls.map((control) => {
      const score = fieldScore(leaf, control)
      const unique = sameShape.length === 1 && sameShape[0] === control && typeFit(leaf.value, control) > 0
      // With a control made for the value's shape on screen, a plain box is the less likely place.
      const elsewhere = sameShape.length > 0 && !sameShape.includes(control)
      return {
        leaf,
        control,
        score: unique ? Math.max(score, UNIQUE_SHAPE) : elsewhere ? score * OTHER_SHAPE : score,
      }
    })
  })
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

/**
 * Assigns each confident leaf its control; everything else is a question. (`ignored` stays for
 * callers: headers are inputs only when the task names them, and then they are asked about too.)
 */
/** "Password (again)", "Confirm email", "Repeat password", "Password confirmation". */
export const AGAIN = /\b(again|confirm(ation)?|repeat(ed)?|re-?type|re-?enter|verify|verification)\b/i

/** A box that asks for a value again: it takes what the box it repeats takes (map-fields.ts, repeatBoxes). */
export function repeatsAnother(control: ScreenControl): boolean {
  return control.kind === 'text' && AGAIN.test(control.label)
}

export function assignFields(
  leaves: InputLeaf[],
  controls: ScreenControl[],
): { assigned: Assignment[]; unsure: Unsure[]; ignored: InputLeaf[] } {
  const pairs = scorePairs(leaves, controls)
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score)
  const assigned = new Map<InputLeaf, Assignment>()
  const used = new Set<ScreenControl>()
  const tied = new Set<InputLeaf>()
  for (const pair of pairs) {
    if (assigned.has(pair.leaf) || tied.has(pair.leaf) || used.has(pair.control)) continue
    if (pair.score < CONFIDENT) continue
    // A near-equal other control means a guess, even when a better-matching value took it; a box
    // that asks for the value again ("Confirm Password") is no rival: it gets the same value.
    const rival = pairs.find(
      (p) =>
        p.leaf === pair.leaf &&
        p.control !== pair.control &&
        p.score > pair.score - TIE &&
        !(repeatsAnother(p.control) && !repeatsAnother(pair.control)),
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
    const candidates = scorePairs([leaf], controls)
      .filter((p) => !used.has(p.control) && typeFit(leaf.value, p.control) > 0)
      .map(({ control, score }) => ({ control, score }))
      .sort((x, y) => y.score - x.score)
    unsure.push({ leaf, candidates })
  }
  return { assigned: [...assigned.values()], unsure, ignored }
}

/** 0…1: how well a screen can take the sample's values (mean of each value's best control). */
export function screenFitness(leaves: InputLeaf[], controls: ScreenControl[]): number {
  if (leaves.length === 0) return controls.length > 0 ? 1 : 0
  const pairs = scorePairs(leaves, controls)
  const best = leaves.map((leaf) => Math.max(0, ...pairs.filter((p) => p.leaf === leaf).map((p) => p.score)))
  return best.reduce((a, b) => a + b, 0) / leaves.length
}

/**
 * Why the value goes there, in the screen's words: the name that matched ("its label “Type”",
 * "the text before it, “EMail”", "its column “Hours”", "its hint “Search orders…”"), the only
 * control of the value's shape, or the value being one of the options.
 */
export function matchReason(leaf: InputLeaf, control: ScreenControl, controls: ScreenControl[]): string {
  const shape = distinctShape(leaf.value)
  const sameShape = shape ? controls.filter((c) => controlShape(c) === shape) : []
  const byName = nameScore(leaf, control)
  if (shape && sameShape.length === 1 && sameShape[0] === control && byName < CONFIDENT)
    return `the only ${shape === 'email' ? 'e-mail' : shape} field`
  if (
    control.shape === 'search' &&
    ((byName >= 0.9 && SEARCH_KEYS.has(leaf.key.toLowerCase())) || (leaf.query && byName >= QUERY_IN_SEARCH))
  )
    return 'the search box'
  if (
    (control.kind === 'select' || control.kind === 'radio-group') &&
    valueFits(leaf.value, control) &&
    byName < CONFIDENT
  )
    return 'the value is one of its options'
  let best = { name: control.label, score: -1 }
  for (const name of control.names) {
    const score = Math.max(textSimilarity(leaf.key, name), 0)
    if (score > best.score) best = { name, score }
  }
  const how = control.nameSources?.[best.name] ?? 'name'
  return `${how} “${best.name}”`
}

/** Words of a key as a person would say them ("customerId" → "customer id"). */
export function spokenKey(key: string): string {
  return splitWords(key).join(' ')
}

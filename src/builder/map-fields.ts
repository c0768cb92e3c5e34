// Step 3 of a build: every input value gets its control (or is knowingly left out), and every
// required control gets a value. Confident matches are taken; the rest become questions that
// name fields the way the screen does. Each value is then written the way its control wants it
// (a date split into parts, a picker's format, a caller's word mapped to the app's option).
import {
  findMatches,
  indexTree,
  lookupPath,
  mapWord,
  renderSelector,
  resolveSelector,
} from '../automation/index.ts'
import type { Selector, Step } from '../protocol/automation.ts'
import type { UiElement } from '../protocol/elements.ts'
import { assignFields, CONFIDENT, matchReason, realOptions, type Unsure } from './field-scores.ts'
import { type InputLeaf, shownValue } from './input-leaves.ts'
import { fold, matchOption, runnerFinds } from './option-match.ts'
import { readControls, type ScreenControl } from './screen.ts'
import { designSelector } from './selector-design.ts'
import type { BuildSession } from './session.ts'
import {
  booleanOf,
  booleanValueMap,
  isIsoDate,
  nativeDateTemplate,
  partText,
  valueShape,
  writtenIn,
} from './value-adapters.ts'

export interface FieldStep {
  step: Step
  control: ScreenControl
  /** The input value it takes, or undefined for a constant the person chose. */
  leaf?: InputLeaf
}

const SKIP = '(skip)'
const EMPTY = '(empty)'
const NONE = '(none)'
/** Options listed in a map_option question when none is plausible (a language list has ~40). */
const MAX_OPTIONS = 40
const PART_NAMES = { day: 'day', month: 'month', year: 'year' } as const

type Use = { leaf?: InputLeaf; constant?: string }

export async function mapFields(
  session: BuildSession,
  root: UiElement,
  leaves: InputLeaf[],
  taken: readonly UiElement[] = [],
  options: { askRequired?: boolean } = {},
): Promise<FieldStep[]> {
  const controls = readControls(root).filter((c) => !taken.includes(c.element))
  const { assigned, unsure, ignored } = assignFields(leaves, controls)
  const mapping = new Map<ScreenControl, Use>()
  for (const { leaf, control, score } of assigned) {
    mapping.set(control, { leaf })
    const why = matchReason(leaf, control, controls)
    session.progress(
      'map',
      `“${leaf.path}” goes into “${control.label}”: ${why} (match ${score.toFixed(2)})`,
      {
        input: leaf.path,
        field: control.label,
        score,
        why,
      },
    )
  }
  // One line for all of them: request headers rarely feed a field, and a line each buries the rest.
  if (ignored.length)
    session.progress(
      'map',
      `Request headers that match no field clearly are not used: ${ignored.map((l) => `“${l.key}”`).join(', ')}`,
      { inputs: ignored.map((l) => l.path) },
    )
  const dateControls = controls.filter((c) => c.kind === 'date' || c.kind === 'date-parts')
  for (const item of unsure) await askWhere(session, item, mapping, dateControls)

  const fed = new Set([...mapping.values()].flatMap((m) => (m.leaf ? [m.leaf] : [])))
  // When extending, a required field nothing feeds was settled by the first build (or is the point
  // of the sample: "what if the email is missing"), so it is not asked again.
  for (const control of options.askRequired === false ? [] : controls) {
    if (!control.required || mapping.has(control)) continue
    const unused = leaves.filter((l) => !fed.has(l))
    const choice = await askRequired(session, control, unused)
    if (!choice) continue
    mapping.set(control, choice)
    if (choice.leaf) fed.add(choice.leaf)
  }
  const steps: FieldStep[] = []
  for (const control of controls) {
    const use = mapping.get(control)
    if (use) steps.push(...(await fieldSteps(session, root, control, use, leaves)))
  }
  return steps
}

async function askWhere(
  session: BuildSession,
  { leaf, candidates }: Unsure,
  mapping: Map<ScreenControl, Use>,
  dateControls: ScreenControl[] = [],
): Promise<void> {
  const free = candidates.filter((c) => !mapping.has(c.control)).slice(0, 10)
  if (valueShape(leaf.value) === 'date' && !isIsoDate(leaf.value) && dateControls.length)
    session.progress(
      'map',
      `“${leaf.path}” (“${shownValue(leaf.value)}”) is a date not written as YYYY-MM-DD; ` +
        `${dateControls.map((c) => `“${c.label}”`).join(', ')} ${dateControls.length > 1 ? 'take ISO dates only, so they are' : 'takes ISO dates only, so it is'} not offered. Send it as YYYY-MM-DD`,
      { input: leaf.path },
    )
  if (free.length === 0) {
    session.progress('map', `Nothing on this screen can take “${leaf.path}”; it is not used`, {
      input: leaf.path,
    })
    return
  }
  const [best, next] = free
  const why =
    !best || best.score < 0.5
      ? 'no field is named like it'
      : next && best.score - next.score < 0.1
        ? `it fits “${best.control.label}” and “${next.control.label}” about equally`
        : best.score < CONFIDENT
          ? `it matches “${best.control.label}” only partly`
          : `another field fits it about as well as “${best.control.label}”`
  session.progress('map', `Not sure where “${leaf.path}” goes (${why}); asking`, {
    input: leaf.path,
    candidates: free.map((c) => ({ field: c.control.label, score: Number(c.score.toFixed(2)) })),
  })
  const answer = await session.ask({
    kind: 'map_field',
    text: `Where should the value of “${leaf.key}” (“${shownValue(leaf.value)}”) go?`,
    options: [
      ...free.map(({ control }) => ({ value: control.key, label: control.label })),
      { value: SKIP, label: 'Nowhere: leave it out' },
    ],
    multiple: false,
  })
  const chosen = free.find((c) => c.control.key === answer)
  if (!chosen) {
    session.progress('map', `“${leaf.path}” is left out, as answered`, { input: leaf.path })
    return
  }
  mapping.set(chosen.control, { leaf })
  session.progress('map', `“${leaf.path}” goes into “${chosen.control.label}”, as answered`, {
    input: leaf.path,
    field: chosen.control.label,
  })
}

async function askRequired(
  session: BuildSession,
  control: ScreenControl,
  unused: InputLeaf[],
): Promise<Use | undefined> {
  session.progress('map', `“${control.label}” is required but no input value feeds it; asking`, {
    field: control.label,
  })
  const fromInput = unused.map((leaf) => ({
    value: `input:${leaf.path}`,
    label: `The value of “${leaf.key}” (${shownValue(leaf.value)})`,
  }))
  const options =
    control.kind === 'text'
      ? fromInput.length
        ? [...fromInput, { value: EMPTY, label: 'Leave it empty' }]
        : []
      : control.kind === 'checkbox'
        ? [
            { value: 'true', label: 'Tick it' },
            { value: 'false', label: 'Leave it unticked' },
          ]
        : control.kind === 'select' || control.kind === 'radio-group'
          ? [...fromInput, ...realOptions(control).map((o) => ({ value: `option:${o}`, label: o }))]
          : fromInput.length
            ? [...fromInput, { value: EMPTY, label: 'Leave it empty' }]
            : []
  const text =
    options.length === 0
      ? `“${control.label}” must be filled in, but the sample has no value for it. What should always go there?`
      : `“${control.label}” must be filled in, but the sample has no value for it. What should go there?`
  const answer = await session.ask({ kind: 'fill_required', text, options, multiple: false })
  const value = Array.isArray(answer) ? (answer[0] ?? '') : answer
  if (value === EMPTY) return undefined
  if (value.startsWith('input:')) return { leaf: unused.find((l) => `input:${l.path}` === value) }
  if (value.startsWith('option:')) return { constant: value.slice('option:'.length) }
  return { constant: value }
}

/**
 * The steps that put the value into the control, written the way the control wants it. A
 * drop-down or radio value that names no option plainly is matched by meaning (one plausible
 * option is taken and remembered in `valueMap`; several or none are asked about).
 */
async function fieldSteps(
  session: BuildSession,
  root: UiElement,
  control: ScreenControl,
  use: Use,
  leaves: InputLeaf[],
): Promise<FieldStep[]> {
  const { leaf } = use
  const label = control.label
  const value = leaf ? `{{${leaf.path}}}` : (use.constant ?? '')
  const optional = leaf ? { optional: true } : {}
  const target = () => designSelector(root, control.element, `the “${label}” field`)
  const one = (step: Step): FieldStep[] => [{ step, control, leaf }]
  switch (control.kind) {
    case 'text': {
      if (leaf && control.datePattern && isIsoDate(leaf.value)) {
        const pattern = control.datePattern
        session.progress('map', `“${label}” shows the format ${pattern}: the date is written that way`, {
          input: leaf.path,
          field: label,
          format: pattern,
        })
        const template = `{{${leaf.path} | date:${pattern}}}`
        return one({ kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value: template })
      }
      if (leaf && control.datePattern && writtenIn(leaf.value, control.datePattern))
        session.progress(
          'map',
          `“${leaf.path}” is already written as “${label}” shows dates (${control.datePattern}): it is typed as is`,
          {
            input: leaf.path,
            field: label,
            format: control.datePattern,
          },
        )
      return one({ kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value })
    }
    case 'date': {
      // A time, month or week picker takes the caller's value as it is (checked by its shape).
      const kind = control.element.inputType ?? 'date'
      const template = leaf
        ? kind === 'date'
          ? nativeDateTemplate(leaf.path, leaf.value)
          : `{{${leaf.path}}}`
        : value
      const what = kind === 'datetime-local' ? 'date and time' : kind
      if (leaf)
        session.progress('map', `“${label}” is a ${what} input: it takes the ${what} as one value`, {
          input: leaf.path,
          field: label,
        })
      return one({ kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value: template })
    }
    case 'date-parts': {
      const parts = control.parts ?? []
      if (leaf)
        session.progress(
          'map',
          `“${label}” is a date in ${parts.length} parts; “${leaf.path}” fills them in the app’s format: ${parts
            .map(
              (p) =>
                `${PART_NAMES[p.part]} ${isIsoDate(leaf.value) ? `“${partText(p.filter, leaf.value)}”` : `(${p.filter})`}`,
            )
            .join(', ')}`,
          { input: leaf.path, field: label, parts: parts.map((p) => ({ part: p.part, filter: p.filter })) },
        )
      return parts.map((part) => {
        const partValue = leaf ? `{{${leaf.path} | ${part.filter}}}` : value
        const partTarget = designSelector(root, part.element, `the ${PART_NAMES[part.part]} of “${label}”`)
        const name = `${part.kind === 'select' ? 'Choose' : 'Fill'} “${label}” (${PART_NAMES[part.part]})`
        const step: Step =
          part.kind === 'select'
            ? { kind: 'select', name, ...optional, target: partTarget, value: partValue }
            : { kind: 'fill', name, ...optional, target: partTarget, value: partValue }
        return { step, control: { ...control, element: part.element }, leaf }
      })
    }
    case 'select': {
      if (!leaf || control.typeahead)
        return one({ kind: 'select', name: `Choose “${label}”`, ...optional, target: target(), value })
      const valueMap = await optionMap(session, control, leaf, realOptions(control))
      if (valueMap === undefined) return []
      return one({
        kind: 'select',
        name: `Choose “${label}”`,
        ...optional,
        target: target(),
        value,
        ...(Object.keys(valueMap).length ? { valueMap } : {}),
      })
    }
    case 'checkbox':
      return one({ kind: 'check', name: `Set “${label}”`, ...optional, target: target(), checked: value })
    case 'radio-group': {
      // A yes/no group takes the caller's true/false (or yes/no) through a map, whatever live calls send.
      const words = leaf && booleanOf(leaf.value) !== undefined ? booleanValueMap(control.options) : undefined
      if (leaf && words) {
        session.progress(
          'map',
          `“${label}” is a yes/no choice: true picks “${words.true}”, false picks “${words.false}”`,
          {
            input: leaf.path,
            field: label,
            valueMap: words,
          },
        )
        return one(radioStep(control, value, optional, words))
      }
      if (!leaf)
        return one(
          radioStep(control, value, optional, undefined, radioSelector(root, control, value, leaves)),
        )
      const valueMap = await optionMap(session, control, leaf, control.options)
      if (valueMap === undefined) return []
      if (Object.keys(valueMap).length) return one(radioStep(control, value, optional, valueMap))
      return one(radioStep(control, value, optional, undefined, radioSelector(root, control, value, leaves)))
    }
  }
}

function radioStep(
  control: ScreenControl,
  value: string,
  optional: { optional?: boolean },
  valueMap: Record<string, string> | undefined,
  target?: Selector,
): Step {
  return {
    kind: 'check',
    name: `Pick “${control.label}”`,
    ...optional,
    target: target ?? {
      fingerprints: [{ by: 'role', role: 'radio', name: value, match: 'exact' }],
      description: `the “${control.label}” choice`,
    },
    checked: true,
    ...(valueMap ? { valueMap } : {}),
  }
}

/**
 * The caller's words → the app's options, for the sample's value(s): exact names need no entry
 * (unless only separators differ), one plausible option is taken, anything else is asked. Undefined
 * when the person says none of the options means it (the value does not belong in this control).
 */
async function optionMap(
  session: BuildSession,
  control: ScreenControl,
  leaf: InputLeaf,
  options: string[],
): Promise<Record<string, string> | undefined> {
  const valueMap: Record<string, string> = {}
  const values = (Array.isArray(leaf.value) ? leaf.value : [leaf.value]).map(String)
  for (const word of values) {
    const match = matchOption(word, options)
    if (match.kind === 'exact') {
      if (!runnerFinds(word, match.option)) valueMap[word] = match.option
      continue
    }
    if (match.kind === 'meaning') {
      valueMap[word] = match.option
      session.progress('map', `“${word}” means “${match.option}” in “${control.label}” (${match.why})`, {
        input: leaf.path,
        field: control.label,
        valueMap: { [word]: match.option },
      })
      continue
    }
    const listed = (match.plausible.length >= 2 ? match.plausible : options).slice(0, MAX_OPTIONS)
    const why =
      match.plausible.length >= 2
        ? `it could be “${match.plausible.slice(0, 3).join('”, “')}”`
        : 'no option is named like it'
    session.progress('map', `Which option of “${control.label}” means “${word}”? (${why}); asking`, {
      input: leaf.path,
      field: control.label,
      plausible: match.plausible,
    })
    const answer = await session.ask({
      kind: 'map_option',
      text: `“${control.label}” has no option called “${word}” (the value of “${leaf.key}”). Which option means “${word}”?`,
      options: [...listed.map((o) => ({ value: o, label: o })), { value: NONE, label: 'None of these' }],
      multiple: false,
    })
    const chosen = Array.isArray(answer) ? answer[0] : answer
    if (!chosen || chosen === NONE || !options.includes(chosen)) {
      session.progress(
        'map',
        `No option of “${control.label}” means “${word}”, as answered: “${leaf.path}” is not used there`,
        {
          input: leaf.path,
          field: control.label,
        },
      )
      return undefined
    }
    valueMap[word] = chosen
    session.progress('map', `“${word}” means “${chosen}” in “${control.label}”, as answered`, {
      input: leaf.path,
      field: control.label,
      valueMap: { [word]: chosen },
    })
  }
  return valueMap
}

/** The radio named by the value, matched case-insensitively unless that would be ambiguous. */
function radioSelector(
  root: UiElement,
  control: ScreenControl,
  value: string,
  leaves: InputLeaf[],
): Selector {
  const description = `the “${control.label}” choice`
  const leaf = leaves.find((l) => `{{${l.path}}}` === value)
  const scope = leaf ? nestedScope(leaf.path, leaf.value) : {}
  const index = indexTree(root)
  for (const match of ['contains', 'exact'] as const) {
    const selector: Selector = {
      fingerprints: [{ by: 'role', role: 'radio', name: value, match }],
      description,
    }
    const found = findMatches(index, renderSelector(selector, scope).fingerprints[0]!)
    if (found.length === 1 && control.radios.includes(found[0]!)) return selector
  }
  // The input's value names no radio uniquely as written (accents, say): the exact name, which the
  // runner compares without case or accents. Never a fixed radio, which live calls could not change.
  if (leaf) return { fingerprints: [{ by: 'role', role: 'radio', name: value, match: 'exact' }], description }
  // A constant the person chose: that radio itself.
  const radio = control.radios.find((r) => fold(r.name) === fold(value))
  return radio
    ? designSelector(root, radio, description)
    : { fingerprints: [{ by: 'role', role: 'radio', name: value, match: 'exact' }], description }
}

/** A scope in which `path` has `value` ("a.b" → {a: {b: value}}). */
function nestedScope(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reduceRight<Record<string, unknown>>(
      (inner, key, i, all) => ({ [key]: i === all.length - 1 ? value : inner }),
      {},
    )
}

/**
 * A drop-down or radio step met a word of a new sample that no option (nor its valueMap) names:
 * on the screen where that step stopped, the word is matched to the option that means it (or
 * asked about, map_option) and the step comes back with the entry added to its valueMap, so
 * live calls that send it work too. Undefined when the step is not such a step, or no option
 * means the word (as answered).
 */
export async function learnOptionWord(
  session: BuildSession,
  root: UiElement,
  step: Step,
  scope: Record<string, unknown>,
): Promise<Step | undefined> {
  if (step.kind !== 'select' && step.kind !== 'check') return undefined
  const template =
    step.kind === 'select' ? step.value : step.target.fingerprints.find((f) => f.by === 'role')?.name
  const path = template ? /^\{\{\s*([\w$-]+(?:\.[\w$-]+)*)\s*\}\}$/.exec(template)?.[1] : undefined
  if (!path) return undefined
  const value = lookupPath(scope, path)
  if (value === undefined || value === null) return undefined
  const controls = readControls(root)
  const control =
    step.kind === 'select'
      ? controlOf(root, controls, step.target, scope)
      : controls.find(
          (c) => c.kind === 'radio-group' && step.target.description === `the “${c.label}” choice`,
        )
  if (!control) return undefined
  const options = control.kind === 'radio-group' ? control.options : realOptions(control)
  const words = (Array.isArray(value) ? value : [value]).map(String)
  const known = step.valueMap ?? {}
  const missing = words.filter((w) => !options.some((o) => runnerFinds(mapWord(w, known), o)))
  if (missing.length === 0) return undefined
  const leaf: InputLeaf = { path, key: path.split('.').at(-1) ?? path, value: missing, source: 'body' }
  const added = await optionMap(session, control, leaf, options)
  if (added === undefined) return undefined
  return { ...step, valueMap: { ...known, ...added } }
}

function controlOf(
  root: UiElement,
  controls: ScreenControl[],
  target: Selector,
  scope: Record<string, unknown>,
): ScreenControl | undefined {
  const found = resolveSelector(root, renderSelector(target, scope))
  return found.status === 'found' ? controls.find((c) => c.element === found.element) : undefined
}

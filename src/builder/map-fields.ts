// Step 3 of a build: every input value gets its control (or is knowingly left out), and every
// required control gets a value. Confident matches are taken; the rest become questions that
// name fields the way the screen does.
import { findMatches, indexTree, renderSelector } from '../automation/index.ts'
import type { Selector, Step } from '../protocol/automation.ts'
import type { UiElement } from '../protocol/elements.ts'
import { assignFields, CONFIDENT, type Unsure } from './field-scores.ts'
import { type InputLeaf, shownValue } from './input-leaves.ts'
import { readControls, type ScreenControl } from './screen.ts'
import { designSelector } from './selector-design.ts'
import type { BuildSession } from './session.ts'

export interface FieldStep {
  step: Step
  control: ScreenControl
  /** The input value it takes, or undefined for a constant the person chose. */
  leaf?: InputLeaf
}

const SKIP = '(skip)'
const EMPTY = '(empty)'

export async function mapFields(
  session: BuildSession,
  root: UiElement,
  leaves: InputLeaf[],
  taken: readonly UiElement[] = [],
  options: { askRequired?: boolean } = {},
): Promise<FieldStep[]> {
  const controls = readControls(root).filter((c) => !taken.includes(c.element))
  const { assigned, unsure, ignored } = assignFields(leaves, controls)
  const mapping = new Map<ScreenControl, { leaf?: InputLeaf; constant?: string }>()
  for (const { leaf, control, score } of assigned) {
    mapping.set(control, { leaf })
    session.progress('map', `“${leaf.path}” goes into “${control.label}” (match ${score.toFixed(2)})`, {
      input: leaf.path,
      field: control.label,
      score,
    })
  }
  // One line for all of them: request headers rarely feed a field, and a line each buries the rest.
  if (ignored.length)
    session.progress(
      'map',
      `Request headers that match no field clearly are not used: ${ignored.map((l) => `“${l.key}”`).join(', ')}`,
      { inputs: ignored.map((l) => l.path) },
    )
  for (const item of unsure) await askWhere(session, item, mapping)

  const fed = new Set([...mapping.values()].flatMap((m) => (m.leaf ? [m.leaf] : [])))
  // When extending, a required field nothing feeds was settled by the first build (or is the point
  // of the sample: "what if the email is missing"), so it is not asked again.
  for (const control of options.askRequired === false ? [] : controls) {
    if (!control.required || mapping.has(control)) continue
    const unused = leaves.filter((l) => !fed.has(l) && l.source !== 'header')
    const choice = await askRequired(session, control, unused)
    if (!choice) continue
    mapping.set(control, choice)
    if (choice.leaf) fed.add(choice.leaf)
  }
  return controls.flatMap((control) => {
    const use = mapping.get(control)
    return use ? [{ step: fieldStep(root, control, use, leaves), control, leaf: use.leaf }] : []
  })
}

async function askWhere(
  session: BuildSession,
  { leaf, candidates }: Unsure,
  mapping: Map<ScreenControl, { leaf?: InputLeaf; constant?: string }>,
): Promise<void> {
  const free = candidates.filter((c) => !mapping.has(c.control)).slice(0, 10)
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
): Promise<{ leaf?: InputLeaf; constant?: string } | undefined> {
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
        : [...fromInput, ...control.options.map((o) => ({ value: `option:${o}`, label: o }))]
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

function fieldStep(
  root: UiElement,
  control: ScreenControl,
  use: { leaf?: InputLeaf; constant?: string },
  leaves: InputLeaf[],
): Step {
  const label = control.label
  const value = use.leaf ? `{{${use.leaf.path}}}` : (use.constant ?? '')
  const optional = use.leaf ? { optional: true } : {}
  const target = () => designSelector(root, control.element, `the “${label}” field`)
  switch (control.kind) {
    case 'text':
      return { kind: 'fill', name: `Fill “${label}”`, ...optional, target: target(), value }
    case 'select':
      return { kind: 'select', name: `Choose “${label}”`, ...optional, target: target(), value }
    case 'checkbox':
      return { kind: 'check', name: `Set “${label}”`, ...optional, target: target(), checked: value }
    case 'radio-group':
      return {
        kind: 'check',
        name: `Pick “${label}”`,
        ...optional,
        target: radioSelector(root, control, value, leaves),
        checked: true,
      }
  }
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
  // The value names no radio uniquely even exactly: fall back to the radio the sample picks.
  const wanted = String(leaf?.value ?? value).toLowerCase()
  const radio = control.radios.find((r) => r.name.toLowerCase() === wanted) ?? control.radios[0]!
  return designSelector(root, radio, description)
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

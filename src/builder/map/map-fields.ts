// Step 3 of a build: every input value gets its control (or is knowingly left out), and every
// required control gets a value. Confident matches are taken; the rest become questions that
// name fields the way the screen does. Each value is then written the way its control wants it
// (field-steps.ts).
import type { UiElement } from '../../protocol/elements.ts'
import { isDecline } from '../../protocol/questions.ts'
import { askToPoint } from '../ask/pointing.ts'
import { type InputLeaf, shownValue } from '../input-leaves.ts'
import { readPrompt } from '../locate/prompt.ts'
import { readControls, type ScreenControl } from '../screen.ts'
import { BuildFailure, type BuildSession, canBeShown } from '../session.ts'
import { stems } from '../words.ts'
import {
  AGAIN,
  assignFields,
  CONFIDENT,
  matchReason,
  realOptions,
  repeatsAnother,
  type Unsure,
} from './field-scores.ts'
import { type FieldStep, type FieldUse, fieldSteps } from './field-steps.ts'
import { isPromptOption } from './option-match.ts'
import { isIsoDate, valueShape } from './value-adapters.ts'

export type { FieldStep } from './field-steps.ts'

/** A candidate's score from which its field is named like the value (below it: "no field is named like it"). */
export const NAMED_LIKE = 0.5
const SKIP = '(skip)'
const EMPTY = '(empty)'

export async function mapFields(
  session: BuildSession,
  root: UiElement,
  leaves: InputLeaf[],
  taken: readonly UiElement[] = [],
  options: {
    askRequired?: boolean
    /** Values the way to the form already used (the row it was opened from). */
    used?: readonly InputLeaf[]
    /** Text boxes that opened when a line inviting writing was pressed (inline-editors.ts). */
    editors?: readonly UiElement[]
  } = {},
): Promise<FieldStep[]> {
  const controls = readControls(root).filter((c) => !taken.includes(c.element))
  const { assigned, unsure, ignored } = assignFields(leaves, controls)
  const mapping = new Map<ScreenControl, FieldUse>()
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
  writtenInEditor(session, unsure, mapping, options.editors ?? [])
  // A box that asks for a value again is never where a value goes first (see repeatBoxes).
  for (const item of unsure.filter((u) => ![...mapping.values()].some((m) => m.leaf === u.leaf))) {
    const first = item.candidates.filter((c) => !repeatsAnother(c.control))
    await askWhere(session, { ...item, candidates: first }, mapping, dateControls, controls, options.used)
  }
  repeatBoxes(session, controls, mapping)

  const fed = new Set([...mapping.values()].flatMap((m) => (m.leaf ? [m.leaf] : [])))
  // When extending, a required field nothing feeds was settled by the first build (or is the point
  // of the sample: "what if the email is missing"), so it is not asked again.
  for (const control of options.askRequired === false ? [] : controls) {
    if (!control.required || mapping.has(control)) continue
    // A required field that already holds a value (the record's own, on the form that changes
    // it; the app's default) is left as it stands: only an empty one needs a value from the job.
    if (holdsValue(control)) {
      session.progress(
        'map',
        `“${control.label}” is required and already holds a value; it is left as it is`,
        {
          field: control.label,
        },
      )
      continue
    }
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

/**
 * The one text that no field is named for, and the one editor that opened when its line was
 * pressed ("Type / to choose a block"): the editor was opened to write it, as a person would. Only
 * prose (several words) and only one of each; anything else is asked.
 */
function writtenInEditor(
  session: BuildSession,
  unsure: Unsure[],
  mapping: Map<ScreenControl, FieldUse>,
  editors: readonly UiElement[],
): void {
  const prose = unsure.filter(
    (u) => typeof u.leaf.value === 'string' && u.leaf.value.trim().split(/\s+/).length >= 3,
  )
  const free = editors.filter((e) => ![...mapping.keys()].some((c) => c.element === e))
  if (prose.length !== 1 || free.length !== 1) return
  const { leaf, candidates } = prose[0]!
  const editor = candidates.find((c) => c.control.element === free[0])
  if (!editor || candidates.some((c) => c !== editor && c.score >= NAMED_LIKE)) return
  mapping.set(editor.control, { leaf })
  session.progress(
    'map',
    `“${leaf.path}” goes into “${editor.control.label}”: the editor that opened for the text no field is named for`,
    { input: leaf.path, field: editor.control.label },
  )
}

async function askWhere(
  session: BuildSession,
  { leaf, candidates }: Unsure,
  mapping: Map<ScreenControl, FieldUse>,
  dateControls: ScreenControl[] = [],
  controls: ScreenControl[] = [],
  used: readonly InputLeaf[] = [],
): Promise<void> {
  const free = candidates.filter((c) => !mapping.has(c.control)).slice(0, 10)
  if (valueShape(leaf.value) === 'date' && !isIsoDate(leaf.value) && dateControls.length)
    session.progress(
      'map',
      `“${leaf.path}” (“${shownValue(leaf.value)}”) is a date not written as YYYY-MM-DD; ` +
        `${dateControls.map((c) => `“${c.label}”`).join(', ')} ${dateControls.length > 1 ? 'take ISO dates only, so they are' : 'takes ISO dates only, so it is'} not offered. Send it as YYYY-MM-DD`,
      { input: leaf.path },
    )
  if (free.length === 0 && !used.includes(leaf) && namedByTask(session, leaf)) {
    // A value the task names is part of the task: left out only when the person says so, and
    // when the person can show where it is entered, shown instead.
    const showable = canBeShown(session)
    const pointed = await askToPoint(
      session,
      `Nothing on this screen is free to take “${leaf.key}” (“${shownValue(leaf.value)}”), which the task names. ` +
        `Point at the field where it goes, or say it is not on this screen (${showable ? 'then you show me how it is entered' : 'then every call leaves it out'}).`,
    )
    if (!pointed && showable) throw notHere(leaf)
    const at =
      pointed &&
      readControls(pointed.snapshot.root).find(
        (c) => c.element === pointed.element || contains(c.element, pointed.element),
      )
    const same = at && controls.find((c) => c.label === at.label && c.kind === at.kind && !mapping.has(c))
    if (!same) {
      session.progress(
        'map',
        pointed
          ? `“${leaf.path}” is left out: what was pointed at is no field this form has free for it (taken by another value, or not shown here)`
          : `“${leaf.path}” is left out, as answered`,
        { input: leaf.path },
      )
      return
    }
    mapping.set(same, { leaf })
    session.progress('map', `“${leaf.path}” goes into “${same.label}”, as pointed at`, {
      input: leaf.path,
      field: same.label,
    })
    return
  }
  if (free.length === 0) {
    session.progress('map', `Nothing on this screen can take “${leaf.path}”; it is not used`, {
      input: leaf.path,
    })
    return
  }
  const [best, next] = free
  const why =
    !best || best.score < NAMED_LIKE
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
  let chosen = free.find((c) => c.control.key === answer)
  if (!chosen && isDecline(answer)) {
    // None of the fields offered: the person points at the one it goes into (any field on screen).
    const pointed = await askToPoint(
      session,
      `Point at the field where the value of “${leaf.key}” (“${shownValue(leaf.value)}”) goes, or say it is not on this screen.`,
    )
    const controls = pointed ? readControls(pointed.snapshot.root) : []
    const at =
      pointed && controls.find((c) => c.element === pointed.element || contains(c.element, pointed.element))
    const same = at && free.find((c) => c.control.label === at.label && c.control.kind === at.kind)
    chosen = same
    // A value the task names that is not on this screen is entered somewhere this screen does not
    // show yet (a line of a list inside the form, added by its own "New"): when the person can
    // show how, the build asks them to, rather than leave it out of every call.
    if (!chosen && namedByTask(session, leaf) && canBeShown(session)) throw notHere(leaf)
  }
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

/** A value the person says is not on this screen: the build asks to be shown (pipeline.ts). */
function notHere(leaf: InputLeaf): BuildFailure {
  return new BuildFailure(
    'FIELD_NOT_MAPPED',
    `“${leaf.key}” (“${shownValue(leaf.value)}”) has no field on this screen that the person could point at`,
  )
}

/**
 * The task's own words name the value ("… with the given title, text and tags" for `tags`): a
 * job that writes and drops it would do less than asked on every call, so it is never left out
 * unasked. A value only the sample brings (a reference the app has no field for) may be.
 */
function namedByTask(session: BuildSession, leaf: InputLeaf): boolean {
  if (leaf.query || leaf.source === 'header' || session.request.route?.method === 'GET') return false
  const task = readPrompt(session.request.prompt).taskStems
  const words = stems(leaf.key.replace(/([a-z])([A-Z])/g, '$1 $2'))
  return words.length > 0 && words.every((w) => task.includes(w))
}

/**
 * A box that asks for a value again takes what the box it repeats takes, as a person types a new
 * password twice: the box of the same kind and input type that the value went into, named by
 * the same words once "again", "confirm"… are left out (docs/builder.md, "Forms as people use them").
 */
function repeatBoxes(
  session: BuildSession,
  controls: ScreenControl[],
  mapping: Map<ScreenControl, FieldUse>,
) {
  for (const control of controls) {
    if (mapping.has(control) || !repeatsAnother(control)) continue
    const type = control.element.inputType
    const words =
      control.label
        .replace(AGAIN, ' ')
        .toLowerCase()
        .match(/\p{L}+/gu) ?? []
    const fed = [...mapping].filter(
      ([c, use]) =>
        use.leaf &&
        c !== control &&
        !repeatsAnother(c) &&
        c.kind === control.kind &&
        c.element.inputType === type,
    )
    const named = fed.filter(([c]) => words.every((w) => c.label.toLowerCase().includes(w)))
    const twin = named.length === 1 ? named[0] : fed.length === 1 && type === 'password' ? fed[0] : undefined
    if (!twin) continue
    mapping.set(control, { leaf: twin[1].leaf })
    session.progress(
      'map',
      `“${control.label}” asks for “${twin[0].label}” again; it gets the same value (“${twin[1].leaf!.path}”)`,
      { input: twin[1].leaf!.path, field: control.label },
    )
  }
}

async function askRequired(
  session: BuildSession,
  control: ScreenControl,
  unused: InputLeaf[],
): Promise<FieldUse | undefined> {
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
  if (value === EMPTY || isDecline(answer)) return undefined
  if (value.startsWith('input:')) return { leaf: unused.find((l) => `input:${l.path}` === value) }
  if (value.startsWith('option:')) return { constant: value.slice('option:'.length) }
  return { constant: value }
}

/** A text box or drop-down showing a value of its own (not blank, not a "Select…" placeholder). */
export function holdsValue(control: ScreenControl): boolean {
  const value = (control.element.value ?? '').trim()
  if (control.kind === 'text' || control.kind === 'date') return value !== ''
  if (control.kind === 'select') return value !== '' && !isPromptOption(value, control.label)
  return false
}

/** Whether `inner` is `outer` or inside it (a field's label text pointed at, for its box). */
function contains(outer: UiElement, inner: UiElement): boolean {
  if (outer === inner) return true
  return outer.children.some((c) => contains(c, inner))
}

// "Show me" (DESIGN §4.8): a person did the task once while the agent recorded it
// (src/protocol/recording.ts); this turns the recording into the steps a run repeats. People do
// more than the task: they click into a field before typing, correct a typo, open a menu and
// close it, wander off and come back. That goes (demonstration-tidy.ts). What is left is the way
// to the form, one step per field with its last value, and the action that sends the form (the
// submit). readDemonstration is pure: the recording and the request in, steps and plain-word
// notes out; demonstrationSteps reports them and asks about the values in doubt.
import { ancestors, indexTree } from '../../automation/element-tree.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Selector, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { isDecline } from '../../protocol/questions.ts'
import type { Recording } from '../../protocol/recording.ts'
import type { BuildRequest } from '../contract.ts'
import { rowSelector } from '../explore/explore-moves.ts'
import { type InputLeaf, inputLeaves, textValues } from '../input-leaves.ts'
import { isTypeSpec } from '../outputs/outputs.ts'
import { designSelector } from '../selector-design.ts'
import { BuildFailure, type BuildSession, type Stage } from '../session.ts'
import { generaliseSelector, ownRowSelector } from './demonstrated-selectors.ts'
import {
  addressTemplate,
  booleanLeaf,
  callersSecret,
  readValue,
  secretTemplate,
} from './demonstrated-values.ts'
import { tidyRecording } from './demonstration-tidy.ts'
import {
  type Act,
  FIELD_ROLES,
  isClick,
  labelOf,
  ROW_ROLES,
  roleOf,
  TOGGLES,
  VALUE_KINDS,
} from './recorded-actions.ts'

export interface Note {
  stage: Stage
  message: string
  data?: Record<string, unknown>
}

/** A value only like a sample value: the person says which it is. */
export interface Doubt {
  /** The step in `path` it belongs to. */
  step: number
  value: string
  field: string
  choices: { template: string; label: string }[]
  paths: string[]
}

export interface Demonstration {
  /** The steps before the submit: the way to the form, the fills, a first send that was confirmed. */
  path: Step[]
  submit: Step
  submitLabel: string
  /** Where the sample's send began (the form's "Delete" before its "Are you sure? Yes"). */
  firstSend: Step
  /** The screen the submit was made on, and the screen once it settled after it. */
  before: Snapshot
  after: Snapshot
  /** The screen the person started on. */
  start: Snapshot
  /** The controls filled in, as on the screens they were filled on (for judging the ending). */
  fields: UiElement[]
  doubts: Doubt[]
  /** What was inferred, in plain words; never a secret's value. */
  notes: Note[]
}

export function readDemonstration(recording: Recording, request: BuildRequest): Demonstration {
  const { sample, prompt } = request
  if (recording.actions.length === 0 || recording.snapshots.length === 0)
    throw new BuildFailure(
      'NO_FORM_FOUND',
      'The recording holds no actions: start recording, do the task once on the app, and press Done only after the form was sent.',
    )
  const leaves = inputLeaves(sample.input, { prompt, expect: sample.expect })
  const values = textValues(leaves)
  const notes: Note[] = []
  const total = recording.actions.length
  const sent = tidyRecording(recording, sample.input, leaves, values, expectedTexts(sample.expect))
  const { dropped } = sent

  const start = recording.snapshots[0]!
  const fields: UiElement[] = []
  const doubts: Doubt[] = []
  const path: Step[] = []
  const checks = sent.path.filter((a) => a.action.kind === 'check').length
  for (const act of sent.path) {
    const made = stepFor(act, {
      request,
      values,
      leaves,
      onlyCheck: checks === 1,
      appUrl: start.window.url,
      notes,
    })
    if (made.doubt) doubts.push({ ...made.doubt, step: path.length })
    if (made.note) notes.push(made.note)
    if (VALUE_KINDS.has(act.action.kind) && act.element) fields.push(act.element)
    path.push(made.step)
  }
  const last = sent.chain.at(-1)!
  const sends = sent.chain.map((act) => {
    const made = stepFor(act, { request, values, leaves, onlyCheck: false, appUrl: start.window.url, notes })
    if (made.note) notes.push(made.note)
    return made.step
  })
  const submit = sends.pop()!
  path.push(...sends)
  const submitLabel = labelOf(last)
  const firstSend = sends[0] ?? submit

  const steps = path.length + 1
  notes.unshift({
    stage: 'explore',
    message:
      `From the demonstration: ${total} action${total === 1 ? '' : 's'} → ${steps} step${steps === 1 ? '' : 's'}` +
      (dropped.length ? ` (left out: ${dropped.join('; ')})` : ''),
    data: { actions: total, steps: [...path, submit].map((s) => s.name), leftOut: dropped },
  })
  const does =
    submit.kind === 'navigate'
      ? `Opening ${submit.url} is the task`
      : `“${submitLabel}” ${fields.length ? 'sends the form' : 'does the task'}`
  notes.push({
    stage: 'submit',
    message:
      does +
      (sends.length ? ` (after ${sends.map((s) => `“${s.name}”`).join(', ')}, which it confirms)` : '') +
      (sent.afterwards
        ? `; the ${sent.afterwards} action${sent.afterwards === 1 ? '' : 's'} after it only looked at the result`
        : ''),
    data: { submit: submit.name },
  })
  return {
    path,
    submit,
    submitLabel,
    firstSend,
    before: last.before,
    after: last.after,
    start,
    fields,
    doubts,
    notes,
  }
}

/** Reads the recording, tells the person what was inferred, and asks about doubtful values. */
export async function demonstrationSteps(
  session: BuildSession,
  recording: Recording,
): Promise<Demonstration> {
  const demo = readDemonstration(recording, session.request)
  for (const note of demo.notes) session.progress(note.stage, note.message, note.data)
  for (const doubt of demo.doubts) {
    const step = demo.path[doubt.step]!
    const whose = doubt.paths.map((p) => `\`${p}\``).join(' and ')
    const answer = await session.ask({
      kind: 'map_field',
      text: `Is “${doubt.value}” (in “${doubt.field}”) the sample’s ${whose}, or always the same text?`,
      options: [
        ...doubt.choices.map((c) => ({ value: c.template, label: c.label })),
        { value: SAME, label: `Always “${doubt.value}”` },
      ],
      multiple: false,
    })
    const chosen = Array.isArray(answer) ? (answer[0] ?? SAME) : answer
    // Declined: it is no input value the builder could name, so the text stays as recorded.
    if (chosen === SAME || isDecline(answer) || (step.kind !== 'fill' && step.kind !== 'select')) {
      session.progress('map', `“${doubt.value}” in “${doubt.field}” is always the same, as answered`)
      continue
    }
    demo.path[doubt.step] = { ...step, value: chosen, optional: true }
    session.progress('map', `“${doubt.value}” in “${doubt.field}” becomes “${chosen}”, as answered`)
  }
  return demo
}

const SAME = '(always the same)'

/** The literal values a sample expects (not `{ $type }` specs), as text: what the task shows. */
export function expectedTexts(expect: unknown): string[] {
  if (typeof expect === 'string' || typeof expect === 'number') return [String(expect)]
  if (!expect || typeof expect !== 'object' || isTypeSpec(expect)) return []
  return Object.values(expect).flatMap(expectedTexts)
}

interface StepContext {
  request: BuildRequest
  values: { path: string; value: string }[]
  leaves: InputLeaf[]
  onlyCheck: boolean
  appUrl: string | undefined
  /** Where what the selectors say about the sample's values is told. */
  notes: Note[]
}

function stepFor(act: Act, ctx: StepContext): { step: Step; note?: Note; doubt?: Omit<Doubt, 'step'> } {
  const { action } = act
  const label = labelOf(act)
  if (action.kind === 'navigate') {
    const { template, paths } = addressTemplate(action.url!, ctx.values, ctx.appUrl)
    return {
      step: { kind: 'navigate', name: `Open ${template}`, url: template },
      note: {
        stage: 'explore',
        message: paths.length
          ? `The address typed, ${action.url}, holds the sample’s ${paths.join(' and ')}: the job opens “${template}”`
          : `The job opens the address typed, ${template}`,
        data: { url: template },
      },
    }
  }
  if (action.kind === 'key') {
    const key = action.key ?? 'Enter'
    // A key pressed with nothing focused goes to the window.
    if (!act.element) return { step: { kind: 'keys', name: `Press ${key}`, keys: key } }
    const target = selectorFor(act, label, ctx)
    return { step: { kind: 'keys', name: `Press ${key} in “${label}”`, target, keys: key } }
  }
  const target = selectorFor(act, label, ctx)
  if (action.kind === 'click') return { step: { kind: 'click', name: `Click “${label}”`, target } }
  if (action.kind === 'check') {
    const checked = act.value === 'true'
    const leaf = booleanLeaf(ctx.leaves, checked, label, ctx.onlyCheck)
    const name = roleOf(act) === 'radio' ? `Pick “${label}”` : `Set “${label}”`
    const radioValue =
      roleOf(act) === 'radio' ? ctx.values.find((v) => collapse(v.value) === collapse(label)) : undefined
    if (radioValue && act.element)
      return {
        step: {
          kind: 'check',
          name,
          optional: true,
          target: {
            fingerprints: [{ by: 'role', role: 'radio', name: `{{${radioValue.path}}}` }],
            description: `the “${label}” option`,
          },
          checked: true,
        },
        note: { stage: 'map', message: `“${label}” is picked by the sample’s ${radioValue.path}` },
      }
    return {
      step: leaf
        ? { kind: 'check', name, optional: true, target, checked: `{{${leaf.path}}}` }
        : { kind: 'check', name, target, checked },
      note: {
        stage: 'map',
        message: leaf
          ? `“${label}” is set by the sample’s ${leaf.path}`
          : `“${label}” is always ${checked ? 'ticked' : 'cleared'} (no yes/no value of the sample names it)`,
      },
    }
  }
  const how = action.kind === 'select' ? 'select' : 'fill'
  const stepName = how === 'select' ? `Choose “${label}”` : `Fill “${label}”`
  const own = act.secret ? callersSecret(ctx.leaves, act.before.root) : undefined
  if (own)
    return {
      step: { kind: 'fill', name: stepName, target, value: `{{${own.path}}}` },
      note: {
        stage: 'map',
        message: `“${label}” takes the caller’s “${own.path}”: a password typed into a form that is not a sign-in (what was typed there is never recorded)`,
      },
    }
  if (act.secret) {
    const secret = secretTemplate(ctx.request, act.element, label, act.before.root)
    return {
      step: { kind: 'fill', name: stepName, target, value: secret.template },
      note: {
        stage: 'map',
        message: `“${label}” takes the job’s stored secret “${secret.name}” (what was typed there is never recorded)`,
      },
    }
  }
  const value = act.value ?? ''
  const numeric = act.element?.role === 'spinbutton' || act.element?.inputType === 'number'
  const reading = readValue(value, ctx.values, how, label, numeric)
  const verb = how === 'select' ? 'chosen in' : 'typed into'
  if (reading.kind === 'sample')
    return {
      step: { kind: how, name: stepName, optional: true, target, value: reading.template },
      note: {
        stage: 'map',
        message: `“${value}” ${verb} “${label}” is the sample’s ${reading.paths.join(' and ')}`,
        data: { input: reading.paths[0], field: label },
      },
    }
  const constant: Step = { kind: how, name: stepName, target, value }
  if (reading.kind === 'doubtful')
    return { step: constant, doubt: { value, field: label, choices: reading.choices, paths: reading.paths } }
  return {
    step: constant,
    note: {
      stage: 'map',
      message: `“${value}” ${verb} “${label}” is not one of the sample’s values: the job always uses it`,
    },
  }
}

/** The selector exploration would design for the element, or the one for its row's record. */
function selectorFor(act: Act, label: string, ctx: StepContext): Selector {
  const element = act.element
  if (!element)
    throw new BuildFailure(
      'NO_FORM_FOUND',
      `The demonstration’s ${act.action.kind} on “${label}” is not on the screen it was recorded on, so a run could not find it. Record the demonstration again, letting each screen finish loading before acting.`,
    )
  const index = indexTree(act.before.root)
  const inRow = isClick(act) && ancestors(index, element).some((a) => ROW_ROLES.has(a.role))
  const row = inRow ? rowSelector(index, element, ctx.leaves) : undefined
  const role = element.role
  const what = FIELD_ROLES.has(role) || TOGGLES.has(role) ? 'field' : role
  const description = `the “${label}” ${what}`
  const designed =
    row?.selector ??
    (inRow ? ownRowSelector(act.before.root, element, ctx.values, description) : undefined) ??
    designSelector(act.before.root, element, description)
  // The sample's record clicked by what it shows: each run clicks its own.
  const general = generaliseSelector(designed, act.before.root, element, ctx.values)
  if (!general.paths.length && isClick(act)) boundToSample(element.name, ctx.values)
  if (general.paths.length)
    ctx.notes.push({
      stage: 'explore',
      message: `“${general.literal ?? label}” shows the sample’s ${general.paths.join(' and ')}: each run picks the ${what} showing its own`,
      data: { selector: general.selector.fingerprints },
    })
  return general.selector
}

/**
 * Never silently wrong: a click on something named exactly by a sample value ("Suppliers", the
 * sample's folder) whose selector could not be made to follow the caller's value (another of the
 * same name on the screen, a position only) would do every call with the sample's value. The
 * build stops saying so instead (docs/builder.md, "Forms as people use them").
 */
function boundToSample(name: string, values: { path: string; value: string }[]): void {
  const shown = collapse(name).toLowerCase()
  const value = shown.length >= 2 ? values.find((v) => collapse(v.value).toLowerCase() === shown) : undefined
  if (!value) return
  throw new BuildFailure(
    'VERIFY_FAILED',
    `The demonstration clicked “${collapse(name)}”, the sample’s ${value.path}, but nothing on that screen tells it apart by that name alone (another control shows it too), so every call would click the sample’s. Show it again where only one “${collapse(name)}” is on the screen, or teach the value through a field or drop-down that takes it.`,
  )
}

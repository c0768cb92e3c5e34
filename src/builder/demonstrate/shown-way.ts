// "Show me just this step": a demonstration that only shows the way to the form. The person opens
// the screen that takes the sample and presses Done without filling anything in; the builder
// keeps the way as the steps that lead there and does the rest as in an explored build: map the
// values onto the form, choose the button that sends it, observe, read the outputs, verify.
import type { Step } from '../../protocol/automation.ts'
import type { Recording } from '../../protocol/recording.ts'
import { type Finish, finishBuild } from '../compose/finish-build.ts'
import type { BuildResult } from '../contract.ts'
import { isSearchBox } from '../explore/explore-moves.ts'
import { fillPages } from '../explore/pages.ts'
import { inputTexts } from '../generalise.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { screenFitness } from '../map/field-scores.ts'
import { classifySent } from '../observe/classify.ts'
import { submitAndObserve } from '../observe/observe.ts'
import { readControls } from '../screen.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { confirmationButton, confirmStep } from '../submit/follow-through.ts'
import { chooseSubmit } from '../submit/submit.ts'
import { namesInput } from '../verify/inputs-used.ts'
import { readDemonstration } from './demonstration.ts'
import { showsAll, VALUE_KINDS } from './recorded-actions.ts'

/** How well the screen the person stopped on must take the sample's values (explore's GOOD). */
const FORM_FITS = 0.75

/**
 * Whether the recording only shows the way: nothing was filled in, set or ticked, and the screen
 * it ends on has controls that take the sample's values. A screen that shows every value the
 * sample expects is the answer reached (a record opened from its row, whose form holds the key),
 * so the recording is the whole task, not the way to a form.
 */
export function showsOnlyTheWay(recording: Recording, leaves: InputLeaf[], expected: string[] = []): boolean {
  if (recording.actions.some((a) => VALUE_KINDS.has(a.kind))) return false
  const values = leaves.filter((l) => l.source !== 'header')
  const last = recording.snapshots.at(-1)
  if (!last || values.length === 0) return false
  if (expected.length > 0 && showsAll(last.root, expected)) return false
  const controls = readControls(last.root).filter((c) => !isSearchBox(c.element))
  return screenFitness(values, controls) >= FORM_FITS
}

export interface ShownWay {
  window: Finish['window']
  app: Finish['app']
  reading: PromptReading
  leaves: InputLeaf[]
  /** The sign-in and the opening the job starts with. */
  before: Step[]
}

/** The build from the form the person opened: the way shown, then map, submit, observe, outputs, verify. */
export async function buildFromShownWay(
  session: BuildSession,
  recording: Recording,
  shown: ShownWay,
): Promise<BuildResult> {
  const { sample } = session.request
  const demo = readDemonstration(recording, session.request)
  // Every move shown leads to the form; none of them sends anything.
  const way = [...demo.path, demo.submit]
  for (const note of demo.notes.filter((n) => n.stage !== 'submit'))
    session.progress(note.stage, note.message, note.data)
  session.progress(
    'explore',
    `The demonstration shows the way to the form (${way.map((s) => `“${s.name}”`).join(', ')}); the builder fills it in and sends it`,
    { steps: way.map((s) => s.name) },
  )
  const screen = await session.settle()
  const controls = readControls(screen.root).filter((c) => !isSearchBox(c.element))
  const values = shown.leaves.filter((l) => l.source !== 'header')
  if (screenFitness(values, controls) < FORM_FITS)
    throw new BuildFailure(
      'NO_FORM_FOUND',
      `The screen left open after the demonstration (“${screen.window.title}”) is no longer the form it ended on. ` +
        'Record again and leave the form open when you press Done.',
    )
  // A value the way shown names (the row the record was opened from) is used already.
  const pages = await fillPages(
    session,
    screen,
    shown.leaves,
    shown.leaves.filter((l) => namesInput(way, l)),
  )
  if (pages.fields.length === 0)
    throw new BuildFailure(
      'FIELD_NOT_MAPPED',
      `None of the sample’s values found a field on “${pages.screen.window.title}”. Answer map_field with the field each value goes into, or show the whole task.`,
    )
  const submit = await chooseSubmit(
    session,
    pages.screen.root,
    pages.lastFields.map((f) => f.control.element),
    shown.reading,
  )
  const inputs = inputTexts(sample.input)
  const fieldElements = pages.fields.map((f) => f.control.element)
  let observed = await submitAndObserve(session, submit.step, sample.input)
  let ending = classifySent(observed, fieldElements, inputs, shown.leaves)
  const fills = [...pages.steps]
  let send = submit.step
  let label = submit.label
  // An "Are you sure?" after the send is confirmed, as in an explored build.
  const confirm = ending && confirmationButton(ending)
  if (confirm) {
    session.progress(
      'observe',
      `“${label}” asks “${ending!.message}”; the job confirms with “${confirm.name}”`,
    )
    fills.push(send)
    send = confirmStep(observed.after.root, confirm)
    label = confirm.name
    observed = await submitAndObserve(session, send, sample.input)
    ending = classifySent(observed, [], inputs, shown.leaves)
  }
  if (!ending)
    throw new BuildFailure(
      'NO_OUTCOME',
      `Nothing visible changed within 10 s of “${label}” on “${observed.before.window.title}”. ` +
        'Does the form need more values? Teach a sample with every required field, or show the whole task.',
    )
  return finishBuild(session, {
    window: shown.window,
    app: shown.app,
    prefix: [...shown.before, ...way, ...fills],
    submit: send,
    firstSend: submit.step,
    sendsInRow: false,
    observed,
    ending,
    reading: shown.reading,
    inputs,
    leaves: shown.leaves,
    submitLabel: label,
  })
}

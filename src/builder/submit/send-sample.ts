// The submit stage of a first build: what sends the sample, and what it led to. A filled form is
// sent by the control chosen for it (submit.ts); a task with nothing to fill does its one action
// (the row's "Remove", the last move to a list); an address that opens the record is itself the
// action, observed when it was found.
import type { Step } from '../../protocol/automation.ts'
import type { FilledPages } from '../explore/pages.ts'
import type { UrlRoute } from '../explore/url-route.ts'
import type { PromptReading } from '../locate/prompt.ts'
import type { FieldStep } from '../map/map-fields.ts'
import { type Observation, submitAndObserve } from '../observe/observe.ts'
import type { BuildSession } from '../session.ts'
import { chooseSubmit } from './submit.ts'

export interface Sent {
  /** The fields filled (none for an action or an address). */
  fields: FieldStep[]
  /** The steps between the way to the form and the submit: fills, Next clicks, earlier sends. */
  fillSteps: Step[]
  submitStep: Step
  submitLabel: string
  observed: Observation
}

/** Nothing to fill: the action in the record's row, or the last move to a list, is the submit. */
export async function doTheAction(
  session: BuildSession,
  action: { step: Step; label: string },
): Promise<Sent> {
  const observed = await submitAndObserve(session, action.step, session.request.sample.input)
  return { fields: [], fillSteps: [], submitStep: action.step, submitLabel: action.label, observed }
}

/** The address that opens the record is the action; finding it observed what it opens. */
export function openedByAddress(route: UrlRoute): Sent {
  return {
    fields: [],
    fillSteps: [],
    submitStep: route.step,
    submitLabel: route.step.url,
    observed: { before: route.before, after: route.after, elapsedMs: route.elapsedMs },
  }
}

/** Sends the filled form with the control that sends it, beside its last page's fields. */
export async function submitForm(
  session: BuildSession,
  pages: FilledPages,
  reading: PromptReading,
): Promise<Sent> {
  const submit = await chooseSubmit(
    session,
    pages.screen.root,
    pages.lastFields.map((f) => f.control.element),
    reading,
  )
  const observed = await submitAndObserve(session, submit.step, session.request.sample.input)
  return {
    fields: pages.fields,
    fillSteps: pages.steps,
    submitStep: submit.step,
    submitLabel: submit.label,
    observed,
  }
}

// The submit stage of a first build: what sends the sample, and what it led to. A filled form is
// sent by the control chosen for it (submit.ts); a task with nothing to fill does its one action
// (the row's "Remove", the last move to a list); an address that opens the record is itself the
// action, observed when it was found.

import { indexTree } from '../../automation/index.ts'
import type { Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { FilledPages } from '../explore/pages.ts'
import type { UrlRoute } from '../explore/url-route.ts'
import { textValues } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import type { FieldStep } from '../map/map-fields.ts'
import { type Observation, submitAndObserve } from '../observe/observe.ts'
import { resultsEnding } from '../observe/results-ending.ts'
import type { BuildSession } from '../session.ts'
import { actionOf } from '../words.ts'
import { chooseSubmit } from './submit.ts'

export interface Sent {
  /** The fields filled (none for an action or an address). */
  fields: FieldStep[]
  /** The steps between the way to the form and the submit: fills, Next clicks, earlier sends. */
  fillSteps: Step[]
  submitStep: Step
  submitLabel: string
  observed: Observation
  /** The screen the fields were filled on, before anything was typed. */
  typedOn?: Snapshot
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
  const applied = await appliedFilters(session, pages, reading)
  if (applied) return applied
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
    typedOn: pages.screen,
  }
}

/**
 * Filters of a list that apply as they are set (a status drop-down above the orders): filling them
 * already changed the rows, and a row shows the value filtered by. Nothing is sent (Enter in a
 * drop-down would only open it); the job waits for its own results (docs/builder.md, "Forms as
 * people use them").
 */
async function appliedFilters(
  session: BuildSession,
  pages: FilledPages,
  reading: PromptReading,
): Promise<Sent | undefined> {
  const { fields, screen } = pages
  const finding = reading.verb === actionOf('find') || fields.some((f) => f.leaf?.query)
  const filters = fields.every((f) => f.control.kind === 'select' || f.control.shape === 'search')
  // A search box alone is sent by Enter as ever (harmless where it already filtered); a drop-down
  // among the filters is what Enter cannot send.
  const dropDown = fields.some((f) => f.control.kind === 'select')
  if (!finding || fields.length === 0 || !filters || !dropDown) return undefined
  // An app may redraw its list a moment after the filter is set (its own delay, a fetch, the
  // drop-down's list still closing): the list is waited on until it changed and shows what was
  // filtered by, up to the settle's limit.
  const searched = textValues(fields.flatMap((f) => (f.leaf ? [f.leaf] : [])))
  const filtered = (root: UiElement) =>
    !sameRows(screen.root, root) && resultsEnding(root, searched, []) !== undefined
  const now = await session.settle(screen.root, (root) => !filtered(root))
  if (sameRows(screen.root, now.root)) return undefined
  const results = resultsEnding(now.root, searched, [])
  if (!results?.condition) return undefined
  session.progress(
    'submit',
    `The list changed as the fields were set (${fields.map((f) => `“${f.control.label}”`).join(', ')}): they filter it as they are set, so nothing is sent; the job waits for its results`,
  )
  return {
    fields,
    fillSteps: pages.steps,
    submitStep: { kind: 'wait', name: 'Wait for the filtered list', until: results.condition },
    submitLabel: 'the filter',
    observed: { before: screen, after: now, elapsedMs: 0 },
  }
}

/** The rows a screen shows, as text: whether a list changed. */
function sameRows(a: UiElement, b: UiElement): boolean {
  const rows = (root: UiElement) =>
    indexTree(root)
      .all.filter((e) => e.role === 'row' || e.role === 'listitem')
      .map((e) =>
        indexTree(e)
          .all.map((c) => c.name)
          .join('|'),
      )
      .join('\n')
  return rows(a) === rows(b)
}

// The first build of a job: locate the app, explore to the form, map the sample, submit it,
// judge the ending, choose the outputs, compose and verify (DESIGN §4). Where no screen takes
// the sample, or the teach call asks for it, a person shows how (demonstrated-build.ts).
import type { Step } from '../protocol/automation.ts'
import type { Snapshot } from '../protocol/elements.ts'
import { finishBuild, nonEmpty } from './compose/finish-build.ts'
import type { BuildResult } from './contract.ts'
import { canBeShown, demonstratedBuild } from './demonstrate/demonstrated-build.ts'
import { type Explored, explore, NoFormFound } from './explore/explore.ts'
import { isSearchBox } from './explore/explore-moves.ts'
import { filterPatterns, findFilterRoute } from './explore/filter-route.ts'
import { fillPages } from './explore/pages.ts'
import { findUrlRoute, namesARecord, shapeOf, type UrlRoute, urlPatterns } from './explore/url-route.ts'
import { inputTexts } from './generalise.ts'
import { type InputLeaf, inputLeaves, textValues, unusableKeys } from './input-leaves.ts'
import { appSpecOf, locateWindow } from './locate/locate-window.ts'
import { type PromptReading, readPrompt, spoken } from './locate/prompt.ts'
import { assignFields } from './map/field-scores.ts'
import type { FieldStep } from './map/map-fields.ts'
import { classifyEnding, resultsEnding } from './observe/classify.ts'
import { type Observation, submitAndObserve } from './observe/observe.ts'
import { expectedReads } from './outputs/outputs.ts'
import { readControls } from './screen.ts'
import { BuildFailure, type BuildSession } from './session.ts'
import { signOutFirst } from './sign-in/sign-in.ts'
import { confirmationButton, confirmStep, resultLink, secondSend, sendStep } from './submit/follow-through.ts'
import { chooseSubmit } from './submit/submit.ts'

// The helpers extend-build.ts shares with a first build.
export { nonEmpty, refuseOwnCollision, reportEnding, waitBudget } from './compose/finish-build.ts'

export async function freshBuild(session: BuildSession): Promise<BuildResult> {
  const { prompt, sample } = session.request
  const reading = readPrompt(prompt)
  const inputs = inputTexts(sample.input)
  const returns = reading.returns.map((w) => `“${w.join(' ')}”`).join(', ')
  session.progress(
    'locate',
    `The task’s words: ${spoken(reading, reading.taskStems)}` +
      (reading.namedApps.length ? `; it names the app “${reading.namedApps.join('”, “')}”` : '') +
      (returns ? `; it asks to return ${returns}` : ''),
    {
      words: reading.taskStems,
      namedApps: reading.namedApps,
      returns: reading.returns.map((w) => w.join(' ')),
    },
  )
  const window = await locateWindow(session, reading, inputs)
  // A job with credentials meets its app signed out, so the sign-in is learnt (sign-in.ts).
  await signOutFirst(session, window)
  const app = appSpecOf(window)
  // Headers are the caller's transport; one is an input only when the prompt or expect names it.
  const leaves = inputLeaves(sample.input, { prompt, expect: sample.expect })
  const given = leaves.filter((l) => l.source !== 'header')
  if (lookingUp(reading) && given.length === 1) given[0]!.query = true
  const unusable = unusableKeys(sample.input)
  if (unusable.length)
    session.progress(
      'map',
      `Keys with spaces or symbols cannot be used in the automation: ${unusable.map((k) => `“${k}”`).join(', ')}`,
    )
  session.progress('explore', `The sample brings ${leaves.length} value(s)`, {
    inputs: leaves.map((l) => l.path),
  })
  // "Show me": the teach call asked to be shown rather than have the builder explore.
  const shown = { window, reading, leaves }
  if (session.request.demonstrate) {
    if (canBeShown(session)) return demonstratedBuild(session, shown)
    session.progress(
      'explore',
      'The teach call asks to be shown, but this build cannot receive a recording; exploring instead',
    )
  }
  let explored: Explored | undefined
  let route: UrlRoute | undefined
  let fillLeavesFound: InputLeaf[] | undefined
  try {
    explored = await explore(session, app, leaves, reading)
  } catch (error) {
    // A record opened by its address is for reading or changing it; a new one needs a form.
    if (!(error instanceof NoFormFound)) throw error
    // Lost for good: ask to be shown when the build can receive a recording, else fail as found.
    const lost = error
    const stuck = () => {
      if (!canBeShown(session)) throw lost
      return demonstratedBuild(session, { ...shown, stuck: lost.message })
    }
    if (lookingUp(reading)) {
      route = await findUrlRoute(session, app, error.seen, leaves, error.prelude)
      if (!route) return stuck()
    } else {
      // A change to a record no form shows: open the record by its address, find its form there.
      const seen = {
        navigation: [],
        snapshot: error.seen.at(-1)!,
        fitness: 0,
        seen: error.seen,
        prelude: error.prelude,
      }
      const byAddress = await formByAddress(session, app, seen, leaves, reading, false)
      if (!byAddress) return stuck()
      explored = byAddress.explored
      fillLeavesFound = byAddress.rest
    }
  }
  // A lookup of the records that have a value opens the app's own filter for it (`?location=…`)
  // rather than a box not named like the key, which may not search that value at all.
  if (explored && explored.fitness < 1 && lookingUp(reading) && app.url) {
    const screens = [...explored.seen, explored.snapshot]
    if (filterPatterns(screens, leaves, app.url).length > 0) {
      route = await findFilterRoute(session, app, screens, leaves, explored.prelude)
      if (route) explored = undefined
      else explored = await explore(session, app, leaves, reading)
    }
  }
  // A lookup whose record the app links to by the very value given (/notes/1001) opens it by
  // address rather than guessing which box of a not-quite-fitting screen the id goes into.
  if (explored && explored.fitness < 1 && lookingUp(reading)) {
    const ids = leaves.filter((l) => idShaped(l.value))
    if (ids.length > 0 && urlPatterns(explored.seen, ids, app.url ?? '').some((p) => p.direct))
      route = await findUrlRoute(session, app, explored.seen, ids, explored.prelude, true)
    if (route) explored = undefined
    // The tries left the app elsewhere: get back to the explored screen the way a run would.
    else if (ids.length > 0) explored = await explore(session, app, leaves, reading)
  }

  // A new or changed record named by the caller ("page": "release_checklist") whose form the
  // app opens by address (`doku.php?id=<page>&do=edit`): open it there, fill in the rest.
  let fillLeaves = fillLeavesFound ?? leaves
  if (explored && !fillLeavesFound && explored.fitness < 1 && !lookingUp(reading)) {
    const byAddress = await formByAddress(session, app, explored, leaves, reading)
    if (byAddress) {
      fillLeaves = byAddress.rest
      explored = byAddress.explored
    }
  }

  let fields: FieldStep[] = []
  let fillSteps: Step[] = []
  let submitStep: Step
  let submitLabel: string
  let observed: Observation
  const action = explored?.rowAction ?? explored?.readStep
  if (action) {
    // Nothing to fill: the action in the record's row, or the last move to a list, is the submit.
    submitStep = action.step
    submitLabel = action.label
    observed = await submitAndObserve(session, submitStep, sample.input)
  } else if (route) {
    submitStep = route.step
    submitLabel = route.step.url
    observed = { before: route.before, after: route.after, elapsedMs: route.elapsedMs }
  } else {
    const pages = await fillPages(session, explored!.snapshot, fillLeaves)
    const screen = pages.screen
    fields = pages.fields
    fillSteps = pages.steps
    if (fields.length === 0 && leaves.some((l) => l.source !== 'header'))
      throw new BuildFailure(
        'FIELD_NOT_MAPPED',
        `None of the sample’s values (${leaves.map((l) => `“${l.path}”`).join(', ')}) found a field on “${screen.window.title}”. ` +
          'Answer map_field with the field each value goes into, or rename the keys after the fields’ labels.',
      )
    const submit = await chooseSubmit(
      session,
      screen.root,
      pages.lastFields.map((f) => f.control.element),
      reading,
    )
    submitStep = submit.step
    submitLabel = submit.label
    observed = await submitAndObserve(session, submitStep, sample.input)
  }
  const fieldElements = fields.map((f) => f.control.element)
  let ending = classifyEnding(observed.before.root, observed.after.root, fieldElements, inputs, leaves)
  // A filter box shows its results as it is typed into: Enter changed nothing, the rows did.
  if (!ending && submitStep.kind === 'keys' && fields.length > 0) {
    const searched = textValues(leaves).filter((v) => fields.some((f) => f.leaf?.path === v.path))
    ending = resultsEnding(observed.after.root, searched, inputs)
    if (ending)
      session.progress(
        'observe',
        `The search box filters as it is typed into: the results show “${ending.message}”`,
      )
  }
  const expect = nonEmpty(sample.expect)
  const firstSend = submitStep
  // Confirm an "Are you sure?", or open the record a search found when what to return is there
  // (once: the record opened is where its values are, or they are not to be found this way).
  let opened = false
  for (let hop = 0; ending && hop < 3; hop++) {
    const confirm = confirmationButton(ending)
    const send = confirm
      ? undefined
      : secondSend(ending, submitLabel, reading, observed.after.root, fieldElements)
    const missing =
      expect !== undefined &&
      expectedReads(
        { ending, after: observed.after.root, inputs, values: textValues(leaves), reading, submitLabel },
        expect,
      ).missing.length > 0
    const open =
      !confirm && !send && missing && !opened
        ? resultLink(ending, observed.after.root, textValues(leaves))
        : undefined
    const next = confirm
      ? confirmStep(observed.after.root, confirm)
      : send
        ? sendStep(observed.after.root, send)
        : open?.step
    if (!next) break
    if (open) opened = true
    session.progress(
      'observe',
      confirm
        ? `“${submitLabel}” asks “${ending.message}”; the job confirms with “${confirm.name}”`
        : send
          ? `“${submitLabel}” showed a preview with a “${send.name}” button that sends it; the job presses it`
          : `What to return is not on the results; the job opens the result “${open!.value}” (the link named by the input)`,
    )
    fillSteps.push(submitStep)
    submitStep = next
    submitLabel = confirm ? confirm.name : send ? send.name : open!.value
    observed = await submitAndObserve(session, next, sample.input)
    ending = classifyEnding(observed.before.root, observed.after.root, [], inputs, leaves)
  }
  if (!ending)
    throw new BuildFailure(
      'NO_OUTCOME',
      `Nothing visible changed within 10 s of “${submitLabel}” on “${observed.before.window.title}”. ` +
        'Does the form need more values? Teach a sample with every required field, or name the button that sends it.',
    )
  return finishBuild(session, {
    window,
    app,
    prefix: [...(explored?.navigation ?? route?.prelude ?? []), ...fillSteps],
    submit: submitStep,
    firstSend,
    sendsInRow: explored?.rowAction !== undefined,
    observed,
    ending,
    reading,
    inputs,
    leaves,
    submitLabel,
  })
}

/**
 * The one value naming a record that no field on the explored screen surely takes, put into an
 * address the app's links show, when that address opens a form for the other values. Leaves
 * the app on that form; when no address does, explores again to get back to the screen found.
 */
async function formByAddress(
  session: BuildSession,
  app: ReturnType<typeof appSpecOf>,
  explored: Explored,
  leaves: InputLeaf[],
  reading: PromptReading,
  /** Explore again when no address helps, to leave the app on the screen explored (else undefined). */
  backToExplored = true,
): Promise<{ explored: Explored; rest: InputLeaf[] } | undefined> {
  const controls = (s: Snapshot) => readControls(s.root).filter((c) => !isSearchBox(c.element))
  const values = leaves.filter((l) => l.source !== 'header')
  const { unsure } = assignFields(values, controls(explored.snapshot))
  const named = unsure
    .map((u) => u.leaf)
    .filter((l) => namesARecord(l) && shapeOf(String(l.value)) !== undefined)
  if (named.length !== 1) return undefined
  const leaf = named[0]!
  const rest = leaves.filter((l) => l !== leaf)
  const screens = [...explored.seen, explored.snapshot]
  if (urlPatterns(screens, [leaf], app.url ?? '').length === 0) return undefined
  const route = await findUrlRoute(session, app, screens, [leaf], explored.prelude, false, {
    rest: rest.filter((l) => l.source !== 'header'),
    controlsOf: controls,
  })
  if (!route) {
    // The record opens by its address but shows no form: its form is a move away ("Edit").
    const record = await findUrlRoute(session, app, screens, [leaf], explored.prelude)
    const fromRecord = record
      ? await explore(session, app, rest, reading, [record.step]).catch((error) => {
          if (error instanceof NoFormFound) return undefined
          throw error
        })
      : undefined
    if (fromRecord && fromRecord.fitness >= FORM_FITS) {
      session.progress('explore', `The record opened by its address leads to a form for the other values`)
      return { explored: fromRecord, rest }
    }
    return backToExplored
      ? { explored: await explore(session, app, leaves, reading), rest: leaves }
      : undefined
  }
  return {
    rest,
    explored: {
      navigation: [...route.prelude, route.step],
      snapshot: route.after,
      fitness: 1,
      seen: explored.seen,
      prelude: explored.prelude,
    },
  }
}

/** A form found from a record's page must take this share of the other values (explore's GOOD). */
const FORM_FITS = 0.75

/** A task that reads a record rather than creating or changing one. */
function lookingUp(reading: ReturnType<typeof readPrompt>): boolean {
  return reading.verb === undefined || !['creat', 'edit', 'delet', 'save'].includes(reading.verb)
}

function idShaped(value: unknown): boolean {
  const shape = typeof value === 'string' || typeof value === 'number' ? shapeOf(String(value)) : undefined
  return shape === 'digits' || shape === 'hex' || shape === 'code'
}

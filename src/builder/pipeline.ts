// The order of a first build (DESIGN §4), one named call per stage; each stage lives in the
// folder of its name. A later sample of the same job goes through compose/extend-build.ts.
//
//   locate → sign in → explore → map → submit → observe → outputs → compose → verify
//
// Where no screen takes the sample, or the teach call asks for it, a person shows how
// (demonstrate/): the recording stands in for explore, map and submit, and the build ends the
// same way (compose/finish-build.ts).
import {
  composeAutomation,
  type Finish,
  planAutomation,
  refuseOwnCollision,
  reportEnding,
} from './compose/finish-build.ts'
import type { BuildResult } from './contract.ts'
import { askedToBeShown, demonstratedBuild, showWhenLost } from './demonstrate/demonstrated-build.ts'
import { findTheWay } from './explore/find-the-way.ts'
import { appSpecOf, locateWindow } from './locate/locate-window.ts'
import { readTask } from './locate/read-task.ts'
import { fillSample } from './map/fill-sample.ts'
import { sampleValues } from './map/sample-values.ts'
import { judgeEnding, noOutcome, requireEnding } from './observe/judge-ending.ts'
import { outputsOrScenario } from './outputs/outputs-or-scenario.ts'
import { BuildFailure, type BuildSession, canBeShown } from './session.ts'
import { signOutFirst } from './sign-in/sign-in.ts'
import { followUps } from './submit/follow-ups.ts'
import { doTheAction, openedByAddress, type Sent, submitForm } from './submit/send-sample.ts'
import { valuesNotTaken } from './verify/values-taken.ts'
import { verifyBuild } from './verify/verify-build.ts'
import { actionOf } from './words.ts'

export async function firstBuild(session: BuildSession): Promise<BuildResult> {
  // locate: the task's words, then the app's window.
  const { reading, inputs } = readTask(session)
  const window = await locateWindow(session, reading, inputs)
  // sign in: a job with credentials meets its app signed out, so the sign-in is learnt
  // (exploring signs in whenever the app shows the form).
  await signOutFirst(session, window)
  const app = appSpecOf(window)
  const leaves = sampleValues(session, reading)

  // ask to be shown: the teach call asked for a demonstration rather than exploring.
  const shown = { window, reading, leaves }
  if (askedToBeShown(session)) return demonstratedBuild(session, shown)

  // explore: the way to the screen that takes the sample (or the address of its record).
  const way = await findTheWay(session, app, leaves, reading)
  if ('lost' in way) return showWhenLost(session, shown, way.lost)

  // map and submit: fill the form and send it, or do the one action a task with nothing to fill is.
  const action = way.explored?.rowAction ?? way.explored?.readStep
  let sent: Sent
  if (action) sent = await doTheAction(session, action)
  else if (way.route) sent = openedByAddress(way.route)
  else {
    // A screen none of whose fields takes a value of the sample was the wrong one after all:
    // rather than fail, ask to be shown (docs/builder.md, "Evidence or a question").
    const explored = way.explored!
    const pages = await fillSample(
      session,
      explored.snapshot,
      way.fillLeaves,
      leaves,
      explored.navigation,
    ).catch((error: unknown) => {
      if (error instanceof BuildFailure && error.code === 'FIELD_NOT_MAPPED') return error
      throw error
    })
    if (pages instanceof BuildFailure) return showWhenLost(session, shown, pages)
    sent = await submitForm(session, pages, reading)
  }

  // observe: what the send led to, through a confirmation, a preview's send or a found result.
  const judged = judgeEnding(session, sent, inputs, leaves)
  const followed = await followUps(session, sent, judged, { reading, inputs, leaves })
  const looksUp = reading.verb === actionOf('find') || leaves.some((l) => l.query)
  // A search that showed nothing was a guess about which box searches: rather than fail, ask to
  // be shown (docs/builder.md, "Evidence or a question"). A send that may have stored something
  // still stops, so that a demonstration cannot store it twice.
  if (!followed.ending && (looksUp || followed.sent.submitStep.kind === 'keys') && canBeShown(session))
    return showWhenLost(session, shown, noOutcome(followed.sent))
  const ending = requireEnding(followed.ending, followed.sent)
  const { fillSteps, submitStep, submitLabel, observed } = followed.sent
  // A create or change whose record shows the caller's values but one: that field never took it.
  if (ending.kind === 'screen' && reading.verb && !looksUp) {
    const lost = valuesNotTaken(observed.after.root, followed.sent.fields)
    if (lost.length)
      throw new BuildFailure(
        'VERIFY_FAILED',
        `After “${submitLabel}”, the record shows the sample’s other values as given but not ` +
          lost.map((f) => `“${String(f.leaf!.value)}” (typed into “${f.control.label}”)`).join(', ') +
          ': the app did not take it (a box whose entry must be picked from its suggestions, or confirmed). ' +
          'Teach again with demonstrate: true and show how that field is filled in.',
      )
  }
  const finish: Finish = {
    window,
    app,
    prefix: [...(way.explored?.navigation ?? way.route?.prelude ?? []), ...fillSteps],
    submit: submitStep,
    firstSend: followed.firstSend,
    sendsInRow: way.explored?.rowAction !== undefined,
    observed,
    ending,
    reading,
    inputs,
    leaves,
    submitLabel,
  }
  reportEnding(session, ending, observed.elapsedMs)
  refuseOwnCollision(session, ending)

  // compose, outputs, verify: the automation's frame, what it returns (or the scenario the
  // ending is), the automation, and the real runner replaying it on every sample.
  const plan = await planAutomation(session, finish)
  const target = await outputsOrScenario(session, finish, plan)
  const automation = composeAutomation(session, plan)
  return verifyBuild(session, automation, finish, plan, target)
}

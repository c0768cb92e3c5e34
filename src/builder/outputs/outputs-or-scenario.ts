// The outputs stage of a first build: an ending that is the task's success (or shows what the
// sample expects) is the main path, and what it returns is read from it (outputs.ts, or asked:
// choose-outputs.ts); any other ending (a complaint, a dialog) becomes a scenario of its own.

import type { Snapshot } from '../../protocol/elements.ts'
import { branchStep, dismissStep, type Plan, scenarioFor } from '../compose/compose.ts'
import type { Finish } from '../compose/finish-build.ts'
import { nameFromMessage, successName } from '../generalise.ts'
import { textValues } from '../input-leaves.ts'
import type { BuildSession } from '../session.ts'
import { askOutputs } from './choose-outputs.ts'
import { nonEmpty, outputContext, readsForExpect, showsExpected } from './outputs.ts'

/** The scenario the sample taught, and whether it is the task's success. */
export interface Target {
  scenario: string
  outcome: 'success' | 'alternate'
}

/** Fills in the plan's success, reads and scenarios from the ending. */
export async function outputsOrScenario(session: BuildSession, f: Finish, plan: Plan): Promise<Target> {
  const { sample } = session.request
  const { ending, observed, inputs, leaves, reading, submitLabel } = f
  const ctx = outputContext(observed, { ending, inputs, values: textValues(leaves), reading, submitLabel })
  const expect = nonEmpty(sample.expect)
  const expected = showsExpected(ctx, expect)
  if (ending.kind === 'screen' || expected) {
    const opening: { screen?: Snapshot } = {}
    const reads = expect
      ? await readsForExpect(session, ctx, expect, opening)
      : await askOutputs(session, ctx)
    // Once the record is opened, the ending's dialog is no longer what the window shows.
    const dismiss = opening.screen ? undefined : dismissStep(ending, observed.after.root)
    plan.success = [ending.condition]
    plan.tail = dismiss ? [...reads, dismiss] : reads
    if (opening.screen) plan.opened = opening.screen
    plan.mainScenario = sample.scenarioName ?? ending.name ?? successName(ending.message, inputs)
    return { scenario: plan.mainScenario, outcome: 'success' }
  }
  const name = sample.scenarioName ?? ending.name ?? nameFromMessage(ending.message, inputs)
  const scenario = scenarioFor(ending, observed.after.root, name, 'alternate', inputs)
  plan.scenarios = [scenario]
  plan.branches = [branchStep(scenario)]
  session.progress(
    'compose',
    `The sample ended in a message rather than a success; it becomes scenario “${name}”. A sample that succeeds will teach the main path.`,
  )
  return { scenario: name, outcome: 'alternate' }
}

// After the send: confirm an "Are you sure?", press a preview's own send, or open the record a
// search found when what to return is there (once: the record opened is where its values are,
// or they are not to be found this way). Each is one more step of the job (follow-through.ts).
import type { Step } from '../../protocol/automation.ts'
import type { Snapshot } from '../../protocol/elements.ts'
import { type InputLeaf, textValues } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { classifySent, type Ending } from '../observe/classify.ts'
import { submitAndObserve } from '../observe/observe.ts'
import { otherOpeners } from '../outputs/open-record.ts'
import { expectedReads, listExpected, nonEmpty, outputContext } from '../outputs/outputs.ts'
import type { BuildSession } from '../session.ts'
import { actionOf } from '../words.ts'
import { confirmationButton, confirmStep, resultLink, secondSend, sendStep } from './follow-through.ts'
import type { Sent } from './send-sample.ts'

export interface FollowedUp {
  sent: Sent
  ending: Ending | undefined
  /** Where the sample's send began (before a confirmation or a preview's send). */
  firstSend: Step
}

export async function followUps(
  session: BuildSession,
  first: Sent,
  firstEnding: Ending | undefined,
  task: { reading: PromptReading; inputs: string[]; leaves: InputLeaf[] },
): Promise<FollowedUp> {
  const { sample } = session.request
  const { reading, inputs, leaves } = task
  const fieldElements = first.fields.map((f) => f.control.element)
  const expect = nonEmpty(sample.expect)
  const sent = { ...first }
  let ending = firstEnding
  let opened = false
  // A value chosen in a drop-down names something that already exists (the queue a ticket is
  // filed in): a link named by it opens that thing, never the record a create or change made.
  const lookup = reading.verb === actionOf('find') || leaves.some((l) => l.query)
  const chosen = new Set(first.fields.filter((f) => f.control.kind === 'select').map((f) => f.leaf?.path))
  const recordValues = textValues(leaves).filter((v) => lookup || !chosen.has(v.path))
  const stillMissing = (at: Ending | undefined, observed: { before: Snapshot; after: Snapshot }) =>
    !at ||
    expectedReads(
      outputContext(observed, {
        ending: at,
        inputs,
        values: textValues(leaves),
        reading,
        submitLabel: first.submitLabel,
      }),
      expect ?? {},
    ).missing.length > 0
  /** Back to the results by their address, when they have their own. */
  const backTo = async (results: Snapshot) => {
    const url = results.window.url
    if (!url || url === first.observed.before.window.url) return false
    await session.navigate(url)
    await session.settle()
    return true
  }
  for (let hop = 0; ending && hop < 3; hop++) {
    const { submitLabel, observed } = sent
    const confirm = confirmationButton(ending)
    const send = confirm
      ? undefined
      : secondSend(ending, submitLabel, reading, observed.after.root, fieldElements)
    // A list is read from the results, never from the one result a link opens: only a missing
    // value that is not a list sends the job on to a result.
    const missing =
      expect !== undefined &&
      expectedReads(
        { ending, after: observed.after.root, inputs, values: textValues(leaves), reading, submitLabel },
        expect,
      ).missing.some((key) => !listExpected(expect[key]))
    const open =
      !confirm && !send && missing && !opened
        ? resultLink(ending, observed.after.root, recordValues)
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
    const observed2 = await submitAndObserve(session, next, sample.input)
    const ending2 = classifySent(observed2, [], inputs, leaves)
    // The record's page does not show them either: back to the results, where the outputs stage
    // tries the record's other openers (open-record.ts) before asking.
    // Only a lookup goes back: its results load again by their address without sending anything.
    if (
      open &&
      lookup &&
      stillMissing(ending2, observed2) &&
      // Only when the record's row offers another way in (else the question is asked on the page
      // it opened, where the value may still be pointed at).
      otherOpeners(
        observed2.before.root,
        observed2.before.window.url,
        textValues(leaves),
        observed2.after.window.url,
      ) &&
      (await backTo(observed2.before))
    )
      break
    sent.fillSteps.push(sent.submitStep)
    sent.submitStep = next
    sent.submitLabel = confirm ? confirm.name : send ? send.name : open!.value
    sent.observed = observed2
    ending = ending2
  }
  return { sent, ending, firstSend: first.submitStep }
}

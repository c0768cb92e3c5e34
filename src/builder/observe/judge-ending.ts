// The observe stage of a first build: what the submit led to (classify.ts), and a build that
// led to nothing visible stopped with what to try.
import { type InputLeaf, textValues } from '../input-leaves.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import type { Sent } from '../submit/send-sample.ts'
import { classifySent, type Ending } from './classify.ts'
import { resultsEnding } from './results-ending.ts'

export function judgeEnding(
  session: BuildSession,
  sent: Sent,
  inputs: string[],
  leaves: InputLeaf[],
): Ending | undefined {
  const { fields, observed, submitStep } = sent
  const fieldElements = fields.map((f) => f.control.element)
  const ending = classifySent(observed, fieldElements, inputs, leaves)
  if (ending || (submitStep.kind !== 'keys' && submitStep.kind !== 'wait') || fields.length === 0)
    return ending
  // A filter box shows its results as it is typed into: Enter changed nothing, the rows did (and a
  // drop-down that filters as it is set is waited for by its results).
  const searched = textValues(leaves).filter((v) => fields.some((f) => f.leaf?.path === v.path))
  const results = resultsEnding(observed.after.root, searched, inputs, sent.typedOn?.root)
  if (results)
    session.progress(
      'observe',
      submitStep.kind === 'wait'
        ? `The drop-down filters as it is set: the results show “${results.message}”`
        : `The search box filters as it is typed into: the results show “${results.message}”`,
    )
  return results
}

/** Nothing visible changed: the build stops, saying what to try. */
export function requireEnding(ending: Ending | undefined, sent: Sent): Ending {
  if (ending) return ending
  throw noOutcome(sent)
}

/** The failure of a send after which nothing visible changed, saying what to try. */
export function noOutcome(sent: Sent): BuildFailure {
  return new BuildFailure(
    'NO_OUTCOME',
    `Nothing visible changed within 10 s of “${sent.submitLabel}” on “${sent.observed.before.window.title}”. ` +
      'Does the form need more values? Teach a sample with every required field, or name the button that sends it.',
  )
}

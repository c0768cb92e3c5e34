// The values a first build works with: the sample's inputs as template paths (a header only when
// the prompt or expect names it), a lookup's one value marked as its query, and the keys an
// automation cannot use told up front.
import { type InputLeaf, inputLeaves, unusableKeys } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { lookingUp } from '../locate/read-task.ts'
import type { BuildSession } from '../session.ts'

export function sampleValues(session: BuildSession, reading: PromptReading): InputLeaf[] {
  const { prompt, sample } = session.request
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
  return leaves
}

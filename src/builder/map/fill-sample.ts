// The map stage of a first build: the sample's values go into the form found (on every page of a
// wizard); a sample none of whose values found a field stops the build, saying what to do.
import type { Step } from '../../protocol/automation.ts'
import type { Snapshot } from '../../protocol/elements.ts'
import { type FilledPages, fillPages } from '../explore/pages.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { namesInput } from '../verify/inputs-used.ts'

export async function fillSample(
  session: BuildSession,
  form: Snapshot,
  /** The values the form takes (without one an address took). */
  fillLeaves: InputLeaf[],
  leaves: InputLeaf[],
  /** The steps that led to the form: a value they name (the row it was opened from) is used. */
  way: Step[] = [],
): Promise<FilledPages> {
  const used = fillLeaves.filter((l) => namesInput(way, l))
  const pages = await fillPages(session, form, fillLeaves, used)
  if (pages.fields.length === 0 && leaves.some((l) => l.source !== 'header'))
    throw new BuildFailure(
      'FIELD_NOT_MAPPED',
      `None of the sample’s values (${leaves.map((l) => `“${l.path}”`).join(', ')}) found a field on “${pages.screen.window.title}”. ` +
        'Answer map_field with the field each value goes into, or rename the keys after the fields’ labels.',
    )
  return pages
}

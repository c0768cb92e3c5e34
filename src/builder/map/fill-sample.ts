// The map stage of a first build: the sample's values go into the form found (on every page of a
// wizard); a sample none of whose values found a field stops the build, saying what to do.
import type { Snapshot } from '../../protocol/elements.ts'
import { type FilledPages, fillPages } from '../explore/pages.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { BuildFailure, type BuildSession } from '../session.ts'

export async function fillSample(
  session: BuildSession,
  form: Snapshot,
  /** The values the form takes (without one an address took). */
  fillLeaves: InputLeaf[],
  leaves: InputLeaf[],
): Promise<FilledPages> {
  const pages = await fillPages(session, form, fillLeaves)
  if (pages.fields.length === 0 && leaves.some((l) => l.source !== 'header'))
    throw new BuildFailure(
      'FIELD_NOT_MAPPED',
      `None of the sample’s values (${leaves.map((l) => `“${l.path}”`).join(', ')}) found a field on “${pages.screen.window.title}”. ` +
        'Answer map_field with the field each value goes into, or rename the keys after the fields’ labels.',
    )
  return pages
}

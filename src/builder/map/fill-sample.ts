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
  return { ...pages, steps: pages.steps.map((step) => checkedKey(step, used)) }
}

/**
 * A value the way to the form already picked the record by (the row showing the title, before
 * "Edit Entry…") is not typed again into the record's own field: it is checked there. A run whose
 * click picked another record then stops with the record's title in view, instead of renaming that
 * record after the caller's key (docs/builder.md, "Records looked up by a key").
 */
export function checkedKey(step: Step, used: InputLeaf[]): Step {
  if (step.kind !== 'fill') return step
  const key = used.find((l) => step.value.trim() === `{{${l.path}}}`)
  if (!key) return step
  const role = step.target.fingerprints.flatMap((f) => ('role' in f && f.role ? [f.role] : []))[0]
  return {
    kind: 'assert',
    name: `Check the record open is “${step.value}”`,
    that: {
      kind: 'appears',
      target: {
        fingerprints: [
          {
            by: 'text',
            text: step.value,
            match: 'exact',
            ...(role ? { role } : {}),
          },
        ],
        description: `${step.target.description} showing the caller’s ${key.path}`,
      },
    },
    message: `The record open is not the one whose ${key.path} the call gave: nothing was changed`,
    timeoutMs: 5_000,
  }
}

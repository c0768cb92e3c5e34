// The results of a search or filter that shows them as it is set (a filter box typed into, a
// drop-down set): the ending is a result showing the value searched for (docs/builder.md,
// "Outputs: what counts as evidence").
import { ancestors } from '../../automation/element-tree.ts'
import { indexTree } from '../../automation/index.ts'
import type { Condition } from '../../protocol/automation.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { outcomeSignature } from '../generalise.ts'
import type { Ending } from './classify.ts'
import { appeared } from './ui-diff.ts'

const ROW_ROLES = new Set<UiRole>(['row', 'listitem', 'treeitem'])

/**
 * A search box that filters as it is typed into (a desktop app's contact or account filter): the
 * submit changes nothing more, the results are already there. The ending is the result row that
 * shows a searched value; its condition is that row (a cell showing the value), so a run waits
 * for its own results, not for whatever the list showed before.
 */
export function resultsEnding(
  after: UiElement,
  searched: { path: string; value: string }[],
  inputs: string[],
  /** The screen before the value was typed: results that appeared since count without rows. */
  typedOn?: UiElement,
): Ending | undefined {
  const index = indexTree(after)
  for (const { path, value } of searched) {
    const want = value.trim().toLowerCase()
    if (want.length < 2) continue
    const shown = typedOn && shownAsTyped(typedOn, after, path, want, inputs)
    if (shown) return shown
    // A result in a row, not a drop-down's own option showing the value set, is the evidence
    // first; a list whose rows do not show the value (the filter named elsewhere) has only what
    // names it (docs/builder.md, "Outputs": the driver settles the filtered list before a run looks).
    const up = (e: UiElement) => ancestors(index, e)
    const rowOf = (e: UiElement) => up(e).find((a) => ROW_ROLES.has(a.role))
    const named = (e: UiElement) =>
      (e.role === 'cell' || e.role === 'option') && e.name.trim().toLowerCase() === want
    const cell =
      index.all.find((e) => named(e) && rowOf(e) && !up(e).some((a) => a.role === 'combobox')) ??
      index.all.find(named)
    const row =
      (cell && rowOf(cell)) ??
      index.all.find((e) => ROW_ROLES.has(e.role) && e.name.toLowerCase().includes(want))
    if (!row) continue
    const condition: Condition = {
      kind: 'appears',
      target: {
        fingerprints: [
          cell
            ? // "Paid" shown for the "paid" filtered by: the same word, whatever its case.
              {
                by: 'text',
                text: `{{${path}}}`,
                role: cell.role,
                match: cell.name.trim() === value.trim() ? 'exact' : 'same',
              }
            : { by: 'text', text: `{{${path}}}`, role: row.role, match: 'contains' },
        ],
        description: `a result showing the “${path}” searched for`,
      },
    }
    return {
      kind: 'screen',
      message: row.name,
      messageElement: row,
      appeared: indexTree(row).all.filter((e) => e.name.trim() !== ''),
      condition,
      signature: outcomeSignature('screen', 'a result row showing the value searched for', inputs),
      name: 'Found',
    }
  }
  return undefined
}

/** What a person reads as results that show while they type: links or options, not rows. */
const TYPED_RESULTS = new Set<UiRole>(['link', 'option', 'listitem', 'treeitem', 'menuitem'])

/**
 * Results that appeared since the value was typed and name it ("Kitchen rota" under the search
 * box after "kitchen"), drawn as links or options in a list that floats over the page rather
 * than as rows: the job waits for one naming the caller's value (docs/builder.md, "Outputs: what
 * counts as evidence").
 */
function shownAsTyped(
  typedOn: UiElement,
  after: UiElement,
  path: string,
  want: string,
  inputs: string[],
): Ending | undefined {
  const found = appeared(typedOn, after).filter(
    (e) => TYPED_RESULTS.has(e.role) && e.name.toLowerCase().includes(want),
  )
  const first = found[0]
  if (!first) return undefined
  return {
    kind: 'screen',
    message: first.name,
    messageElement: first,
    // Everything that appeared with them (the other results, "3 matches"): the outputs read there.
    appeared: appeared(typedOn, after),
    condition: {
      kind: 'appears',
      target: {
        fingerprints: [{ by: 'text', text: `{{${path}}}`, role: first.role, match: 'contains' }],
        description: `a result showing the “${path}” searched for`,
      },
    },
    signature: outcomeSignature('screen', 'a result showing the value searched for, as it was typed', inputs),
    name: 'Found',
  }
}

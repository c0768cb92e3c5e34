// A save's evidence: the window's title lost its "modified" mark (docs/builder.md, "Outputs: what
// counts as evidence").
import type { Condition } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import { generaliseText } from '../generalise.ts'

/** What editors add to a window's title while a document has unsaved changes: "*", "●", "(modified)". */
const MODIFIED_MARKS = /[*•●]|[([]\s*(modified|changed|unsaved)\s*[)\]]/gi
const plain = (title: string) => title.replace(/\s+/g, ' ').trim()
const unmarked = (title: string) => plain(title.replace(MODIFIED_MARKS, ' '))

/** The old title is the new one with a "modified" mark, and the new one has none: a save. */
export function lostModifiedMark(before: string, after: string): boolean {
  const now = plain(after)
  return now !== '' && unmarked(after) === now && unmarked(before) === now && plain(before) !== now
}

/**
 * The saved title exactly (the marked one contains it, so "contains" would hold before the save),
 * and, as the save's precondition, the marked title: a run that changed nothing has nothing to
 * save, and its unmarked title would pass for a save (a value typed where the app took none).
 */
export function savedTitle(
  before: UiElement,
  after: UiElement,
  inputs: string[],
): { condition: Condition; precondition: { name: string; that: Condition; message: string } } {
  const title = (element: UiElement): Condition => {
    const { pattern, match } = generaliseText(element.name, inputs)
    return {
      kind: 'appears',
      target: {
        fingerprints: [
          { by: 'role', role: element.role, name: pattern, match: match === 'contains' ? 'exact' : match },
        ],
        description: `the title “${element.name}”`,
      },
    }
  }
  return {
    condition: title(after),
    precondition: {
      name: 'Check the document has unsaved changes',
      that: title(before),
      message: `The document had no unsaved changes before the save (its title is not “${before.name}”): the steps before it changed nothing`,
    },
  }
}

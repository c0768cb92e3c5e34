// Whether the app took what was typed (docs/builder.md, "Evidence or a question"): after a create
// or a change, the record the send shows holds the values the caller gave. When it shows most of
// them as given and one not at all, that field did not take its value (a box whose entry must be
// picked from suggestions, a token never confirmed) and the job would file the record without
// it on every call: the build stops and says so rather than look right.
import { collapse } from '../../automation/text-match.ts'
import type { UiElement } from '../../protocol/elements.ts'
import type { FieldStep } from '../map/field-steps.ts'

/** Values the record must show to count as shown as given, and the least that must. */
const SHOWN_AS_GIVEN = 2
const LONGEST = 80
/** Shapes an app shows as typed (a date or a phone number it may show in its own format). */
const AS_GIVEN = new Set(['email', 'url', 'search'])

/**
 * The fields whose values the screen after the send does not show, when at least two others'
 * values show as given (so the screen is the record); else none.
 */
export function valuesNotTaken(after: UiElement, fields: FieldStep[]): FieldStep[] {
  const text = screenText(after)
  const checkable = fields.filter((f) => {
    const value = f.leaf?.value
    if (typeof value !== 'string' || !f.leaf || f.leaf.source === 'header') return false
    const shown = collapse(value)
    return (
      f.control.kind === 'text' &&
      f.control.element.inputType !== 'password' &&
      (!f.control.shape || AS_GIVEN.has(f.control.shape)) &&
      shown.length >= 3 &&
      shown.length <= LONGEST &&
      /\p{L}/u.test(shown) &&
      !shown.includes('\n')
    )
  })
  const shows = (f: FieldStep) => text.includes(collapse(String(f.leaf!.value)).toLowerCase())
  const given = checkable.filter(shows)
  if (given.length < SHOWN_AS_GIVEN) return []
  return checkable.filter((f) => !shows(f))
}

/** Everything the screen shows in words: names, and what boxes hold. */
function screenText(root: UiElement): string {
  const parts: string[] = []
  const visit = (e: UiElement) => {
    parts.push(e.name)
    if (e.value) parts.push(e.value)
    for (const child of e.children) visit(child)
  }
  visit(root)
  return collapse(parts.join(' ')).toLowerCase()
}

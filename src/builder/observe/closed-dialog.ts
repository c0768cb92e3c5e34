// A record dialog that closed on its submit (docs/builder.md, "Outputs: what counts as evidence"):
// which one closed, and the condition every later run checks for it. A modal dialog counts as
// before; a non-modal one (a desktop app's separate "New Account" window) counts only when it held
// the fields, since other windows of the app open and close on their own.
import { indexTree, openDialogs } from '../../automation/index.ts'
import { matchesText } from '../../automation/text-match.ts'
import type { Condition, TextMatch } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import { generaliseText, withoutInputs } from '../generalise.ts'
import { counterpart, within } from './ui-diff.ts'

/**
 * The dialog that closed on the submit, when the after-screen no longer shows it (paired by role
 * and name, the caller's values in the name left free: refs differ between snapshots, and a
 * window may be titled after what is typed into it). When several closed, the one holding the
 * fields. A dialog named by little more than the caller's values is no evidence: its name would
 * match any other dialog.
 */
export function closedDialog(
  before: UiElement,
  after: UiElement,
  fields: UiElement[],
  inputs: string[],
): UiElement | undefined {
  // The fields are from the screen they were mapped on: their counterparts here say where they are.
  const here = fields.flatMap((f) => counterpart(before, f) ?? [])
  const holdsFields = (d: UiElement) => here.some((f) => within(before, d, f))
  const nonModal = indexTree(before).all.filter(
    (e) => e.role === 'dialog' && !e.states.includes('modal') && holdsFields(e),
  )
  const afterDialogs = indexTree(after).all.filter((e) => e.role === 'dialog' || e.role === 'alertdialog')
  const gone = [...openDialogs(before), ...nonModal].filter((d, i, all) => {
    if (!d.name || all.indexOf(d) !== i || !ownWords(d.name, inputs)) return false
    const name = nameMatch(d.name, inputs)
    return !afterDialogs.some((a) => a.role === d.role && matchesText(a.name, name.pattern, name.match))
  })
  // A window that stayed open under another title still shows its fields: it did not close.
  const stillThere = (d: UiElement) =>
    !d.states.includes('modal') &&
    here.some((f) => within(before, d, f) && counterpart(after, f) !== undefined)
  const closed = gone.filter((d) => !stillThere(d))
  if (closed.length <= 1) return closed[0]
  return closed.find(holdsFields)
}

/**
 * Gone, with no alert in its place: a selector is present when its first fingerprint that matches
 * anything does, so this one is absent only when neither the dialog nor an alert shows ("Cannot add
 * an account, this name already exists" after the dialog closed is no success). The dialog's name
 * keeps the caller's values free, so a dialog still open on the next call's values is still seen.
 */
export function closedCondition(closed: UiElement, inputs: string[]): Condition {
  const name = nameMatch(closed.name, inputs)
  return {
    kind: 'disappears',
    target: {
      fingerprints: [
        { by: 'role', role: closed.role, name: name.pattern, match: name.match },
        { by: 'role', role: 'alertdialog', name: '.*', match: 'regex' },
      ],
      description: `the “${closedName(closed, inputs)}” ${closed.role} (or an alert in its place)`,
    },
  }
}

/** The dialog's name without the caller's values ("New Account - Expenses:Rent" → "New Account"). */
export function closedName(closed: UiElement, inputs: string[]): string {
  const bare = withoutInputs(closed.name, [...inputs, ...inputs.map((v) => v.toLowerCase())])
    .split(/\s*:\s*|\s+[–—-]+\s+/u)
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' - ')
  return bare || closed.name
}

/** The dialog's own name: exact, or a regex with the caller's values (and numbers) free. */
function nameMatch(name: string, inputs: string[]): { pattern: string; match: TextMatch } {
  const general = generaliseText(name, inputs)
  return general.match === 'contains' ? { pattern: name, match: 'exact' } : general
}

/** Whether the name says something besides the caller's values (three letters or more). */
function ownWords(name: string, inputs: string[]): boolean {
  return (withoutInputs(name, inputs).match(/\p{L}/gu) ?? []).length >= 3
}

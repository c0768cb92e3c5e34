// What a person does right after the submit, before the real outcome shows: confirm an
// "Are you sure?" dialog, or open the record a search found (the result whose link is the
// sample's value) when the values to return are on the record, not in the list. Each hop makes
// the previous action part of the steps before the submit and the new action the submit.
import { indexTree } from '../../automation/index.ts'
import type { Step } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import { isNextName } from '../explore/pages.ts'
import type { PromptReading } from '../locate/prompt.ts'
import type { Ending } from '../observe/classify.ts'
import { counterpart } from '../observe/ui-diff.ts'
import { designSelector } from '../selector-design.ts'
import { actionOf, firstAction } from '../words.ts'
import { speaksForItself } from './submit.ts'

const CREATE = actionOf('create')
const EDIT = actionOf('edit')
const DELETE = actionOf('delete')

/** Buttons that start over rather than send: "New customer", "Add another". */
const ANOTHER = /\b(new|another|again|more)\b/i
/** Buttons that change the view, not the data: "Toggle Search Tools", "Show options". */
const VIEW_ONLY = /^(toggle|show|hide|expand|collapse|open|close|more)\b/i
const CONFIRM_QUESTION =
  /\b(are you sure|do you (really )?want|really|confirm|cannot be undone|can't be undone|proceed\?|continue\?)\b/i
const CONFIRM_BUTTON =
  /^(ok|okay|yes|confirm|continue|proceed|delete|remove|save|submit|i'?m sure|yes,? .*)$/i
const DECLINE_BUTTON = /^(cancel|no|back|close|keep|abort)$/i

/**
 * A second send: the first button showed a preview (or a review page) and a button that really
 * sends it appeared ("Submit", "Create ticket"), as a form with a Preview button works.
 */
export function secondSend(
  ending: Ending,
  sentWith: string,
  reading: PromptReading,
  after: UiElement,
  fields: UiElement[],
): UiElement | undefined {
  // A search has no preview: the screen after it is its results, whatever buttons they carry.
  if (ending.kind !== 'screen' || fields.length === 0 || reading.verb === actionOf('find')) return undefined
  // A preview keeps the form on screen; a success page ("Customer created", "New customer") does
  // not. After a wizard's "Next", a review page shows what was entered and the real send.
  const kept = fields.filter((f) => counterpart(after, f) !== undefined).length
  if (kept * 2 < fields.length && !isNextName(sentWith)) return undefined
  // The same name again in a panel that just opened with a way back, while the button pressed
  // is still there ("Publish" → "Are you ready to publish?" with its own "Publish" and "Cancel"),
  // is the send's second half; a page drawn anew, or results with their search box, are not.
  // The record was made and its form shows it for editing: it offers to delete it now (a
  // "Delete Principal" link appeared). A preview's record does not exist yet; pressing its form's
  // "Update" would send the record a second time.
  if (
    ending.appeared.some((e) => (e.role === 'link' || e.role === 'button') && firstAction(e.name) === DELETE)
  )
    return undefined
  const again = ending.appeared.filter((e) => e.role === 'button' && e.name === sentWith)
  const stayed = indexTree(after).all.some(
    (e) => e.role === 'button' && e.name === sentWith && !ending.appeared.includes(e),
  )
  const wayBack = ending.appeared.some((e) => e.role === 'button' && DECLINE_BUTTON.test(e.name.trim()))
  if (again.length === 1 && stayed && wayBack && !again[0]!.states.includes('disabled')) return again[0]
  const fresh = ending.appeared.filter(
    (e) =>
      e.role === 'button' &&
      e.name.trim() !== '' &&
      !e.states.includes('disabled') &&
      e.name !== sentWith &&
      !ANOTHER.test(e.name) &&
      !VIEW_ONLY.test(e.name.trim()) &&
      // A task that makes a record is never finished by a button that changes one ("Update").
      !(reading.verb === CREATE && firstAction(e.name) === EDIT) &&
      speaksForItself(e.name, reading),
  )
  const names = new Set(fresh.map((b) => b.name.trim()))
  return names.size === 1 ? fresh[0] : undefined
}

export function sendStep(after: UiElement, button: UiElement): Step {
  return {
    kind: 'click',
    name: `Click “${button.name}”`,
    target: designSelector(after, button, `the “${button.name}” button`),
  }
}

/** The button that confirms an "Are you sure?" dialog, when the ending is one. */
export function confirmationButton(ending: Ending): UiElement | undefined {
  if (ending.kind !== 'dialog' || !ending.dialog) return undefined
  const texts = `${ending.message} ${ending.dialog.name} ${ending.dialog.description ?? ''}`
  if (!CONFIRM_QUESTION.test(texts)) return undefined
  const buttons = indexTree(ending.dialog).all.filter((e) => e.role === 'button' && e.name.trim() !== '')
  const declines = buttons.filter((b) => DECLINE_BUTTON.test(b.name.trim()))
  const confirms = buttons.filter((b) => CONFIRM_BUTTON.test(b.name.trim()) && !declines.includes(b))
  // A confirmation offers a way back; a lone OK on a message is no question.
  return declines.length > 0 && confirms.length === 1 ? confirms[0] : undefined
}

export function confirmStep(after: UiElement, button: UiElement): Step {
  return {
    kind: 'click',
    name: `Confirm with “${button.name}”`,
    target: designSelector(after, button, `the “${button.name}” button of the confirmation`),
  }
}

/**
 * The search result to open: a link (or row cell link) on the new screen whose text is one of
 * the sample's values, when exactly one such link appeared. Its step finds the link by the
 * input's template, so a live call opens its own result.
 */
export function resultLink(
  ending: Ending,
  after: UiElement,
  values: { path: string; value: string }[],
): { step: Step; value: string } | undefined {
  if (ending.kind !== 'screen') return undefined
  const links = indexTree(after).all.filter((e) => e.role === 'link' && e.name.trim() !== '')
  for (const { path, value } of values) {
    if (value.length < 2) continue
    const exact = links.filter((l) => l.name.trim().toLowerCase() === value.toLowerCase())
    const found = exact.length
      ? exact
      : links.filter((l) => l.name.toLowerCase().includes(value.toLowerCase()))
    if (found.length !== 1) continue
    const link = found[0]!
    const match = exact.length ? ('exact' as const) : ('contains' as const)
    return {
      value,
      step: {
        kind: 'click',
        name: `Open the result “{{${path}}}”`,
        target: {
          fingerprints: [{ by: 'role', role: 'link', name: `{{${path}}}`, match }],
          description: `the result link “${link.name}”`,
        },
      },
    }
  }
  return undefined
}

// What changed between two snapshots of one window. Refs differ between snapshots, so elements
// are paired by what a person sees (role and name) or by automationId, never by ref.
import { indexTree } from '../../automation/index.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'

const keyOf = (e: UiElement) => `${e.role}\u0000${e.name}`

/**
 * Named elements of `after` that `before` did not show (as many times), in screen order. A name
 * shown twice after (a note's link in a list shown all along, and again among the results that
 * opened under a search box) is paired first with the one in the same place (the same roles
 * around it), so the one in the new place is the one that appeared.
 */
export function appeared(before: UiElement, after: UiElement): UiElement[] {
  const placed = (tree: UiElement) => {
    const index = indexTree(tree)
    // Each element's place: its key after its ancestors' roles, from the root down.
    const path = new Map<UiElement, string>()
    for (const e of index.all) {
      const parent = index.parent.get(e)
      path.set(e, parent ? `${path.get(parent) ?? ''}/${parent.role}` : '')
    }
    const where = (e: UiElement) => `${keyOf(e)}\u0001${path.get(e) ?? ''}`
    return { all: index.all, where }
  }
  const was = placed(before)
  const now = placed(after)
  const counts = new Map<string, number>()
  const inPlace = new Map<string, number>()
  for (const e of was.all) {
    counts.set(keyOf(e), (counts.get(keyOf(e)) ?? 0) + 1)
    inPlace.set(was.where(e), (inPlace.get(was.where(e)) ?? 0) + 1)
  }
  const named = now.all.filter((e) => e !== after && e.name.trim() !== '')
  // First the ones still in their place, then the rest by name alone.
  const kept = new Set<UiElement>()
  for (const e of named) {
    const left = inPlace.get(now.where(e)) ?? 0
    if (left === 0) continue
    inPlace.set(now.where(e), left - 1)
    counts.set(keyOf(e), (counts.get(keyOf(e)) ?? 1) - 1)
    kept.add(e)
  }
  const out: UiElement[] = []
  for (const e of named) {
    if (kept.has(e)) continue
    const left = counts.get(keyOf(e)) ?? 0
    if (left > 0) counts.set(keyOf(e), left - 1)
    else out.push(e)
  }
  return out
}

/**
 * Whether the element of `after` is a text rewritten where it stood with only its numbers changed
 * (a count "1 / 12" → "1 / 2"): an element of the same role held its place in `before`, under
 * parents with as many children (not one added beside the others, as a new card in a list is).
 */
export function recounted(before: UiElement, after: UiElement, element: UiElement): boolean {
  const { parent } = indexTree(after)
  const path: number[] = []
  for (let e = element, up = parent.get(e); up; e = up, up = parent.get(e))
    path.unshift(up.children.indexOf(e))
  let was: UiElement | undefined = before
  let now: UiElement | undefined = after
  for (const i of path) {
    if (!was || !now || was.children.length !== now.children.length) return false
    was = was.children[i]
    now = now.children[i]
  }
  const digitless = (text: string) => text.replace(/\d+/g, '#')
  return (
    was !== undefined &&
    was.role === element.role &&
    was.name !== element.name &&
    digitless(was.name) === digitless(element.name)
  )
}

/** The element of `root` that stands for `element` of another snapshot. */
export function counterpart(root: UiElement, element: UiElement): UiElement | undefined {
  const all = indexTree(root).all
  if (element.automationId) {
    const byId = all.filter((e) => e.automationId === element.automationId && e.role === element.role)
    if (byId.length === 1) return byId[0]
  }
  const byName = all.filter((e) => e.role === element.role && e.name === element.name)
  return byName.length === 1 ? byName[0] : undefined
}

export interface ControlChange {
  element: UiElement
  /** Description text that is new (a validation message linked to the control). */
  newDescription?: string
}

/** What a person fills in: only these can be flagged invalid (a link's tooltip is no complaint). */
const FIELD_ROLES = new Set<UiRole>([
  'textbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'spinbutton',
  'switch',
  'slider',
])

/** Controls that turned invalid or gained description text between the two snapshots. */
export function flaggedControls(before: UiElement, after: UiElement): ControlChange[] {
  const out: ControlChange[] = []
  for (const element of indexTree(after).all) {
    if (!FIELD_ROLES.has(element.role)) continue
    const earlier = counterpart(before, element)
    if (!earlier) continue
    const turnedInvalid = element.states.includes('invalid') && !earlier.states.includes('invalid')
    const added = addedText(earlier.description ?? '', element.description ?? '')
    if (turnedInvalid || added) out.push(added ? { element, newDescription: added } : { element })
  }
  return out
}

/** The part of `now` that `was` did not contain ("Email is required Used for…" minus "Used for…"). */
function addedText(was: string, now: string): string | undefined {
  if (!now || now === was) return undefined
  const rest = was ? now.replace(was, '').trim() : now
  return rest || undefined
}

/** Whether `element` sits inside `container` (or is it). */
export function within(root: UiElement, container: UiElement, element: UiElement): boolean {
  const index = indexTree(root)
  for (let e: UiElement | undefined = element; e; e = index.parent.get(e)) if (e === container) return true
  return false
}

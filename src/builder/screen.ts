// A screen as the builder reasons about it: the controls a value can go into (with the label a
// person sees), the buttons and links that lead somewhere, and the texts on show. Pure: one
// snapshot in, plain data out.
import { ancestors, indexTree } from '../automation/element-tree.ts'
import type { UiElement, UiRole } from '../protocol/elements.ts'

export type ControlKind = 'text' | 'select' | 'checkbox' | 'radio-group'

export interface ScreenControl {
  /** Stable within one reading of one screen; used as a question's option value. */
  key: string
  kind: ControlKind
  /** The control itself; for a radio group, the group (or the radios' common parent). */
  element: UiElement
  radios: UiElement[]
  /** What a person calls it: the accessible name, else the label text before it. */
  label: string
  /** Everything that names it (label, accessible name, a readable automationId). */
  names: string[]
  /** Option labels of a drop-down, or the radio buttons' names. */
  options: string[]
  required: boolean
}

const TEXT_ROLES = new Set<UiRole>(['textbox', 'spinbutton', 'slider'])
const ACTION_ROLES = new Set<UiRole>(['button', 'link', 'menuitem', 'tab', 'treeitem'])

/** Ids that frameworks generate (":r3:", "ember512", "x-8f3a9c21") say nothing about the field. */
export function looksGenerated(id: string): boolean {
  return /^[:_]|\d{3,}|[0-9a-f]{8,}/i.test(id)
}

export function readControls(root: UiElement): ScreenControl[] {
  const index = indexTree(root)
  const controls: ScreenControl[] = []
  const groups = new Map<UiElement, UiElement[]>()
  const usable = (e: UiElement) => !e.states.includes('disabled') && !e.states.includes('readonly')
  for (const element of index.all) {
    if (!usable(element)) continue
    const base = { element, radios: [], required: element.states.includes('required') }
    const named = namesOf(index.all, index.order, element)
    if (TEXT_ROLES.has(element.role)) {
      controls.push({ ...base, key: '', kind: 'text', ...named, options: [] })
    } else if (element.role === 'combobox' || element.role === 'listbox') {
      const options = element.children.filter((c) => c.role === 'option').map((c) => c.name)
      // An editable combobox without listed options takes typed text.
      controls.push({ ...base, key: '', kind: options.length ? 'select' : 'text', ...named, options })
    } else if (element.role === 'checkbox' || element.role === 'switch') {
      controls.push({ ...base, key: '', kind: 'checkbox', ...named, options: [] })
    } else if (element.role === 'radio') {
      const owner = ancestors(index, element).find((a) => a.role === 'group') ?? index.parent.get(element)!
      groups.set(owner, [...(groups.get(owner) ?? []), element])
    }
  }
  for (const [owner, radios] of groups) {
    const named = owner.name
      ? { label: owner.name, names: withId(owner.name, owner) }
      : namesOf(index.all, index.order, radios[0]!, true)
    controls.push({
      key: '',
      kind: 'radio-group',
      element: owner,
      radios,
      ...named,
      options: radios.map((r) => r.name),
      required: owner.states.includes('required') || radios.some((r) => r.states.includes('required')),
    })
  }
  controls.sort((a, b) => index.order.get(a.element)! - index.order.get(b.element)!)
  const seen = new Map<string, number>()
  for (const control of controls) {
    const base =
      control.label
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, '') || 'field'
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    control.key = count === 1 ? base : `${base}-${count}`
  }
  return controls
}

/** The label of a control: its accessible name, else the nearest text before it (a caption). */
function namesOf(
  all: UiElement[],
  order: Map<UiElement, number>,
  element: UiElement,
  skipOwnName = false,
): { label: string; names: string[] } {
  const own = skipOwnName ? '' : element.name
  const at = order.get(element)!
  const caption = own
    ? ''
    : (all
        .slice(Math.max(0, at - 4), at)
        .reverse()
        .find((e) => e.role === 'text' && e.name.length <= 60)
        ?.name.replace(/[\s:*]+$/, '') ?? '')
  const label = own || caption || element.automationId || element.role
  return { label, names: withId(label, element) }
}

function withId(label: string, element: UiElement): string[] {
  const id = element.automationId
  return id && !looksGenerated(id) && id !== label ? [label, id] : [label]
}

/** Buttons, links, menu items and tabs a person could use to go somewhere, in screen order. */
export function actionElements(root: UiElement): UiElement[] {
  return indexTree(root).all.filter(
    (e) => ACTION_ROLES.has(e.role) && e.name.trim() !== '' && !e.states.includes('disabled'),
  )
}

/** Texts a person sees (headings, labels, buttons, messages): for telling windows apart. */
export function visibleTexts(root: UiElement): string[] {
  return indexTree(root)
    .all.filter((e) => e !== root && e.name.trim() !== '' && e.role !== 'option')
    .map((e) => e.name)
}

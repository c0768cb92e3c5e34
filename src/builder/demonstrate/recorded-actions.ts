// A recorded action as the builder reads it (src/protocol/recording.ts): the screens around it,
// its element found again on the screen it was made on (by role and name, automationId, then the
// point it was made at), and a key that names its control the same way on every screen.
import { indexTree, pathTo } from '../../automation/element-tree.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Snapshot, UiElement, UiRole } from '../../protocol/elements.ts'
import type { RecordedAction, Recording } from '../../protocol/recording.ts'
import { readControls } from '../screen.ts'
import { sameAddress } from './demonstrated-values.ts'

/** One recorded action with what the builder made of it. */
export interface Act {
  action: RecordedAction
  before: Snapshot
  after: Snapshot
  element?: UiElement
  /** The control, the same on every screen: its automationId, role and name, or place. */
  key: string
  secret: boolean
  /** Input, select and check merged over corrections: the value the control ends with. */
  value?: string
}

export const VALUE_KINDS = new Set(['input', 'select', 'check'])
export const FIELD_ROLES = new Set<UiRole>([
  'textbox',
  'spinbutton',
  'combobox',
  'listbox',
  'slider',
  'option',
])
export const TOGGLES = new Set<UiRole>(['checkbox', 'radio', 'switch'])
/** What makes two screens the same place: their structure, never the data in rows. */
const SHAPE_ROLES = new Set<UiRole>([
  'heading',
  'button',
  'link',
  'menu',
  'menubar',
  'menuitem',
  'dialog',
  'alertdialog',
  'tab',
  'textbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'switch',
  'spinbutton',
  'form',
])
export const ROW_ROLES = new Set<UiRole>(['row', 'listitem', 'treeitem'])

export function toAct(recording: Recording, action: RecordedAction, i: number): Act {
  const last = recording.snapshots.length - 1
  const at = (index: number) => recording.snapshots[Math.max(0, Math.min(index, last))]!
  // The screen after it is the one the person's next action was made on; a navigation the
  // click caused is reported before its page settled, so it is passed over.
  const later = recording.actions.slice(i + 1)
  const next = action.kind === 'navigate' ? later[0] : later.find((a) => a.kind !== 'navigate')
  const afterIndex = next ? next.before : last
  const after = at(afterIndex)
  // A person quicker than the recorder acts on a screen it read only after the action (a dialog
  // that had just opened): the screens up to the next action's are looked at too.
  // First an element of the target's own role: on its screen, on the nearest later one (a
  // person quicker than the recorder, whose screens lag behind), or on an earlier one (a screen
  // read while it was being redrawn); only then whatever lies under the point on its screen.
  let before = at(action.before)
  let element: UiElement | undefined
  const end = Math.max(action.before, last)
  const order = [
    ...Array.from({ length: end - action.before + 1 }, (_, k) => action.before + k),
    ...Array.from({ length: action.before }, (_, k) => action.before - 1 - k),
  ]
  // A control named like the target and lying under its point wins over one named so elsewhere:
  // a menu drawn over the page names its item like a link beside it (a folder "Suppliers" in the
  // tree and in the "Move to" menu), and the screen read before the menu drew holds only the link.
  // Under the point: only the screens up to the next action's (and the earlier ones), where the
  // control clicked could still be drawn where it was clicked.
  const near = order.filter((n) => n <= Math.max(action.before, afterIndex))
  const search = (strict: boolean) => {
    for (const n of action.target ? (strict ? near : order) : []) {
      const found = locate(at(n), action.target!, true, strict)
      if (found) {
        ;[before, element] = [at(n), found]
        return
      }
    }
  }
  search(true)
  // The recorder may give the clicked node's own role (a text inside a cell) where the screen
  // names only what holds it: the same name under the point, of any role, before anything named
  // so elsewhere (a search box showing the same text). Only for a click the recorder names as
  // plain text or a picture: a control it names by its own role is found as before.
  const inner = action.kind === 'click' && INNER_ROLES.has(action.target?.role as UiRole)
  for (const n of inner && action.target?.point && !element ? near : []) {
    const found = namedUnderPoint(at(n), action.target!)
    if (found) {
      ;[before, element] = [at(n), found]
      break
    }
  }
  if (!element) search(false)
  if (action.target && !element) element = locate(before, action.target, false)
  const secret =
    action.secret === true || action.target?.inputType === 'password' || element?.inputType === 'password'
  return {
    action,
    before,
    after,
    ...(element ? { element } : {}),
    key: keyOf(action, before, element),
    secret,
  }
}

/** Roles the recorder gives the node clicked inside a control or cell. */
const INNER_ROLES = new Set<UiRole>(['text', 'generic', 'image'])

/** The smallest element named like the target and lying under its point, whatever its role. */
function namedUnderPoint(
  snapshot: Snapshot,
  target: NonNullable<RecordedAction['target']>,
): UiElement | undefined {
  const { point } = target
  const name = collapse(target.name)
  if (!point || !name) return undefined
  return indexTree(snapshot.root)
    .all.filter(
      (e) =>
        e.bounds &&
        collapse(e.name) === name &&
        point.x >= e.bounds.x &&
        point.x <= e.bounds.x + e.bounds.width &&
        point.y >= e.bounds.y &&
        point.y <= e.bounds.y + e.bounds.height,
    )
    .sort((a, b) => a.bounds!.width * a.bounds!.height - b.bounds!.width * b.bounds!.height)[0]
}

/** The element an action was made on: by role and name, then automationId, then the point. */
function locate(
  snapshot: Snapshot,
  target: NonNullable<RecordedAction['target']>,
  sameRole: boolean,
  underPoint = false,
): UiElement | undefined {
  const all = indexTree(snapshot.root).all
  const point = target.point
  const at = (e: UiElement) =>
    !!point &&
    !!e.bounds &&
    point.x >= e.bounds.x &&
    point.x <= e.bounds.x + e.bounds.width &&
    point.y >= e.bounds.y &&
    point.y <= e.bounds.y + e.bounds.height
  const area = (e: UiElement) => (e.bounds ? e.bounds.width * e.bounds.height : Number.POSITIVE_INFINITY)
  const pick = (found: UiElement[]) =>
    found.length === 1 && !underPoint ? found[0] : found.filter(at).sort((a, b) => area(a) - area(b))[0]
  const name = collapse(target.name)
  const named = () => all.filter((e) => e.role === target.role && collapse(e.name) === name)
  if (underPoint) {
    // Under the point only: its own id first (a button whose name grew with the menu it opened
    // is still that button), then its role and name.
    if (!point) return undefined
    const byId = target.automationId
      ? pick(all.filter((e) => e.automationId === target.automationId))
      : undefined
    return byId ?? (name ? pick(named()) : undefined)
  }
  if (name) {
    const found = pick(named())
    if (found) return found
  }
  if (target.automationId) {
    const byId = pick(all.filter((e) => e.automationId === target.automationId))
    if (byId) return byId
  }
  const under = all.filter(at).sort((a, b) => area(a) - area(b))
  const own = under.find((e) => e.role === target.role)
  if (own || sameRole) return own
  return under.find((e) => e !== snapshot.root && e.role !== 'generic')
}

function keyOf(action: RecordedAction, snapshot: Snapshot, element: UiElement | undefined): string {
  const id = element?.automationId ?? action.target?.automationId
  if (id) return `id:${id}`
  const role = element?.role ?? action.target?.role ?? ''
  const name = collapse(element?.name ?? action.target?.name ?? '')
  if (name) return `${role}:${name}`
  if (element) return `${role}@${JSON.stringify(pathTo(indexTree(snapshot.root), element))}`
  const p = action.target?.point
  return p ? `${role}@${Math.round(p.x / 8)},${Math.round(p.y / 8)}` : `${action.kind}#${action.seq}`
}

/** Whether two screens are the same place: same address and title, same controls and headings. */
export function sameScreen(a: Snapshot, b: Snapshot): boolean {
  if (a === b) return true
  return a.window.title === b.window.title && sameAddress(a.window.url, b.window.url) && shape(a) === shape(b)
}

function shape(snapshot: Snapshot): string {
  const keys: string[] = []
  const visit = (e: UiElement) => {
    if (ROW_ROLES.has(e.role)) return
    if (SHAPE_ROLES.has(e.role)) keys.push(`${e.role}:${collapse(e.name)}`)
    e.children.forEach(visit)
  }
  visit(snapshot.root)
  return keys.sort().join('\n')
}

export const isClick = (act: Act) => act.action.kind === 'click'
export const isEnter = (act: Act) =>
  act.action.kind === 'key' && /^(enter|return)$/i.test(act.action.key ?? '')
export const roleOf = (act: Act) => act.element?.role ?? act.action.target?.role
export const labelOf = (act: Act) => {
  const element = act.element
  const control = element ? readControls(act.before.root).find((c) => c.element === element) : undefined
  return (
    control?.label ||
    element?.name ||
    act.action.target?.name ||
    element?.placeholder ||
    act.action.target?.placeholder ||
    (act.action.kind === 'key' ? (act.action.key ?? 'a key') : undefined) ||
    act.action.url ||
    roleOf(act) ||
    'the control'
  )
}

export function counterpartIn(root: UiElement, element: UiElement): UiElement | undefined {
  const all = indexTree(root).all
  const same = all.filter(
    (e) =>
      e.role === element.role &&
      (element.automationId ? e.automationId === element.automationId : e.name === element.name),
  )
  return same.length === 1 ? same[0] : undefined
}

/** Every value is some element's whole name or value (case and spacing aside). */
export function showsAll(root: UiElement, values: string[]): boolean {
  const shown = new Set<string>()
  const walk = (e: UiElement) => {
    shown.add(collapse(e.name).toLowerCase())
    if (e.value !== undefined) shown.add(collapse(e.value).toLowerCase())
    e.children.forEach(walk)
  }
  walk(root)
  return values.every((v) => shown.has(collapse(v).toLowerCase()))
}

/** Keys that move the cursor or edit text: the values they lead to are recorded by themselves. */
const EDITING_KEYS =
  /^(shift\+)?(tab|arrow(up|down|left|right)|home|end|page(up|down)|backspace|delete|space)$/i

/**
 * A key that only edits or moves the cursor. An arrow key on a tree's node that can open (a menu
 * tree's "Party" → its entries) is not one: it opens or closes the node, as a click on its
 * expander would, on the way to what follows.
 */
export function editingKey(act: Act): boolean {
  const key = act.action.key ?? ''
  if (act.action.kind !== 'key' || !EDITING_KEYS.test(key)) return false
  return !(/arrow(left|right)$/i.test(key) && act.element && onNode(act.element))
}

/** A node that opens, or a list whose current row is one (a tree view keeps the focus itself). */
function onNode(element: UiElement): boolean {
  const node = (e: UiElement) => e.states.includes('expanded') || e.states.includes('collapsed')
  if (node(element)) return true
  if (!LIST_VIEWS.has(element.role)) return false
  const current = (e: UiElement): boolean =>
    ((e.states.includes('focused') || e.states.includes('selected')) && (node(e) || e.children.some(node))) ||
    e.children.some(current)
  // The view's own focus says nothing of which row is current: only a row of it (or its cell) does.
  return element.children.some(current)
}

const LIST_VIEWS = new Set<UiRole>(['table', 'tree', 'list', 'listbox'])

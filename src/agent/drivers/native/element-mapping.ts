// Maps a native helper's tree (protocol/helper.ts HelperNode: the toolkit's own roles and states)
// onto the shared element model, the same way for every backend: layout containers dissolve,
// text-only containers read as their text, tables become rows of cells under a header row, a
// control with no name takes its label's, and bounds become window-screenshot pixels. What
// differs per backend (the role and state vocabulary, toolkit quirks) is the BackendProfile.
import { collapse } from '../../../automation/text-match.ts'
import type { Bounds, UiElement, UiRole, UiState } from '../../../protocol/elements.ts'
import type { HelperNode } from '../../../protocol/helper.ts'
import { mapStates } from './element-states.ts'

export interface BackendProfile {
  /** The toolkit's role → the model's role; anything missing is `generic`. */
  roles: Readonly<Record<string, UiRole>>
  /** The toolkit's state → the model's state; anything missing is dropped. */
  states: Readonly<Record<string, UiState>>
  /** Roles never shown (scroll bars, separators…). */
  skipped?: ReadonlySet<string>
  /** A node with no role of its own that can be clicked (its actions say so): shown as a button. */
  clickable?(node: HelperNode): boolean
  /** Toolkit quirks: the role of a node given its mapped parent's role (a submenu in a menu is an item). */
  refineRole?(node: HelperNode, role: UiRole, parentRole: UiRole | undefined): UiRole
  /**
   * Toolkit quirks in the tree itself, before a node is mapped: the node as it should be read (a
   * placeholder name cleared, a wrapper's children hoisted), or undefined to leave it out.
   */
  adjust?(node: HelperNode, parentRole: UiRole | undefined): HelperNode | undefined
  /**
   * The state that says a text field takes typing, for toolkits that say so instead of saying
   * read-only (AT-SPI's `editable`): a text box or spin button without it is read-only.
   */
  editableState?: string
  /** What a text-like control takes (protocol/elements.ts inputType), when the toolkit says. */
  inputType?(node: HelperNode): string | undefined
  /**
   * Toolkit roles of items that switch on and off (a check or radio menu item) for toolkits that
   * do not also say so by a state: they are `checkable`.
   */
  checkableRoles?: ReadonlySet<string>
  /** Toolkit roles of an item inside a menu that opens a submenu (AT-SPI's `menu`): it is `collapsed` until open. */
  submenuRoles?: ReadonlySet<string>
}

export interface MappingContext {
  profile: BackendProfile
  /** Where the window is on screen: element bounds are made relative to it. */
  origin: { x: number; y: number }
  /** The model ref of a helper ref (the driver prefixes the helper's instance). */
  ref(helperRef: string): string
}

/** Children of these are internals (an entry's icons, a spin button's arrows), not content. */
const LEAF_ROLES = new Set<UiRole>(['textbox', 'spinbutton', 'slider', 'progressbar', 'image'])
const EDITABLE_ROLES = new Set<UiRole>(['textbox', 'spinbutton', 'combobox'])
/** Containers whose children are laid out by position: shown in reading order, not toolkit order. */
const READING_ORDER = new Set<UiRole>([
  'window',
  'dialog',
  'alertdialog',
  'generic',
  'group',
  'form',
  'tabpanel',
])
/** Nodes that only hold text: shown as that text. */
const TEXT_HOLDERS = new Set<UiRole>([
  'generic',
  'status',
  'cell',
  'columnheader',
  'rowheader',
  'listitem',
  'option',
  'heading',
  'alert',
])

/** The window's tree: its root is role `window`, named after the window's title. */
export function mapWindowTree(root: HelperNode, title: string, context: MappingContext): UiElement {
  const children = readingOrder(root.children.map((child) => mapNode(child, 'window', context))).flat()
  const states = mapStates(root, 'window', context.profile)
  return prune({
    ref: context.ref(root.ref),
    role: 'window',
    name: title || root.name,
    bounds: relative(root.bounds, context.origin),
    states,
    children,
  })
}

function mapNode(helperNode: HelperNode, parentRole: UiRole, context: MappingContext): UiElement[] {
  const node = adjusted(helperNode, parentRole, context.profile)
  return node ? mapAdjusted(node, parentRole, context) : []
}

function adjusted(node: HelperNode, parentRole: UiRole, profile: BackendProfile): HelperNode | undefined {
  return profile.adjust ? profile.adjust(node, parentRole) : node
}

function mapAdjusted(node: HelperNode, parentRole: UiRole, context: MappingContext): UiElement[] {
  const { profile } = context
  const role = roleOf(node, parentRole, profile)
  if (role === undefined) return []
  // A tree whose items are cells in columns (the helper gives it `columns`) is read as a table.
  if ((role === 'table' || role === 'tree') && node.columns) return [mapTable(node, context)]
  if (role === 'tablist') return mapTabList(node, context)
  const blocks = LEAF_ROLES.has(role) ? [] : node.children.map((child) => mapNode(child, role, context))
  const children = (READING_ORDER.has(role) ? readingOrder(blocks) : blocks).flat()
  const states = mapStates(node, role, profile)
  // An item of a menu that opens a submenu says so, as a web menu button says aria-haspopup: the
  // submenu's items are not in the tree until it opens (src/builder/explore/explore-menus.ts).
  if (
    role === 'menuitem' &&
    (parentRole === 'menu' || parentRole === 'menuitem') &&
    profile.submenuRoles?.has(node.role) &&
    !states.includes('expanded') &&
    !children.some((c) => c.role === 'menuitem' && c.bounds)
  )
    states.push('collapsed')
  let name = node.name || node.labelledBy || ''
  // A read-only text box shows its text as its value, like an editable one.
  let value = node.value ?? (EDITABLE_ROLES.has(role) ? node.text : undefined)
  if (role === 'combobox') {
    // Toolkits name a combo box after its selection; the name a user knows it by is its label.
    // One with an entry holds what the entry says.
    const entry = children.find((c) => c.role === 'textbox')
    const selected = children.find((c) => c.role === 'option' && c.states.includes('selected'))?.name
    value ??= entry?.value ?? selected ?? node.name
    name = node.name && node.name !== value ? node.name : (node.labelledBy ?? '')
  }
  if (EDITABLE_ROLES.has(role)) value ??= ''
  const element: UiElement = {
    ref: context.ref(node.ref),
    role,
    name,
    value,
    automationId: node.automationId,
    bounds: relative(node.bounds, context.origin),
    states,
    description: node.description ?? node.describedBy,
    placeholder: node.placeholder,
    inputType: profile.inputType?.(node),
    children,
  }
  if (!element.name && node.text && !EDITABLE_ROLES.has(role)) element.name = collapse(node.text)
  if (role === 'generic') return dissolveGeneric(element)
  if (TEXT_HOLDERS.has(role)) absorbText(element)
  return [prune(element)]
}

/** The model's role of a node under a parent of `parentRole`; undefined for roles never shown. */
function roleOf(node: HelperNode, parentRole: UiRole, profile: BackendProfile): UiRole | undefined {
  if (profile.skipped?.has(node.role)) return undefined
  let role: UiRole = profile.roles[node.role] ?? 'generic'
  if (profile.refineRole) role = profile.refineRole(node, role, parentRole)
  if (role === 'generic' && profile.clickable?.(node)) role = 'button'
  return role
}

/** Layout containers: text-only ones become one text, named or identified ones stay, the rest dissolve. */
function dissolveGeneric(element: UiElement): UiElement[] {
  const text = joinedText(element.children)
  if (text !== undefined && (!element.name || element.name === text)) {
    const bounds = element.bounds ?? union(element.children.map((c) => c.bounds))
    return [prune({ ...element, role: 'text', name: text, bounds, children: [] })]
  }
  if (element.children.length === 0 && !element.name && !element.automationId) return []
  if (!element.name && !element.automationId && !element.description) return element.children
  return [prune(element)]
}

/** A cell, list item or status that only holds text is read as that text. */
function absorbText(element: UiElement): void {
  const text = joinedText(element.children)
  if (text === undefined) return
  if (!element.name || element.name === text) {
    element.name = text
    element.children = []
  }
}

function joinedText(children: UiElement[]): string | undefined {
  if (children.length === 0 || children.some((c) => c.role !== 'text' || c.automationId)) return undefined
  return collapse(children.map((c) => c.name).join(' ')) || undefined
}

/** Header cells first, then one row per table row (cells in column order), like an HTML table. */
function mapTable(node: HelperNode, context: MappingContext): UiElement {
  const { profile } = context
  const headers: UiElement[] = []
  const rows = new Map<number, { cells: { column: number; cell: UiElement }[]; own?: UiElement }>()
  const loose: UiElement[] = []
  const place = (cellNode: HelperNode, mapped: UiElement, rowIndex: number | undefined, own?: UiElement) => {
    if (mapped.role === 'columnheader') headers.push(mapped)
    else if (rowIndex !== undefined && (mapped.role === 'cell' || mapped.role === 'rowheader')) {
      const row = rows.get(rowIndex) ?? { cells: [], own }
      // A row header the toolkit gives no column comes before the row's cells.
      const column = cellNode.column ?? (own && mapped.role === 'rowheader' ? -1 : row.cells.length)
      row.cells.push({ column, cell: mapped })
      rows.set(rowIndex, row)
    } else loose.push(mapped)
  }
  let exposedRows = 0
  for (const raw of node.children) {
    const child = adjusted(raw, 'table', profile)
    if (!child) continue
    const containerRole = roleOf(child, 'table', profile) ?? 'generic'
    if (child.row === undefined && holdsCells(child, containerRole, profile)) {
      // A row (or header row) exposed as an element of its own (UI Automation's DataItem and
      // Header): its cells take their places in the table, and the row keeps its own ref and state.
      const own = mapAdjusted({ ...child, children: [] }, 'table', context).find((e) => e.role === 'row')
      const rowIndex = exposedRows
      for (const cellNode of child.children)
        for (const mapped of mapNode(cellNode, containerRole, context))
          place(cellNode, mapped, cellNode.row ?? rowIndex, own)
      if (own) exposedRows++
      continue
    }
    for (const mapped of mapAdjusted(child, 'table', context)) place(child, mapped, child.row)
  }
  const rowElements: UiElement[] = []
  // Hidden columns (Qt's Password, Expires) keep a header with no place and no cell: left out, so
  // headers line up with cells. Headers come one per column, in order, when all are listed.
  const filled = new Set([...rows.values()].flatMap((r) => r.cells.map((c) => c.column)))
  const shown =
    headers.length === node.columns?.length
      ? headers.filter((h, column) => h.bounds || filled.has(column) || filled.size === 0)
      : headers
  if (shown.length) rowElements.push(rowOf(shown))
  for (const [, row] of [...rows].sort(([a], [b]) => a - b))
    rowElements.push(
      rowOf(
        row.cells.sort((a, b) => a.column - b.column).map((c) => c.cell),
        row.own,
      ),
    )
  return prune({
    ref: context.ref(node.ref),
    role: 'table',
    name: node.name || node.labelledBy || '',
    automationId: node.automationId,
    bounds: relative(node.bounds, context.origin),
    states: mapStates(node, 'table', context.profile),
    description: node.description ?? node.describedBy,
    children: [...rowElements, ...loose],
  })
}

/** A child of a table that holds cells or column headers rather than being one. */
function holdsCells(node: HelperNode, role: UiRole, profile: BackendProfile): boolean {
  return node.children.some((c) => c.row !== undefined || roleOf(c, role, profile) === 'columnheader')
}

/**
 * A table row: the toolkit's own row element (`own`) when it exposes one, else a row made up
 * for its cells, where acting on the row acts on its first cell.
 */
function rowOf(cells: UiElement[], own?: UiElement): UiElement {
  const states = new Set(own?.states)
  if (cells.some((c) => c.states.includes('selected'))) states.add('selected')
  return prune({
    ref: own?.ref ?? cells[0]!.ref,
    role: 'row',
    name: collapse(cells.map((c) => c.name).join(' ')),
    bounds: own?.bounds ?? union(cells.map((c) => c.bounds)),
    states: [...states],
    children: cells,
  })
}

/**
 * Tabs keep their page out of the tab list: the selected tab's content follows as a tab panel.
 * A page that is the tab list's child rather than its tab's (a WinForms TabPage) is that panel.
 */
function mapTabList(node: HelperNode, context: MappingContext): UiElement[] {
  const { profile } = context
  const tabs: UiElement[] = []
  const panels: UiElement[] = []
  const pages: HelperNode[] = []
  for (const raw of node.children) {
    const child = adjusted(raw, 'tablist', profile)
    if (!child) continue
    if (roleOf(child, 'tablist', profile) !== 'tab' && child.children.length) {
      pages.push(child)
      continue
    }
    const content = readingOrder(child.children.map((c) => mapNode(c, 'tabpanel', context))).flat()
    for (const tab of mapAdjusted({ ...child, children: [] }, 'tablist', context)) {
      tabs.push(tab)
      if (content.length) panels.push(tabPanel(tab.ref, tab.name, content))
    }
  }
  const selected = tabs.find((t) => t.states.includes('selected'))?.name ?? ''
  for (const page of pages) {
    const content = readingOrder(page.children.map((c) => mapNode(c, 'tabpanel', context))).flat()
    if (content.length)
      panels.push(tabPanel(context.ref(page.ref), page.name || selected, content, page.automationId))
  }
  const list = prune({
    ref: context.ref(node.ref),
    role: 'tablist',
    name: node.name || node.labelledBy || '',
    bounds: relative(node.bounds, context.origin),
    states: mapStates(node, 'tablist', context.profile),
    children: tabs,
  })
  return [list, ...panels]
}

function tabPanel(ref: string, name: string, content: UiElement[], automationId?: string): UiElement {
  return prune({
    ref,
    role: 'tabpanel',
    name,
    automationId,
    bounds: union(content.map((c) => c.bounds)),
    states: [],
    children: content,
  })
}

/**
 * Blocks (what each toolkit child became) in reading order: top to bottom by lines, left to right
 * within a line. Toolkits list children in their own order (GTK grids in reverse), which would
 * put a field before its label. A block is placed by the union of its elements' bounds; a level
 * where some block has none keeps the toolkit's order.
 */
export function readingOrder(blocks: UiElement[][]): UiElement[][] {
  const placed = blocks
    .filter((b) => b.length > 0)
    .map((items) => ({ items, bounds: union(items.map((e) => e.bounds)) }))
  if (placed.length < 2 || placed.some((b) => !b.bounds)) return blocks
  const byTop = placed.sort((a, b) => a.bounds!.y - b.bounds!.y || a.bounds!.x - b.bounds!.x)
  const lines: { top: number; bottom: number; blocks: typeof placed }[] = []
  for (const block of byTop) {
    const { y, height } = block.bounds!
    const line = lines.at(-1)
    // Same line when the block and the line overlap by half the shorter of the two (a label
    // beside its taller field; columns side by side).
    const overlap = line ? Math.min(line.bottom, y + height) - Math.max(line.top, y) : -1
    if (line && overlap >= 0.5 * Math.min(height, line.bottom - line.top)) {
      line.blocks.push(block)
      line.top = Math.min(line.top, y)
      line.bottom = Math.max(line.bottom, y + height)
    } else lines.push({ top: y, bottom: y + height, blocks: [block] })
  }
  return lines.flatMap((line) => line.blocks.sort((a, b) => a.bounds!.x - b.bounds!.x).map((b) => b.items))
}

function relative(bounds: Bounds | undefined, origin: { x: number; y: number }): Bounds | undefined {
  if (!bounds) return undefined
  return { x: bounds.x - origin.x, y: bounds.y - origin.y, width: bounds.width, height: bounds.height }
}

function union(all: (Bounds | undefined)[]): Bounds | undefined {
  const present = all.filter((b): b is Bounds => b !== undefined)
  if (present.length === 0) return undefined
  const x = Math.min(...present.map((b) => b.x))
  const y = Math.min(...present.map((b) => b.y))
  const right = Math.max(...present.map((b) => b.x + b.width))
  const bottom = Math.max(...present.map((b) => b.y + b.height))
  return { x, y, width: right - x, height: bottom - y }
}

/** Drops optional members that are undefined so snapshots serialise (and compare) cleanly. */
function prune(element: UiElement): UiElement {
  for (const key of [
    'value',
    'automationId',
    'bounds',
    'description',
    'placeholder',
    'inputType',
    'href',
  ] as const)
    if (element[key] === undefined) delete element[key]
  return element
}

// A screen as the builder reasons about it: the controls a value can go into (named the ways a
// person finds them: label, aria-label, placeholder, the text just before it, its column header),
// composite controls read as one (a native date input, day/month/year parts, a date-picker box),
// the buttons and links that lead somewhere, and the texts on show. Pure: one snapshot in, plain
// data out.
import { openDialogs } from '../automation/conditions.ts'
import { ancestors, indexTree, inFoldedMenu, type TreeIndex } from '../automation/element-tree.ts'
import type { UiElement, UiRole } from '../protocol/elements.ts'
import { type DatePart, datePartOf, datePattern } from './map/value-adapters.ts'
import { isDateInternal, mergeDateParts, nativeDateParts } from './screen-date-parts.ts'

export type ControlKind = 'text' | 'select' | 'checkbox' | 'radio-group' | 'date' | 'date-parts'

/** What a control's own make says it takes (HTML input type, role, hint): values of that shape go there. */
export type ControlShape = 'email' | 'date' | 'number' | 'search' | 'tel' | 'url' | 'time'

/** One box or list of a day/month/year group, with the filter that writes its part. */
export interface DatePartControl {
  part: DatePart
  element: UiElement
  kind: 'select' | 'text'
  /** `day`, `day2`, `month`, `month2`, `monthName`, `monthShort` or `year`. */
  filter: string
  options: string[]
}

export interface ScreenControl {
  /** Stable within one reading of one screen; used as a question's option value. */
  key: string
  kind: ControlKind
  /** The control itself; for a radio group, the group (or the radios' common parent); for date parts, the first part. */
  element: UiElement
  radios: UiElement[]
  /** What a person calls it: the accessible name, else the label text before it, its column, its hint. */
  label: string
  /** Everything that names it (label, placeholder, nearby text, column header, a readable automationId). */
  names: string[]
  /** Where each name comes from, as progress says it ("the text before it", "its column"). */
  nameSources?: Record<string, string>
  /** Option labels of a drop-down, or the radio buttons' names. */
  options: string[]
  required: boolean
  shape?: ControlShape
  /** A date-picker text box: the format its hint shows ("DD/MM/YYYY"). */
  datePattern?: string
  /** An ARIA combobox whose options show only while typing: chosen by typing. */
  typeahead?: boolean
  /** Day/month/year parts, in screen order (kind `date-parts`). */
  parts?: DatePartControl[]
}

const TEXT_ROLES = new Set<UiRole>(['textbox', 'spinbutton', 'slider'])
const CONTROL_ROLES = new Set<UiRole>([
  'textbox',
  'spinbutton',
  'slider',
  'combobox',
  'listbox',
  'checkbox',
  'switch',
  'radio',
])
const ACTION_ROLES = new Set<UiRole>(['button', 'link', 'menuitem', 'tab', 'treeitem'])
/** Texts that caption the control after them (a column header names its column instead; a heading names a section, not a field). */
const CAPTION_ROLES = new Set<UiRole>(['text', 'rowheader', 'cell', 'link'])
const SHAPES = new Set<string>(['email', 'date', 'number', 'search', 'tel', 'url', 'time'])
/** A caption longer than this is a sentence of help text, not a label. */
const CAPTION_MAX = 60

/** Ids that frameworks generate (":r3:", "ember512", "x-8f3a9c21") say nothing about the field. */
export function looksGenerated(id: string): boolean {
  return /^[:_]|\d{3,}|[0-9a-f]{8,}/i.test(id)
}

/**
 * What a person can act on: the topmost modal dialog while one is open (a desktop app's "Add
 * contact", a page's modal form), since the window behind it takes no input; else the window.
 */
export function activeScope(root: UiElement): UiElement {
  return openDialogs(root).at(-1) ?? root
}

/** Elements of the active scope, in screen order, with the index of the whole window. */
function scoped(index: TreeIndex, root: UiElement): UiElement[] {
  const scope = activeScope(root)
  return scope === root ? index.all : index.all.filter((e) => within(index, scope, e))
}

function within(index: TreeIndex, container: UiElement, element: UiElement): boolean {
  for (let e: UiElement | undefined = element; e; e = index.parent.get(e)) if (e === container) return true
  return false
}

export function readControls(root: UiElement): ScreenControl[] {
  const index = indexTree(root)
  const controls: ScreenControl[] = []
  const groups = new Map<UiElement, UiElement[]>()
  const inside = new Set<UiElement>()
  const usable = (e: UiElement) => !e.states.includes('disabled') && !e.states.includes('readonly')
  // Whether the driver reports HTML input types at all (older recordings and other drivers do not).
  const typedFacts = index.all.some((e) => e.inputType !== undefined)
  for (const element of scoped(index, root)) {
    if (inside.has(element) || !usable(element)) continue
    const base = { element, radios: [], required: element.states.includes('required') }
    const dateParts = nativeDateParts(element)
    if (dateParts) {
      // A native date input: Chromium shows its day/month/year as inner spin buttons; it is one control.
      for (const part of dateParts) inside.add(part)
      const named = namesOf(index, element)
      const shape: ControlShape = element.inputType === 'time' ? 'time' : 'date'
      controls.push({ ...base, key: '', kind: 'date', ...named, options: [], shape })
      continue
    }
    if (TEXT_ROLES.has(element.role)) {
      if (isDateInternal(index, element)) continue
      const named = namesOf(index, element)
      const pattern = datePattern(element.placeholder) ?? datePattern(element.name)
      const shape: ControlShape | undefined = pattern
        ? 'date'
        : element.inputType && SHAPES.has(element.inputType)
          ? (element.inputType as ControlShape)
          : element.role === 'spinbutton'
            ? 'number'
            : named.names.some((n) => /\b(e-?mail|courriel)\b/i.test(n))
              ? 'email'
              : named.names.some((n) => /\b(search|find|filter)\b/i.test(n))
                ? 'search'
                : undefined
      controls.push({
        ...base,
        key: '',
        kind: 'text',
        ...named,
        options: [],
        ...(shape ? { shape } : {}),
        ...(pattern ? { datePattern: pattern } : {}),
      })
    } else if (element.role === 'combobox' || element.role === 'listbox') {
      // A drop-down holding a text box (an editable combo) takes any text: the box is the control.
      if (element.children.some((c) => c.role === 'textbox')) continue
      const options = element.children.filter((c) => c.role === 'option').map((c) => c.name)
      // A native drop-down with no options at all (a tracker's empty "Subsystem" list) takes nothing (the
      // browser driver marks it read-only; older snapshots are read by this rule); a combobox the
      // driver knows as a text input (inputType) is an ARIA typeahead box, and one that says it
      // is collapsed or expanded is an ARIA drop-down whose options show once it is opened.
      if (
        options.length === 0 &&
        element.role === 'combobox' &&
        element.inputType === undefined &&
        typedFacts &&
        !element.states.includes('collapsed') &&
        !element.states.includes('expanded')
      )
        continue
      const named = namesOf(index, element)
      const search = named.names.some((n) => /\b(search|find|filter)\b/i.test(n))
      // An ARIA combobox lists its options only while typing: it is chosen by typing, unless it
      // is a search box (free text with suggestions).
      if (options.length === 0 && search)
        controls.push({ ...base, key: '', kind: 'text', ...named, options, shape: 'search' })
      else
        controls.push({
          ...base,
          key: '',
          kind: 'select',
          ...named,
          options,
          ...(options.length === 0 ? { typeahead: true } : {}),
        })
    } else if (element.role === 'checkbox' || element.role === 'switch') {
      controls.push({ ...base, key: '', kind: 'checkbox', ...namesOf(index, element), options: [] })
    } else if (element.role === 'radio') {
      const owner = ancestors(index, element).find((a) => a.role === 'group') ?? index.parent.get(element)!
      groups.set(owner, [...(groups.get(owner) ?? []), element])
    }
  }
  for (const [owner, radios] of groups) {
    const named = owner.name
      ? { label: owner.name, names: withId([owner.name], owner), nameSources: { [owner.name]: 'its label' } }
      : namesOf(index, radios[0]!, true)
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
  const merged = mergeDateParts(index, controls, (e) => captionBefore(index, e))
  const seen = new Map<string, number>()
  for (const control of merged) {
    const base =
      control.label
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, '') || 'field'
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    control.key = count === 1 ? base : `${base}-${count}`
  }
  return merged
}

/** Hints shown in an empty field look like this: "Search orders…", "DD/MM/YYYY", "e.g. 12". */
function placeholderLike(element: UiElement): boolean {
  const name = element.name
  return (
    (element.placeholder !== undefined && element.placeholder === name) ||
    /(…|\.\.\.)$/.test(name) ||
    datePattern(name) !== undefined ||
    /^e\.\s?g\./i.test(name)
  )
}

/**
 * Every way a person finds a control: its accessible name (label, aria-label), its placeholder,
 * the text just before it, its column header; the label is the first of these that a person
 * would call it by (a hint only when nothing else names it).
 */
function namesOf(
  index: TreeIndex,
  element: UiElement,
  skipOwnName = false,
): { label: string; names: string[]; nameSources: Record<string, string> } {
  // "[F]" (a title giving the access key) names nothing a person would call the box.
  // A name taken from a label ("Amount:", by a desktop app's label relation) without its colon.
  // A styled drop-down is often named by the value it shows ("open"): that names no field.
  const showsItsValue = element.value !== undefined && element.value.trim() === element.name.trim()
  const own =
    skipOwnName || showsItsValue || placeholderLike(element) || !/\p{L}{2}/u.test(element.name)
      ? ''
      : element.name.replace(/\s*[:*]+\s*$/, '') || element.name
  const hint = element.placeholder ?? (placeholderLike(element) ? element.name : '')
  const column = columnHeader(index, element)
  const row = rowLabel(index, element)
  // In a grid, the text before a cell's box belongs to the row or the previous column.
  const caption = column || row ? '' : captionBefore(index, element)
  // A dialog that asks for one thing ("Account name" with one box) names it by its title.
  const titled = own || caption || column || row || hint ? '' : soleFieldTitle(index, element)
  const label = own || caption || column || row || hint || titled || element.automationId || element.role
  const names = [own, caption, column, row, hint, titled].filter((n) => n !== '')
  const nameSources: Record<string, string> = {}
  const source = (name: string, how: string) => {
    if (name && !(name in nameSources)) nameSources[name] = how
  }
  source(own, 'its label')
  source(caption, 'the text before it,')
  source(column, 'its column')
  source(row, 'its row')
  source(hint, 'its hint')
  source(titled, 'the title of its dialog,')
  if (element.automationId) source(element.automationId, 'its id')
  return { label, names: withId(names.length ? names : [label], element), nameSources }
}

/** The title of the dialog the control is the only field of (a prompt for one value), else ''. */
function soleFieldTitle(index: TreeIndex, element: UiElement): string {
  const dialog = ancestors(index, element).find((a) => a.role === 'dialog' || a.role === 'alertdialog')
  if (!dialog?.name.trim()) return ''
  const fields = indexTree(dialog).all.filter(
    (e) => CONTROL_ROLES.has(e.role) && !e.states.includes('disabled'),
  )
  return fields.length === 1 && fields[0] === element ? dialog.name.trim() : ''
}

function withId(names: string[], element: UiElement): string[] {
  const id = element.automationId
  const all = id && !looksGenerated(id) ? [...names, id] : names
  return [...new Set(all.map((n) => n.trim()).filter((n) => n !== ''))]
}

/**
 * The text just before the control, as a person reads a form: the nearest caption with no other
 * control in between. Long help text gives its last sentence when that is short ("… Format:"),
 * or, past another control, its first sentence ("Enter a detailed description of the problem.").
 */
function captionBefore(index: TreeIndex, element: UiElement): string {
  const at = index.order.get(element)!
  const chain = ancestors(index, element)
  const above = new Set(chain)
  // A dialog is a layer of its own: what lies before it belongs to the window behind, never a
  // caption of a box inside it (a dialog read while its own texts were still being drawn).
  const dialog = chain.find((a) => a.role === 'dialog' || a.role === 'alertdialog')
  const first = dialog ? index.order.get(dialog)! : 0
  let passed = 0
  let colon = false
  for (let i = at - 1, steps = 0; i >= first && steps < 12; i--) {
    const e = index.all[i]!
    if (above.has(e) || e.role === 'option' || insideControl(index, e)) continue
    steps++
    if (CONTROL_ROLES.has(e.role)) {
      if (++passed > 1) return ''
      continue
    }
    // A bare ":" after a "Markup style" link makes the link a caption.
    if (e.role === 'text' && !/[\p{L}\p{N}]/u.test(e.name)) {
      colon ||= e.name.includes(':')
      continue
    }
    // Any other link or button in between (or text inside one): what comes before it is its own.
    const action = ACTION_ROLES.has(e.role)
      ? e
      : ancestors(index, e).find((a) => !above.has(a) && ACTION_ROLES.has(a.role))
    if (action && !(action.role === 'link' && colon)) return ''
    if (!CAPTION_ROLES.has(e.role) || !/[\p{L}\p{N}]/u.test(e.name)) continue
    const sentences = e.name
      .split(/(?<=[.?!:])\s+/)
      .map((s) => s.replace(/[\s:*]+$/, '').trim())
      .filter(Boolean)
    if (passed === 0) {
      const last = sentences.at(-1) ?? ''
      if (e.name.length <= CAPTION_MAX) return e.name.replace(/[\s:*]+$/, '')
      return last.length <= CAPTION_MAX ? last : ''
    }
    return sentences.length > 1 && sentences[0]!.length <= CAPTION_MAX ? sentences[0]!.replace(/\.$/, '') : ''
  }
  return ''
}

function insideControl(index: TreeIndex, element: UiElement): boolean {
  return ancestors(index, element).some((a) => CONTROL_ROLES.has(a.role))
}

/**
 * For a control in a table row whose first cell is plain text: that text ("city" in a form laid out
 * as a table: field name | type | operator | value box). A row with several controls is named by
 * it too (a search form's operator and value); other rows' labels never count.
 */
function rowLabel(index: TreeIndex, element: UiElement): string {
  const chain = ancestors(index, element)
  const cell = chain.find((a) => a.role === 'cell' || a.role === 'rowheader')
  const row = cell && index.parent.get(cell)
  if (!cell || !row || row.role !== 'row') return ''
  const first = row.children.find((c) => c.role === 'cell' || c.role === 'rowheader')
  if (!first || first === cell) return ''
  const holdsControl = indexTree(first).all.some((e) => CONTROL_ROLES.has(e.role) || ACTION_ROLES.has(e.role))
  const text = first.name.trim().replace(/[\s:*]+$/, '')
  return holdsControl || !/\p{L}/u.test(text) || text.length > CAPTION_MAX ? '' : text
}

/** For a control in a table cell: the header of its column ("Hours"). */
function columnHeader(index: TreeIndex, element: UiElement): string {
  const chain = ancestors(index, element)
  const cell = chain.find((a) => a.role === 'cell')
  const row = cell && index.parent.get(cell)
  const table = chain.find((a) => a.role === 'table')
  if (!cell || !row || row.role !== 'row' || !table) return ''
  const column = row.children.filter((c) => c.role === 'cell' || c.role === 'rowheader').indexOf(cell)
  const headerRow = indexTree(table).all.find(
    (e) => e.role === 'row' && e.children.some((c) => c.role === 'columnheader'),
  )
  const headers = headerRow?.children.filter((c) => c.role === 'columnheader' || c.role === 'cell') ?? []
  return headers[column]?.name.trim() ?? ''
}

/**
 * Buttons, links, menu items and tabs a person could use to go somewhere, in screen order (in
 * the open modal dialog only, when there is one).
 */
export function actionElements(root: UiElement): UiElement[] {
  const index = indexTree(root)
  // A submenu folded away until hovered is not tried while exploring (docs/builder.md).
  return scoped(index, root).filter(
    (e) =>
      ACTION_ROLES.has(e.role) &&
      e.name.trim() !== '' &&
      !e.states.includes('disabled') &&
      !inFoldedMenu(index, e),
  )
}

/** Texts a person sees (headings, labels, buttons, messages): for telling windows apart. */
export function visibleTexts(root: UiElement): string[] {
  return indexTree(root)
    .all.filter((e) => e !== root && e.name.trim() !== '' && e.role !== 'option')
    .map((e) => e.name)
}

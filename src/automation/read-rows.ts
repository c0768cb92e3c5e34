// `read` with `source: rows`: a table, grid, list or run of cards on screen as an array of plain
// objects. Pure over the element tree, so the same rules hold for every driver and for recorded
// screens; the builder uses the same item and part rules to choose what a step reads.
import type { CardRun, RowPart } from '../protocol/automation.ts'
import type { UiElement, UiRole } from '../protocol/elements.ts'
import { collapse, foldWord } from './text-match.ts'

export class RowsError extends Error {
  override readonly name = 'RowsError'
}

const LIST_ROLES = new Set(['list', 'listbox', 'tree', 'menu', 'tablist'])
const ITEM_ROLES = new Set(['listitem', 'option', 'treeitem', 'menuitem', 'tab'])
const CELL_ROLES = new Set(['cell', 'rowheader', 'columnheader'])
/** What a person reads as one piece of a row or card: a title, a link, a line of text, a cell. */
const PART_ROLES = new Set<UiRole>(['heading', 'link', 'text', 'cell', 'rowheader', 'columnheader', 'status'])

/** How a read step shapes each row beyond header columns (see the read step's schema). */
export interface RowShape {
  parts?: Readonly<Record<string, RowPart>>
  cards?: CardRun
  pluck?: string
}

/**
 * Tables give one object per data row, keyed by the header texts or, with `columns` (output key
 * → header text, compared without case, accents or punctuation), by the caller's keys; `parts`
 * adds keys read at a cell's position (tables without headers) or inside a cell. Lists give
 * `{text, href?}` per item and cards `{title, href?, text}`, or `parts` of each. A table with
 * headers but no data rows gives [].
 */
export function readRows(
  target: UiElement,
  columns?: Readonly<Record<string, string>>,
  shape?: Omit<RowShape, 'pluck'>,
): Record<string, unknown>[]
export function readRows(
  target: UiElement,
  columns?: Readonly<Record<string, string>>,
  shape?: RowShape,
): unknown[]
export function readRows(
  target: UiElement,
  columns?: Readonly<Record<string, string>>,
  shape: RowShape = {},
): unknown[] {
  const rows = objects(target, columns, shape)
  const pluck = shape.pluck
  return pluck === undefined ? rows : rows.map((row) => row[pluck] ?? '')
}

function objects(
  target: UiElement,
  columns: Readonly<Record<string, string>> | undefined,
  shape: RowShape,
): Record<string, unknown>[] {
  if (shape.cards) return cardItems(target, shape.cards).map((card) => itemObject(card, shape.parts, true))
  if (target.role === 'table') return tableRows(target, columns, shape.parts)
  if (LIST_ROLES.has(target.role)) return listItems(target).map((item) => itemObject([item], shape.parts))
  // A container around one table or list (a card, a region) reads as that table or list.
  const inner = findFirst(target, (e) => e.role === 'table' || LIST_ROLES.has(e.role))
  if (inner) return objects(inner, columns, shape)
  throw new RowsError(`${target.role} "${target.name}" is not a table, grid or list`)
}

/** A table's header row (all column headers; none in a grid without one) and its data rows. */
export function tableLayout(table: UiElement): { header?: UiElement; headers: string[]; rows: UiElement[] } {
  const rows = collect(
    table,
    (e) => e.role === 'row',
    (e) => e.role === 'table' && e !== table,
  )
  // Mostly column headers: a header row may start with a plain cell holding a select-all box.
  const isHeaderRow = (row: UiElement) => {
    const cells = cellsOf(row)
    return cells.filter((c) => c.role === 'columnheader').length * 2 > cells.length
  }
  const header = rows.find(isHeaderRow)
  return {
    ...(header ? { header } : {}),
    headers: header ? cellsOf(header).map(textOf) : [],
    rows: rows.filter((row) => !isHeaderRow(row) && cellsOf(row).length > 0),
  }
}

function tableRows(
  table: UiElement,
  columns: Readonly<Record<string, string>> | undefined,
  parts: RowShape['parts'],
): Record<string, unknown>[] {
  const { headers, rows } = tableLayout(table)
  const keys = columns ? mappedKeys(headers, columns) : parts ? () => [] : headerKeys(headers)
  return rows.map((row) => {
    const cells = cellsOf(row)
    const out: Record<string, unknown> = {}
    for (const { key, index } of keys(cells.length)) out[key] = cells[index] ? textOf(cells[index]) : ''
    for (const [key, part] of Object.entries(parts ?? {})) out[key] = partValue([row], part)
    return out
  })
}

type KeysFor = (cellCount: number) => { key: string; index: number }[]

function headerKeys(headers: string[]): KeysFor {
  return (count) => {
    const used = new Set<string>()
    return Array.from({ length: Math.max(count, headers.length) }, (_, index) => {
      let key = headers[index] || `column${index + 1}`
      // Two columns with the same header keep both values.
      for (let n = 2; used.has(key); n++) key = `${headers[index] || `column${index + 1}`} ${n}`
      used.add(key)
      return { key, index }
    })
  }
}

function mappedKeys(headers: string[], columns: Readonly<Record<string, string>>): KeysFor {
  const folded = headers.map(foldWord)
  const keys = Object.entries(columns).map(([key, header]) => {
    const index = folded.indexOf(foldWord(header))
    if (index < 0) {
      const shown = headers.length ? headers.map((h) => `"${h}"`).join(', ') : 'none'
      throw new RowsError(`The table has no column "${header}" (for "${key}"); its headers are: ${shown}`)
    }
    return { key, index }
  })
  return () => keys
}

/** The items of a list, listbox or tree, not looking into nested lists or tables. */
export function listItems(list: UiElement): UiElement[] {
  return collect(
    list,
    (e) => ITEM_ROLES.has(e.role),
    (e) => e !== list && (LIST_ROLES.has(e.role) || e.role === 'table'),
  )
}

/**
 * The cards of a run, each as the elements it is made of: one child per card, or (flat) the
 * children from one starting element to the next. The last flat card stops at the longest
 * length of the others, so a footer or pager after the run is not read as part of it.
 */
export function cardItems(target: UiElement, run: CardRun): UiElement[][] {
  if (!run.flat) return target.children.filter((c) => c.role === run.role).map((c) => [c])
  const starts = target.children.flatMap((c, i) => (c.role === run.role ? [i] : []))
  const cards = starts.map((start, i) =>
    target.children.slice(start, starts[i + 1] ?? target.children.length),
  )
  if (cards.length >= 2) {
    const longest = Math.max(...cards.slice(0, -1).map((c) => c.length))
    cards[cards.length - 1] = cards[cards.length - 1]!.slice(0, longest)
  }
  return cards
}

/** The text parts of an item in screen order, not looking inside a part (a heading's link). */
export function partsOf(item: readonly UiElement[]): UiElement[] {
  const out: UiElement[] = []
  const visit = (e: UiElement) => {
    if (PART_ROLES.has(e.role) && textOf(e) !== '') out.push(e)
    else for (const child of e.children) visit(child)
  }
  for (const e of item) visit(e)
  return out
}

/** The element a part points at in an item (a row is an item of one element). */
export function partElement(item: readonly UiElement[], part: RowPart): UiElement | undefined {
  let scope: readonly UiElement[] = item
  if (part.cell !== undefined) {
    const cell = item.length === 1 ? cellsOf(item[0]!)[part.cell - 1] : undefined
    if (!cell) return undefined
    if (part.role === undefined && part.nth === undefined) return cell
    scope = cell.children
  }
  const parts = partsOf(scope).filter((p) => part.role === undefined || p.role === part.role)
  return parts[(part.nth ?? 1) - 1]
}

export function partValue(item: readonly UiElement[], part: RowPart): string {
  const element = partElement(item, part)
  if (!element) return ''
  return part.href ? (linkOf(element)?.href ?? '') : textOf(element)
}

/** An item as an object: its parts by key, else `{text, href?}` (one element) or `{title, href?, text}` (a card). */
function itemObject(item: UiElement[], parts: RowShape['parts'], card = false): Record<string, unknown> {
  if (parts)
    return Object.fromEntries(Object.entries(parts).map(([key, part]) => [key, partValue(item, part)]))
  const [only] = item
  if (!card && only) {
    const link = linkOf(only)
    return { text: textOf(only), ...(link?.href ? { href: link.href } : {}) }
  }
  const all = partsOf(item)
  const title = all.find((p) => p.role === 'heading') ?? all.find((p) => p.role === 'link') ?? all[0]
  const href = title && linkOf(title)?.href
  const text = collapse(
    all
      .filter((p) => p !== title)
      .map(textOf)
      .filter((t) => t !== (title && textOf(title)))
      .join(' '),
  )
  return { title: title ? textOf(title) : '', ...(href ? { href } : {}), text }
}

function linkOf(element: UiElement): UiElement | undefined {
  return element.role === 'link' ? element : findFirst(element, (e) => e.role === 'link' && !!e.href)
}

/** Cells of a row, looking through wrappers (a generic element a grid library puts around them). */
export function cellsOf(row: UiElement): UiElement[] {
  return collect(
    row,
    (e) => CELL_ROLES.has(e.role),
    (e) => e.role === 'row' && e !== row,
  )
}

/** Matching descendants, not looking inside a match nor inside elements `stop` accepts. */
function collect(
  root: UiElement,
  match: (e: UiElement) => boolean,
  stop: (e: UiElement) => boolean,
): UiElement[] {
  const out: UiElement[] = []
  const visit = (e: UiElement) => {
    for (const child of e.children) {
      if (stop(child)) continue
      if (match(child)) out.push(child)
      else visit(child)
    }
  }
  visit(root)
  return out
}

function findFirst(root: UiElement, match: (e: UiElement) => boolean): UiElement | undefined {
  for (const child of root.children) {
    if (match(child)) return child
    const found = findFirst(child, match)
    if (found) return found
  }
  return undefined
}

/** What a person reads in the element: its name, else its content's text, else its value. */
export function textOf(element: UiElement): string {
  if (element.role === 'textbox' || element.role === 'spinbutton' || element.role === 'combobox')
    return element.value ?? ''
  if (element.name) return collapse(element.name)
  const inner = collapse(element.children.map(textOf).filter(Boolean).join(' '))
  return inner || (element.value ?? '')
}

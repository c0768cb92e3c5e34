// `read` with `source: rows`: a table, grid or list on screen as an array of plain objects. Pure
// over the element tree, so the same rules hold for every driver and for recorded screens.
import type { UiElement } from '../protocol/elements.ts'
import { collapse, foldWord } from './text-match.ts'

export class RowsError extends Error {
  override readonly name = 'RowsError'
}

const LIST_ROLES = new Set(['list', 'listbox', 'tree', 'menu', 'tablist'])
const ITEM_ROLES = new Set(['listitem', 'option', 'treeitem', 'menuitem', 'tab'])
const CELL_ROLES = new Set(['cell', 'rowheader', 'columnheader'])

/**
 * Tables give one object per data row, keyed by the header texts or, with `columns` (output key
 * → header text, compared without case, accents or punctuation), by the caller's keys. Lists
 * give `{text, href?}` per item. A table with headers but no data rows gives [].
 */
export function readRows(
  target: UiElement,
  columns?: Readonly<Record<string, string>>,
): Record<string, unknown>[] {
  if (target.role === 'table') return tableRows(target, columns)
  if (LIST_ROLES.has(target.role)) return listItems(target)
  // A container around one table or list (a card, a region) reads as that table or list.
  const inner = findFirst(target, (e) => e.role === 'table' || LIST_ROLES.has(e.role))
  if (inner) return readRows(inner, columns)
  throw new RowsError(`${target.role} "${target.name}" is not a table, grid or list`)
}

function tableRows(table: UiElement, columns?: Readonly<Record<string, string>>): Record<string, unknown>[] {
  const rows = collect(
    table,
    (e) => e.role === 'row',
    (e) => e.role === 'table' && e !== table,
  )
  const isHeaderRow = (row: UiElement) => {
    const cells = row.children.filter((c) => CELL_ROLES.has(c.role))
    return cells.length > 0 && cells.every((c) => c.role === 'columnheader')
  }
  const headerRow = rows.find(isHeaderRow)
  const headers = headerRow ? cellsOf(headerRow).map(textOf) : []
  const dataRows = rows.filter((row) => !isHeaderRow(row) && cellsOf(row).length > 0)
  const keys = columns ? mappedKeys(headers, columns) : headerKeys(headers)
  return dataRows.map((row) => {
    const cells = cellsOf(row)
    const out: Record<string, unknown> = {}
    for (const { key, index } of keys(cells.length)) out[key] = cells[index] ? textOf(cells[index]) : ''
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

function listItems(list: UiElement): Record<string, unknown>[] {
  const items = collect(
    list,
    (e) => ITEM_ROLES.has(e.role),
    (e) => e !== list && (LIST_ROLES.has(e.role) || e.role === 'table'),
  )
  return items.map((item) => {
    const link = item.role === 'link' ? item : findFirst(item, (e) => e.role === 'link' && !!e.href)
    const out: Record<string, unknown> = { text: textOf(item) }
    if (link?.href) out.href = link.href
    return out
  })
}

/** Cells of a row, looking through wrappers (a generic element a grid library puts around them). */
function cellsOf(row: UiElement): UiElement[] {
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

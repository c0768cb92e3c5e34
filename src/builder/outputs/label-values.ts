// Label/value pairs a screen shows after a submit: a details table (row header → cell), a
// one-row table (column header → cell), "Label: value" texts and read-only or disabled fields.
// They are the candidates for a job's outputs when the sample did not say what to return. On a
// record's own screen (open-record.ts) its form's fields count too: an edit form shows the
// record's values.
import { indexTree } from '../../automation/index.ts'
import type { UiElement } from '../../protocol/elements.ts'
import { escapeRegex } from '../generalise.ts'
import { camelKey, firstAction } from '../words.ts'

export interface LabelValue {
  label: string
  value: string
  /** The element showing the value. */
  element: UiElement
  /** Output key from the label ("Customer ID" → customerId). */
  key: string
  /** For "Label: value" texts: the regex that takes the value out of the text. */
  extract?: string
}

const HEADER_ROLES = new Set(['rowheader', 'columnheader'])

/**
 * Pairs whose value element appeared with the submit (it, or the table holding it, is among
 * `fresh`), in screen order.
 */
export function labelValuePairs(
  root: UiElement,
  fresh: ReadonlySet<UiElement>,
  options: { fields?: boolean } = {},
): Omit<LabelValue, 'key'>[] {
  const index = indexTree(root)
  const isFresh = (element: UiElement) => {
    for (let e: UiElement | undefined = element; e; e = index.parent.get(e)) if (fresh.has(e)) return true
    return false
  }
  const pairs: Omit<LabelValue, 'key'>[] = []
  for (const element of index.all) {
    if (element.role === 'row') pairs.push(...rowPair(element), ...captionCells(element))
    else if (element.role === 'table') pairs.push(...singleRowTable(element))
    else if (element.role === 'text' && isFresh(element)) {
      const colon = /^([^:]{1,40}):\s+(.{1,200})$/.exec(element.name)
      if (colon)
        pairs.push({
          label: colon[1]!.trim(),
          value: colon[2]!.trim(),
          element,
          extract: `^${escapeRegex(colon[1]!)}:\\s*(.+)$`,
        })
    } else if (
      (element.role === 'textbox' || element.role === 'combobox') &&
      // A read-only or greyed-out (disabled) field shows a value nobody types: the record's own.
      (element.states.includes('readonly') ||
        element.states.includes('disabled') ||
        (options.fields && element.inputType !== 'password')) &&
      element.name &&
      element.value
    )
      pairs.push({ label: element.name, value: element.value, element })
  }
  const seen = new Set<string>()
  return pairs.filter((p) => isFresh(p.element) && p.value !== '' && !seen.has(p.label) && seen.add(p.label))
}

/** A details row: a header (or a text) followed by the value cell. */
function rowPair(row: UiElement): Omit<LabelValue, 'key'>[] {
  const [head, cell] = row.children
  if (row.children.length !== 2 || !head || !cell || cell.role !== 'cell') return []
  if (!HEADER_ROLES.has(head.role) && head.role !== 'text') return []
  const value = nestedValue(cell) ?? cell
  return head.name ? [{ label: head.name, value: value.name, element: value }] : []
}

/**
 * A value cell that also holds the record's own controls (the id, then a "Delete Principal" link
 * beside it, often in a layout table of its own): the value is its first text outside them. A
 * link that is part of the value ("Created by <admin>") is no such control: only one named by an
 * action ("Delete …", "Edit", "Remove …") is.
 */
function nestedValue(cell: UiElement): UiElement | undefined {
  const index = indexTree(cell)
  const acts = (e: UiElement) => CONTROL_ROLES.has(e.role) && firstAction(e.name) !== undefined
  const inControl = (e: UiElement) => {
    for (let a = index.parent.get(e); a && a !== cell; a = index.parent.get(a)) if (acts(a)) return true
    return false
  }
  if (!index.all.some(acts)) return undefined
  return index.all.find(
    (e) => e !== cell && (e.role === 'text' || e.role === 'cell') && e.name.trim() !== '' && !inControl(e),
  )
}
const CONTROL_ROLES = new Set(['link', 'button'])

/** A caption: short words ending in a colon ("Ticket Hash:", "Status:"), no value of its own. */
const CAPTION = /^([^:\d]{1,40}):$/

/**
 * A details table laid out in plain cells: a cell that is a caption ("Status:") and the cell
 * right after it, its value; a row may hold several ("Status:" Open "Type:" Defect).
 */
function captionCells(row: UiElement): Omit<LabelValue, 'key'>[] {
  if (row.children.length === 2 && rowPair(row).length) return []
  const out: Omit<LabelValue, 'key'>[] = []
  row.children.forEach((head, i) => {
    const cell = row.children[i + 1]
    const caption = CAPTION.exec(head.name.trim())
    if (head.role !== 'cell' || cell?.role !== 'cell' || !caption || CAPTION.test(cell.name.trim())) return
    out.push({ label: caption[1]!.trim(), value: cell.name.trim(), element: cell })
  })
  return out
}

/** A table with a header row and exactly one data row: column header → cell. */
function singleRowTable(table: UiElement): Omit<LabelValue, 'key'>[] {
  const rows = indexTree(table).all.filter((e) => e.role === 'row')
  const header = rows.find((r) => r.children.length > 0 && r.children.every((c) => c.role === 'columnheader'))
  const data = rows.filter((r) => r !== header && r.children.every((c) => c.role === 'cell'))
  if (!header || data.length !== 1) return []
  return header.children.flatMap((h, i) => {
    const cell = data[0]!.children[i]
    return cell && h.name ? [{ label: h.name, value: cell.name, element: cell }] : []
  })
}

/** Gives each pair a unique output key. */
export function keyed(pairs: Omit<LabelValue, 'key'>[]): LabelValue[] {
  const used = new Map<string, number>()
  return pairs.map((pair) => {
    const base = camelKey(pair.label)
    const count = (used.get(base) ?? 0) + 1
    used.set(base, count)
    return { ...pair, key: count === 1 ? base : `${base}${count}` }
  })
}

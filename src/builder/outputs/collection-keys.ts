// How a list's rows become objects (collections.ts picks the list): keys mapped by an example
// list, item by item and field by field, by header words, or by default by the headers or a
// card's parts.
import { indexTree } from '../../automation/index.ts'
import { cellsOf, partsOf, partValue, textOf } from '../../automation/read-rows.ts'
import { collapse, foldWord } from '../../automation/text-match.ts'
import type { RowPart } from '../../protocol/automation.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { camelKey, stems } from '../words.ts'
import type { Found, RowMapping } from './collections.ts'

const norm = (text: string) => collapse(text).toLowerCase()

/** Where a row shows text: each cell whole and the parts inside it; a card's parts by role. */
function partsShown(c: Found, item: UiElement[]): { part: RowPart; text: string }[] {
  const byRole = (elements: readonly UiElement[], cell?: number) => {
    const seen = new Map<UiRole, number>()
    return partsOf(elements).map((p) => {
      const nth = (seen.get(p.role) ?? 0) + 1
      seen.set(p.role, nth)
      const part: RowPart = { ...(cell ? { cell } : {}), role: p.role, nth }
      return { part, text: textOf(p) }
    })
  }
  if (c.kind !== 'table') return byRole(item)
  return cellsOf(item[0]!).flatMap((cell, i) => [
    { part: { cell: i + 1 }, text: textOf(cell) },
    ...byRole(cell.children, i + 1),
  ])
}

/**
 * Keys from the example: each example item must be one row (every field equal to one of its
 * cells or parts); a key goes to the cell or part that shows its value in every example item.
 * An example list of strings is one key, read alone (`pluck`).
 */
export function mapExample(c: Found, key: string, example: readonly unknown[]): RowMapping | undefined {
  const strings = example.every((e) => typeof e !== 'object' || e === null)
  const wanted: Record<string, string>[] = example.map((e) =>
    strings
      ? { [key]: String(e) }
      : Object.fromEntries(
          Object.entries(e as object)
            .filter(([, v]) => v !== null && typeof v !== 'object')
            .map(([k, v]) => [k, String(v)]),
        ),
  )
  if (wanted.some((w) => Object.keys(w).length === 0)) return undefined
  const options = new Map<string, Set<string>>()
  for (const item of wanted) {
    const seen = new Map<string, Set<string>>()
    for (const row of c.items) {
      const shown = partsShown(c, row)
      const where = Object.entries(item).map(([k, v]) => [
        k,
        shown.filter((s) => norm(s.text) === norm(v)).map((s) => JSON.stringify(s.part)),
      ])
      if (where.some(([, parts]) => parts!.length === 0)) continue
      for (const [k, parts] of where) for (const p of parts as string[]) add(seen, k as string, p)
    }
    if (seen.size === 0) return undefined
    for (const [k, parts] of seen)
      options.set(k, options.has(k) ? new Set([...options.get(k)!].filter((p) => parts.has(p))) : parts)
  }
  const parts: Record<string, RowPart> = {}
  for (const [k, set] of options) {
    const [first] = [...set].sort((a, b) => preference(c, k, a) - preference(c, k, b))
    if (!first) return undefined
    parts[k] = JSON.parse(first) as RowPart
  }
  return { ...byHeader(c, parts), ...(strings ? { pluck: key } : {}) }
}

function add(map: Map<string, Set<string>>, key: string, value: string) {
  const set = map.get(key) ?? new Set<string>()
  set.add(value)
  map.set(key, set)
}

/** Lower is better: a whole cell under a header naming the key, then a whole cell, then a part. */
function preference(c: Found, key: string, part: string): number {
  const p = JSON.parse(part) as RowPart
  const header = p.cell ? (c.headers[p.cell - 1] ?? '') : ''
  const named = stems(header).some((w) => stems(key).includes(w))
  return (named ? 0 : 2) + (p.role ? 1 : 0) + (p.nth ?? 0) / 100
}

/** Whole cells under a header of their own are read by header text (columns move less than positions). */
function byHeader(c: Found, parts: Record<string, RowPart>): RowMapping {
  const columns: Record<string, string> = {}
  const rest: Record<string, RowPart> = {}
  const cells = c.items[0] ? cellsOf(c.items[0][0]!).length : 0
  for (const [key, part] of Object.entries(parts)) {
    const header =
      part.cell && !part.role && cells === c.headers.length ? c.headers[part.cell - 1] : undefined
    const unique = header && c.headers.filter((h) => foldWord(h) === foldWord(header)).length === 1
    if (header && unique) columns[key] = header
    else rest[key] = part
  }
  return {
    ...(Object.keys(columns).length ? { columns } : {}),
    ...(Object.keys(rest).length ? { parts: rest } : {}),
  }
}

/**
 * Without an example: a table's columns keyed by their headers in camelCase ("Last name" →
 * lastName), or by position (column3) without a header row; columns of checkboxes or empty in
 * every row are left out. Lists give `{text, href}` and cards `{title, href, text}` (read-rows.ts).
 */
export function defaultMapping(c: Found): RowMapping {
  if (c.kind !== 'table') return {}
  const width = Math.max(...c.items.map((item) => cellsOf(item[0]!).length))
  const useful = (i: number) =>
    c.items.some((item) => {
      const cell = cellsOf(item[0]!)[i]
      return !!cell && partValue(item, { cell: i + 1 }) !== '' && !controlOnly(cell)
    })
  const keys = new Set<string>()
  const named = (base: string) => {
    let key = base
    for (let n = 2; keys.has(key); n++) key = `${base}${n}`
    keys.add(key)
    return key
  }
  if (c.headers.length === width && c.headers.some((h) => h !== '')) {
    const columns: Record<string, string> = {}
    c.headers.forEach((header, i) => {
      if (
        header !== '' &&
        useful(i) &&
        c.headers.filter((h) => foldWord(h) === foldWord(header)).length === 1
      )
        columns[named(camelKey(header))] = header
    })
    return { columns }
  }
  const parts: Record<string, RowPart> = {}
  for (let i = 0; i < width; i++)
    if (useful(i)) parts[named(c.headers[i] ? camelKey(c.headers[i]!) : `column${i + 1}`)] = { cell: i + 1 }
  return { parts }
}

/** Keys that ask for what names each record ("titles", "subjects", "names", "headlines"). */
const NAMING = new Set(stems('title subject name headline heading titles subjects names headlines headings'))

/**
 * A list of the records' names read from the one link each row holds, for a key that asks for
 * names and a table with no column named like it: a row whose cells run several parts together
 * ("Sofia Marin 2025-03-12 11:55 Lunch order…") names its record by the link that opens it. The
 * same holds for a list's items and a run of cards (results under a search box, one link each).
 * Each row must hold exactly one link, in the same cell; else undefined.
 */
export function namingLink(c: Found, key: string): RowMapping | undefined {
  // Every word of the key names ("titles"; not "senderNames": the sender is no record's name).
  const words = stems(key)
  if (!words.length || !words.every((w) => NAMING.has(w))) return undefined
  let found: string | undefined
  const texts = new Set<string>()
  for (const item of c.items) {
    const parts = partsShown(c, item)
    const links = parts.filter((p) => p.part.role === 'link' && p.text !== '')
    if (links.length !== 1) return undefined
    // Outside a table, the item's name is its first part: a card titled by a heading names
    // itself there, and its one link may be the author's or the category's.
    if (c.kind !== 'table' && (parts[0] !== links[0] || parts.some((p) => p.part.role === 'heading')))
      return undefined
    const part = JSON.stringify(links[0]!.part)
    if (found !== undefined && part !== found) return undefined
    found = part
    texts.add(norm(links[0]!.text))
  }
  // Each record's own link names it: the same link on every row (an author's) names none.
  if (!found || texts.size < c.items.length) return undefined
  const name = camelKey(key)
  return { parts: { [name]: JSON.parse(found) as RowPart }, pluck: name }
}

/** A cell that only holds a control (a row's selection checkbox, an actions button). */
function controlOnly(cell: UiElement): boolean {
  const all = indexTree(cell).all.filter((e) => e !== cell)
  return (
    all.some((e) => e.role === 'checkbox' || e.role === 'radio' || e.role === 'button') &&
    partsOf(cell.children).length === 0
  )
}

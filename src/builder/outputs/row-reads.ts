// Where a value shown in a list is read (docs/builder.md, "Outputs"): in its own row, found by a
// value the call sends and, where the record has a row per field, by the field's label beside it;
// never by its place among several rows, which the next call's list orders, filters or grows
// otherwise.
import { ancestors, type TreeIndex } from '../../automation/element-tree.ts'
import { indexTree, renderSelector, resolveSelector } from '../../automation/index.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Fingerprint, Selector } from '../../protocol/automation.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { labelMeansKey } from './output-evidence.ts'
import type { OutputContext } from './outputs.ts'

export const CELLS = new Set<UiRole>(['cell', 'columnheader', 'rowheader'])
const norm = (text: string) => collapse(text).toLowerCase()

/** The input that holds `value` at `path` ({title} → { title: value }). */
export function nestedValue({ path, value }: { path: string; value: string }): Record<string, unknown> {
  return path
    .split('.')
    .reduceRight<Record<string, unknown>>(
      (inner, key, i, all) => ({ [key]: i === all.length - 1 ? value : inner }),
      {},
    )
}

/**
 * A cell read in the row that shows the sample's own value, under its column's header ("the Last
 * name cell of the row showing {{firstName}}"): a list's rows move (sorted, filtered, added to),
 * its columns do not. Alone: a row that does not show the call's value is never read instead.
 * Where the record has several rows (its e-mail and its phone, each beside the party's name), the
 * row is the one that also shows the field's label, a cell naming the output `key` ("E-Mail"); a
 * record's details, a row per field ("Field | Value"), are read in the row of that label alone.
 */
export function ownRowColumn(ctx: OutputContext, element: UiElement, key?: string): Selector | undefined {
  const index = indexTree(ctx.after)
  const cell = cellOf(index, element)
  if (!cell) return undefined
  const row = index.parent.get(cell)
  const table = row && ancestors(index, row).find((a) => a.role === 'table' || a.role === 'tree')
  if (row?.role !== 'row' || !table) return undefined
  const header = indexTree(table).all.find(
    (e) => e.role === 'row' && e !== row && e.children.some((c) => c.role === 'columnheader'),
  )
  if (!header) return undefined
  const heads = header.children.filter((c) => CELLS.has(c.role))
  const cells = row.children.filter((c) => CELLS.has(c.role))
  const column = heads[cells.indexOf(cell) - Math.max(0, cells.length - heads.length)]?.name.trim()
  if (!column) return undefined
  const read = (fingerprint: Fingerprint, values: Record<string, unknown>, description: string) =>
    resolvesTo(ctx.after, fingerprint, values, element)
      ? { fingerprints: [fingerprint], description }
      : undefined
  const label = key === undefined ? undefined : labelCell(table, cells, cell, key)
  const at = { role: element.role, name: '.*', match: 'regex' as const, column }
  for (const own of ctx.values ?? []) {
    if (own.value.length < 2 || norm(own.value) === norm(element.name)) continue
    const exact = cells.some((c) => c !== cell && norm(c.name) === norm(own.value))
    if (!exact && !norm(row.name).includes(norm(own.value))) continue
    const fingerprint: Fingerprint = {
      by: 'inRow',
      rowText: `{{${own.path}}}`,
      ...(exact ? { rowMatch: 'exact' as const } : {}),
      ...at,
    }
    const described = `the “${column}” ${element.role} of the row showing “${own.value}”`
    // The label, where the row shows one, always picks the row too: a record whose only row is
    // its phone must not answer for its e-mail.
    const found = label
      ? read({ ...fingerprint, rowAlso: label.text }, nestedValue(own), `${described} and “${label.text}”`)
      : read(fingerprint, nestedValue(own), described)
    if (found) return found
  }
  if (!label?.perField) return undefined
  return read(
    { by: 'inRow', rowText: label.text, rowMatch: 'exact', ...at },
    {},
    `the “${column}” ${element.role} of the “${label.text}” row`,
  )
}

/** Whether the fingerprint, rendered with the call's values, finds `element` and only it. */
export function resolvesTo(
  root: UiElement,
  fingerprint: Fingerprint,
  values: Record<string, unknown>,
  element: UiElement,
): boolean {
  const found = resolveSelector(
    root,
    renderSelector({ fingerprints: [fingerprint], description: '' }, values),
  )
  return found.status === 'found' && found.element === element
}

/**
 * The cell an element sits in: itself, or the cell holding it (a link or text inside a web table's
 * cell, which a person points at), which is how its row and column are known.
 */
function cellOf(index: TreeIndex, element: UiElement): UiElement | undefined {
  if (CELLS.has(element.role)) return element
  for (const up of ancestors(index, element)) {
    if (CELLS.has(up.role)) return up
    if (up.role === 'row' || up.role === 'table' || up.role === 'tree') return undefined
  }
  return undefined
}

/**
 * The cell of the row that names the output (the field's label, "E-Mail" for "email"): a text
 * without digits, not the value read. `perField` for a record's details, a row per field: every
 * row holds just a label first and its value, and the labels differ (a list of records has more
 * columns, or repeats a type down its rows).
 */
function labelCell(
  table: UiElement,
  cells: UiElement[],
  element: UiElement,
  key: string,
): { text: string; perField: boolean } | undefined {
  const labels = cells.filter(
    (c) => c !== element && c.name.trim() !== '' && !/\d/.test(c.name) && labelMeansKey(c.name, key),
  )
  if (labels.length !== 1) return undefined
  const rows = indexTree(table)
    .all.filter((e) => e.role === 'row' && e.children.some((c) => c.role === 'cell'))
    .map((r) => r.children.filter((c) => CELLS.has(c.role)))
  const pairs = rows.every((r) => r.length === 2)
  const names = rows.map((r) => norm(r[0]?.name ?? ''))
  return {
    text: labels[0]!.name.trim(),
    perField: pairs && cells[0] === labels[0] && rows.length >= 2 && new Set(names).size === names.length,
  }
}

/**
 * Where a value is read: in its own row when it sits in a list (ownRowColumn), else at its place.
 * A cell among several rows that no caller's value picks has no place that stands for the record
 * (the next call's list is ordered, filtered or grown otherwise): undefined, and the output is not
 * read by a guess (a Tryton lookup read its list's first e-mail on every live call).
 */
export function rowOrPlace(
  ctx: OutputContext,
  element: UiElement,
  place: Selector,
  key?: string,
): Selector | undefined {
  const own = ownRowColumn(ctx, element, key)
  const index = indexTree(ctx.after)
  if (own || !cellOf(index, element) || ctx.anyRow) return own ?? place
  // A list of records has column headers (row headers beside them are its rows' numbers); a
  // record's own details without them (a row per field: "Email | ada@example.com") are read at
  // their place.
  const table = ancestors(index, element).find((a) => a.role === 'table' || a.role === 'tree')
  if (!table) return place
  const all = indexTree(table).all
  const rows = all.filter((e) => e.role === 'row' && !e.children.some((c) => c.role === 'columnheader'))
  return rows.length >= 2 && all.some((e) => e.role === 'columnheader') ? undefined : place
}

// Writes selectors for elements the builder saw. Every fingerprint it writes picks exactly that
// element in the snapshot it was designed on: the runner lets the first fingerprint that matches
// anything decide, so one that matched two elements would turn into an ambiguity error later.
import { ancestors, descendants, pathTo, type TreeIndex } from '../automation/element-tree.ts'
import { findMatches, indexTree } from '../automation/index.ts'
import type { Fingerprint, Selector, TextMatch } from '../protocol/automation.ts'
import type { UiElement, UiRole } from '../protocol/elements.ts'
import { looksGenerated } from './screen.ts'

export interface DesignOptions {
  /** Put the automationId first (a firmer selector when names turn out to change or repeat). */
  idFirst?: boolean
}

/** A selector for a control or button: role+name, automationId chain, label, then path. */
export function designSelector(
  root: UiElement,
  element: UiElement,
  description: string,
  options: DesignOptions = {},
): Selector {
  const index = indexTree(root)
  const byRole: Fingerprint | undefined = element.name
    ? { by: 'role', role: element.role, name: element.name }
    : undefined
  const byId = idFingerprint(index, element)
  const byLabel = element.name ? undefined : labelFingerprint(index, element)
  // A box of a list's row being edited, named by nothing but its column ("Value" of a new line).
  const column = element.name ? undefined : columnOf(root, element)
  const byColumn: Fingerprint | undefined = column
    ? { by: 'inRow', rowText: '', role: element.role, name: '', column }
    : undefined
  const byPath: Fingerprint = { by: 'path', path: pathTo(index, element) }
  const ordered = options.idFirst
    ? [byId, byRole, byLabel, byColumn, byPath]
    : [byRole, byId, byLabel, byColumn, byPath]
  return { fingerprints: keepUnique(index, element, ordered), description }
}

/**
 * A selector for something to read whose text changes from run to run ("Customer C-1042
 * created"): the generalised text first, then its automationId, then its path.
 */
export function designTextSelector(
  root: UiElement,
  element: UiElement,
  text: { pattern: string; match: TextMatch },
  description: string,
): Selector {
  const index = indexTree(root)
  const byText: Fingerprint = { by: 'text', text: text.pattern, match: text.match, role: element.role }
  const byPath: Fingerprint = { by: 'path', path: pathTo(index, element) }
  return {
    fingerprints: keepUnique(index, element, [byText, idFingerprint(index, element), byPath]),
    description,
  }
}

/**
 * A selector for a value shown in a fixed place (a table cell, a read-only field): by id, caption
 * or position, never by the text itself, which is what changes from run to run.
 */
export function designPlaceSelector(root: UiElement, element: UiElement, description: string): Selector {
  const index = indexTree(root)
  const byPath: Fingerprint = { by: 'path', path: pathTo(index, element) }
  return {
    fingerprints: keepUnique(index, element, [
      idFingerprint(index, element),
      labelFingerprint(index, element),
      byPath,
    ]),
    description,
  }
}

function keepUnique(index: TreeIndex, element: UiElement, candidates: (Fingerprint | undefined)[]) {
  return candidates.filter((fingerprint): fingerprint is Fingerprint => {
    if (!fingerprint) return false
    const matches = findMatches(index, fingerprint)
    return matches.length === 1 && matches[0] === element
  })
}

/** The element's own id when it is unique, else qualified by the nearest identified ancestor. */
function idFingerprint(index: TreeIndex, element: UiElement): Fingerprint | undefined {
  const id = element.automationId
  const counted = countedIds(index)
  const generated = (x: string) => looksGenerated(x) || counted.has(x)
  if (!id || generated(id)) return undefined
  const own: Fingerprint = { by: 'automationId', ids: [id] }
  if (findMatches(index, own).length === 1) return own
  for (const ancestor of ancestors(index, element)) {
    const outer = ancestor.automationId
    if (!outer || generated(outer)) continue
    const chained: Fingerprint = { by: 'automationId', ids: [outer, id] }
    if (findMatches(index, chained).length === 1) return chained
  }
  return undefined
}

/**
 * Ids handed out by a counter ("ui-id-27", "ui-id-34"): the same stem with two or more numbers on
 * the screen. Which number a control gets depends on what was drawn before it, so another run
 * (signed in anew, another record opened first) gives it another; they are no way to find it.
 */
function countedIds(index: TreeIndex): Set<string> {
  const numbers = new Map<string, Set<string>>()
  for (const e of index.all) {
    const m = e.automationId ? /^(.*\D)(\d+)$/.exec(e.automationId) : null
    if (!m) continue
    const seen = numbers.get(m[1]!) ?? new Set<string>()
    seen.add(m[2]!)
    numbers.set(m[1]!, seen)
  }
  const counted = new Set<string>()
  for (const [stem, seen] of numbers) if (seen.size >= 2) for (const n of seen) counted.add(stem + n)
  return counted
}

/** For a control without a name of its own: the caption text that the label relation leads from. */
function labelFingerprint(index: TreeIndex, element: UiElement): Fingerprint | undefined {
  const at = index.order.get(element)!
  // A value shown as text is found after its caption ("Status:" → "New"), where the record's
  // other details may be more or fewer: only the text right before it, and only a caption.
  // A details table's value cell is found after its caption cell the same way ("Queue:" | "IT Support").
  const shown = element.role === 'text' || element.role === 'cell'
  for (let i = at - 1; i >= Math.max(0, at - 4); i--) {
    const text = index.all[i]!
    const caption = text.role === 'text' || (element.role === 'cell' && text.role === 'cell')
    if (!caption || !text.name) continue
    if (shown && !/:\s*$/.test(text.name)) return undefined
    const fingerprint: Fingerprint = {
      by: 'label',
      label: text.name.replace(/[\s:*]+$/, ''),
      ...(shown ? { role: element.role } : {}),
    }
    const matches = findMatches(index, fingerprint)
    if (matches.length === 1 && matches[0] === element) return fingerprint
  }
  return undefined
}

/** The same fingerprints with automationId ones first: the retry after a name-based miss. */
export function firmer(selector: Selector): Selector {
  const ids = selector.fingerprints.filter((f) => f.by === 'automationId')
  if (ids.length === 0 || selector.fingerprints[0]?.by === 'automationId') return selector
  return {
    ...selector,
    fingerprints: [...ids, ...selector.fingerprints.filter((f) => f.by !== 'automationId')],
  }
}

const CELLS = new Set<UiRole>(['cell', 'rowheader'])

/** The header text of the column the element sits in, when its table has a header row. */
export function columnOf(root: UiElement, element: UiElement): string | undefined {
  const index = indexTree(root)
  const up = ancestors(index, element)
  const cell = [element, ...up].find((e) => CELLS.has(e.role))
  const row = up.find((e) => e.role === 'row')
  const table = up.find((e) => e.role === 'table' || e.role === 'tree' || e.role === 'list')
  if (!cell || !row || !table) return undefined
  const header = descendants(table).find(
    (e) => e.role === 'row' && e.children.some((c) => c.role === 'columnheader'),
  )
  if (!header || header === row) return undefined
  const cells = row.children.filter((c) => CELLS.has(c.role))
  const heads = header.children.filter((c) => c.role === 'columnheader')
  // Headers may be fewer than cells (a row's leading checkbox): aligned from the right.
  const at = cells.indexOf(cell) - (cells.length - heads.length)
  const name = heads[at]?.name.trim()
  return name ? name : undefined
}

// Selector resolution against one fresh snapshot. Pure: no driver, no waiting. Fingerprints are
// tried in order and the first that matches anything decides; several matches are reported as
// ambiguous (with candidates) so the run fails loudly instead of clicking the wrong row.
import type { Candidate, Fingerprint, Selector, TextMatch } from '../protocol/automation.ts'
import type { UiElement, UiRole } from '../protocol/elements.ts'
import {
  ancestors,
  descendants,
  followPath,
  formatPath,
  indexTree,
  inFoldedMenu,
  pathTo,
  type TreeIndex,
} from './element-tree.ts'
import { renderTemplate, type TemplateScope } from './templates.ts'
import { collapse, foldText, foldWord, matchesText } from './text-match.ts'

export type Resolution =
  | { status: 'found'; element: UiElement; fingerprint: number }
  | { status: 'ambiguous'; matches: UiElement[]; fingerprint: number }
  | { status: 'not-found' }

/** Controls a text label can stand for (label relation). */
const LABELLED_ROLES = new Set<UiRole>([
  'textbox',
  'spinbutton',
  'combobox',
  'listbox',
  'slider',
  'checkbox',
  'radio',
  'switch',
])
/** Toggles are usually labelled by the text after them ("[x] VIP customer"). */
const TOGGLE_ROLES = new Set<UiRole>(['checkbox', 'radio', 'switch'])

export function resolveSelector(root: UiElement, selector: Selector): Resolution {
  const index = indexTree(root)
  for (const [position, fingerprint] of selector.fingerprints.entries()) {
    const matches = shownFirst(index, findMatches(index, fingerprint))
    if (matches.length === 1) return { status: 'found', element: matches[0]!, fingerprint: position }
    if (matches.length > 1) return { status: 'ambiguous', matches, fingerprint: position }
  }
  return { status: 'not-found' }
}

/**
 * Of several matches, those shown: an entry of a submenu folded away until hovered (a list marked
 * collapsed, src/agent/drivers/browser/ax-tree.ts) is the match only when nothing shown is.
 */
function shownFirst(index: TreeIndex, matches: UiElement[]): UiElement[] {
  if (matches.length < 2) return matches
  const shown = matches.filter((e) => !inFoldedMenu(index, e))
  return shown.length ? shown : matches
}

export function findMatches(index: TreeIndex, fingerprint: Fingerprint): UiElement[] {
  switch (fingerprint.by) {
    case 'automationId':
      return byAutomationIds(index.root, fingerprint.ids)
    case 'role': {
      const ofRole = index.all.filter(
        (e) => e.role === fingerprint.role && inScope(index, e, fingerprint.within),
      )
      return namedFirst(index, ofRole, fingerprint.name, fingerprint.match)
    }
    case 'label':
      return byLabel(index, fingerprint.label, fingerprint.role)
    case 'path': {
      const found = followPath(index.root, fingerprint.path)
      return found ? [found] : []
    }
    case 'text':
      return byText(index, fingerprint.text, fingerprint.match, fingerprint.role)
    case 'inRow':
      return inRow(index, fingerprint)
  }
}

const ROW_ROLES = new Set<UiRole>(['row', 'listitem', 'treeitem'])

/** A scope: only what sits inside an element of that role (the menu or dialog that opened). */
function inScope(index: TreeIndex, e: UiElement, within: UiRole | undefined): boolean {
  return within === undefined || ancestors(index, e).some((a) => a.role === within)
}

/** The named controls inside the innermost rows that show the row text. */
function inRow(index: TreeIndex, fingerprint: Extract<Fingerprint, { by: 'inRow' }>): UiElement[] {
  const rowMatch = fingerprint.rowMatch ?? 'contains'
  const showsWhole = (row: UiElement) =>
    [row, ...descendants(row)].some(
      (e) =>
        matchesText(e.name, fingerprint.rowText, rowMatch) ||
        (e.value !== undefined && matchesText(e.value, fingerprint.rowText, rowMatch)),
    )
  const counted = (row: UiElement) =>
    rowMatch === 'exact' && [row, ...descendants(row)].some((e) => withCount(index, e, fingerprint.rowText))
  const targets = (row: UiElement) => {
    const within = fingerprint.column === undefined ? row : columnCell(index, row, fingerprint.column)
    if (!within) return []
    const ofRole = [within, ...descendants(within)].filter((e) => e !== row && e.role === fingerprint.role)
    return namedFirst(index, ofRole, fingerprint.name, fingerprint.match)
  }
  // Rows that show the text and hold such a control; of nested ones (a card's own little lists)
  // the innermost is the one meant.
  // A row showing the text whole wins over one showing it with a count beside it.
  const { rowAlso } = fingerprint
  const alsoShows = (row: UiElement) =>
    rowAlso === undefined || [row, ...descendants(row)].some((e) => matchesText(e.name, rowAlso, 'exact'))
  const candidates = index.all.filter(
    (e) =>
      ROW_ROLES.has(e.role) && inScope(index, e, fingerprint.within) && alsoShows(e) && targets(e).length > 0,
  )
  const whole = candidates.filter(showsWhole)
  const rows = whole.length ? whole : candidates.filter(counted)
  const innermost = rows.filter(
    (r) => !rows.some((other) => other !== r && ancestors(index, other).includes(r)),
  )
  return innermost.flatMap(targets)
}

/**
 * The controls that bear a name. With none named so exactly, those named by it and a count drawn
 * beside it: an unread or item count ("Inbox 4", "Projects (1)" once new mail arrives) is no
 * part of the name a person reads (docs/builder.md, "What a name is").
 */
function namedFirst(
  index: TreeIndex,
  elements: UiElement[],
  name: string,
  match: TextMatch | undefined,
): UiElement[] {
  const whole = elements.filter((e) => matchesText(e.name, name, match))
  if (whole.length || (match ?? 'exact') !== 'exact') return whole
  const counted = elements.filter((e) => withCount(index, e, name))
  if (counted.length) return counted
  // A style may show a name in capitals ("ADD NEW TAG" for "Add New Tag", text-transform) on one
  // screen and not on another: the same name without case or accents, when only one has it.
  const folded = elements.filter((e) => foldText(e.name) === foldText(name) && foldText(name) !== '')
  return folded.length === 1 ? folded : []
}

/** Where a bare number beside a name is a count: items of trees, tabs and menus (folders, tags). */
const COUNTED = new Set<UiRole>(['tree', 'treeitem', 'tablist', 'tab', 'menu', 'menubar', 'menuitem'])

/**
 * "Inbox (4)", "Inbox [4]", and in a tree, tab or menu also "Inbox 4" or "4 Inbox" (up to three
 * digits): the name with a count before or after it. Elsewhere a bare number is part of the name
 * ("Room 101", "Week 11"), and so is a longer one anywhere ("Archive 2024").
 */
function withCount(index: TreeIndex, e: UiElement, name: string): boolean {
  const text = collapse(e.name)
  const bare = collapse(name)
  if (!bare || text.length <= bare.length) return false
  const counted = COUNTED.has(e.role) || ancestors(index, e).some((a) => COUNTED.has(a.role))
  // Up to three digits: "Archive 2024" is a name, not a year's count.
  const count = counted ? /^[([]?\d{1,3}[)\]]?$/ : /^[([]\d{1,6}[)\]]$/
  if (text.startsWith(`${bare} `)) return count.test(text.slice(bare.length + 1))
  if (text.endsWith(` ${bare}`)) return count.test(text.slice(0, -bare.length - 1))
  return false
}

const CELL_ROLES = new Set<UiRole>(['cell', 'rowheader', 'columnheader'])

/**
 * The row's cell under the column whose header shows `column` (compared like people read
 * headers: no case, accents or punctuation), the header row being the table's first row of
 * column headers. Headers may be fewer than cells: they are aligned from the right.
 */
function columnCell(index: TreeIndex, row: UiElement, column: string): UiElement | undefined {
  const table = ancestors(index, row).find(
    (a) => a.role === 'table' || a.role === 'tree' || a.role === 'list',
  )
  if (!table) return undefined
  const header = descendants(table).find(
    (e) => e.role === 'row' && e.children.some((c) => c.role === 'columnheader'),
  )
  if (!header || header === row) return undefined
  const heads = header.children.filter((c) => CELL_ROLES.has(c.role))
  const at = heads.findIndex((h) => foldWord(h.name) === foldWord(column))
  if (at < 0) return undefined
  const cells = row.children.filter((c) => CELL_ROLES.has(c.role))
  return cells[at + Math.max(0, cells.length - heads.length)]
}

/** Elements with the last id whose ancestors carry the earlier ids, in order (not necessarily adjacent). */
function byAutomationIds(root: UiElement, ids: string[]): UiElement[] {
  const out: UiElement[] = []
  const visit = (element: UiElement, matched: number) => {
    let next = matched
    if (element.automationId === ids[matched]) {
      if (matched === ids.length - 1) out.push(element)
      else next = matched + 1
    }
    for (const child of element.children) visit(child, next)
  }
  visit(root, 0)
  return out
}

function byLabel(index: TreeIndex, label: string, role: UiRole | undefined): UiElement[] {
  const wanted = stripLabelMarks(label)
  const accepts = (e: UiElement) => (role ? e.role === role : LABELLED_ROLES.has(e.role))
  const found = new Set<UiElement>()
  for (const text of index.all) {
    // A caption is a text, or for a value cell a caption cell before it ("Queue:" | "IT Support").
    const caption = text.role === 'text' || (role === 'cell' && text.role === 'cell')
    if (!caption || stripLabelMarks(text.name) !== wanted) continue
    const control = controlNear(index, text, accepts, role !== undefined && TOGGLE_ROLES.has(role))
    if (control) found.add(control)
  }
  return [...found]
}

/** The nearest control after the label within its container, widening up to two levels. */
function controlNear(
  index: TreeIndex,
  label: UiElement,
  accepts: (e: UiElement) => boolean,
  toggleFirst: boolean,
): UiElement | undefined {
  const at = index.order.get(label)!
  for (const container of ancestors(index, label).slice(0, 3)) {
    const inside = descendants(container).filter(accepts)
    const before = inside.filter((e) => index.order.get(e)! < at).at(-1)
    const after = inside.find((e) => index.order.get(e)! > at)
    // A toggle directly before its label ("[x] VIP") beats a control further down.
    const choice = toggleFirst ? (before ?? after) : after
    if (choice) return choice
  }
  return undefined
}

function stripLabelMarks(text: string): string {
  return collapse(text).replace(/[\s:*]+$/, '')
}

/** Elements showing the text; when an element and its descendant both match, the innermost wins. */
function byText(
  index: TreeIndex,
  text: string,
  mode: TextMatch | undefined,
  role: UiRole | undefined,
): UiElement[] {
  const shows = (e: UiElement) =>
    matchesText(e.name, text, mode ?? 'exact') ||
    (e.value !== undefined && matchesText(e.value, text, mode ?? 'exact'))
  const matches = index.all.filter((e) => e !== index.root && (!role || e.role === role) && shows(e))
  const set = new Set(matches)
  return matches.filter((e) => !descendants(e).some((d) => set.has(d)))
}

/** The selector with its templates rendered for this run (e.g. a row link named after an input id). */
export function renderSelector(
  selector: Selector,
  scope: TemplateScope,
  mapValue?: (rendered: string) => string,
): Selector {
  return {
    ...selector,
    fingerprints: selector.fingerprints.map((f) => renderFingerprint(f, scope, mapValue)),
  }
}

function renderFingerprint(
  fingerprint: Fingerprint,
  scope: TemplateScope,
  mapValue: (rendered: string) => string = (rendered) => rendered,
): Fingerprint {
  // Only text that came from a template is mapped: a fixed name is already the app's own word.
  const render = (template: string) =>
    template.includes('{{') ? mapValue(renderTemplate(template, scope)) : template
  switch (fingerprint.by) {
    case 'automationId':
      return { ...fingerprint, ids: fingerprint.ids.map(render) }
    case 'role':
      return { ...fingerprint, name: render(fingerprint.name) }
    case 'label':
      return { ...fingerprint, label: render(fingerprint.label) }
    case 'inRow':
      return {
        ...fingerprint,
        rowText: render(fingerprint.rowText),
        ...(fingerprint.rowAlso === undefined ? {} : { rowAlso: render(fingerprint.rowAlso) }),
        name: render(fingerprint.name),
        ...(fingerprint.column === undefined ? {} : { column: render(fingerprint.column) }),
      }
    case 'text':
      return { ...fingerprint, text: render(fingerprint.text) }
    case 'path':
      return fingerprint
  }
}

/** Describes elements so a person (or the builder) can tell them apart and pick a firmer selector. */
export function describeCandidates(root: UiElement, elements: UiElement[]): Candidate[] {
  const index = indexTree(root)
  return elements.map((element) => {
    const path = pathTo(index, element)
    const id = element.automationId ? ` #${element.automationId}` : ''
    const candidate: Candidate = {
      role: element.role,
      name: element.name,
      path,
      text: `${element.role} "${element.name}"${id} at ${formatPath(path)}`,
    }
    if (element.automationId) candidate.automationId = element.automationId
    return candidate
  })
}

/** A short human description of a selector for error messages. */
export function describeSelector(selector: Selector): string {
  if (selector.description) return selector.description
  const first = selector.fingerprints[0]
  if (!first) return 'an empty selector'
  switch (first.by) {
    case 'automationId':
      return `#${first.ids.join(' #')}`
    case 'role':
      return `${first.role} "${first.name}"${first.within ? ` in the ${first.within}` : ''}`
    case 'label':
      return `${first.role ?? 'control'} labelled "${first.label}"`
    case 'path':
      return formatPath(first.path)
    case 'text':
      return `${first.role ?? 'element'} showing "${first.text}"`
    case 'inRow': {
      const shows = `the row showing "${first.rowText}"${first.rowAlso === undefined ? '' : ` and "${first.rowAlso}"`}`
      return first.column === undefined
        ? `${first.role} "${first.name}" in ${shows}`
        : `the "${first.column}" ${first.role} of ${shows}`
    }
  }
}

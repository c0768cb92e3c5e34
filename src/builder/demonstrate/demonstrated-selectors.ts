// The sample's values in the selectors of a demonstration's steps. A person shown the sample's
// record clicks it by what it shows: the link "Issue #7" for number 7, the row reading "Printer
// broken — New" for subject "Printer broken". Kept literally, every live call would open the
// sample's record; templated (`Issue #{{number}}`, the row showing `{{subject}}`), each call opens
// its own. A literal that is the record's own data but no input value (the product's name in the
// row found by its SKU) is not kept either: any control of that role in the row will do.

import { ancestors, descendants, indexTree } from '../../automation/element-tree.ts'
import { renderSelector, resolveSelector } from '../../automation/selectors.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Fingerprint, Selector } from '../../protocol/automation.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { escapeRegex } from '../generalise.ts'
import { columnOf } from '../selector-design.ts'
import type { SampleValue } from './demonstrated-values.ts'

/** Values this short stand for the sample only as the whole text or after an identifier mark. */
const SHORT = 3
/** "#7", "No. 7", "ID: 7", "№ 7": the mark that says a short value is a record's identifier. */
const ID_MARK = /(#|\bno\.?|№|\bid:?|\bnr\.?|\bnum(ber)?:?)\s*$/i
/** Keys that name an identifier: their short values are one wherever they stand alone. */
const ID_KEY = /(^|[^a-z])(id|number|no|num|nr|key|code|ref|sku)$/i

export interface Generalised {
  selector: Selector
  /** The sample's paths now in the selector, in order; empty when nothing was the sample's. */
  paths: string[]
  /** The literal that was replaced, for the note ("Issue #7"). */
  literal?: string
}

/**
 * The selector with the sample's values in its literals templated, as long as the templated
 * selector, rendered with the sample, still finds the same element on the screen it was made on.
 * A position (`path`) is dropped once anything is templated: it points at the sample's record.
 */
export function generaliseSelector(
  selector: Selector,
  root: UiElement,
  element: UiElement,
  all: SampleValue[],
): Generalised {
  // A value that names a control inside this one (a menu drawn inside the button that opened
  // it, whose name then runs all the menu's items together) is that inner control's, never part
  // of this one's name. Plain text inside it is its own label's parts ("Disconnected", "Office
  // NAS" in a panel's heading), not a control.
  const fold = (text: string) => collapse(text).toLowerCase()
  const inner = indexTree(element).all.filter(
    (e) => e !== element && e.role !== 'text' && fold(e.name) !== '',
  )
  const values = all.filter(
    (v) => fold(v.value) === fold(element.name) || !inner.some((e) => fold(e.name) === fold(v.value)),
  )
  const paths: string[] = []
  let literal: string | undefined
  const out: Fingerprint[] = []
  const bound = new Set<Fingerprint>()
  for (const fingerprint of selector.fingerprints) {
    const made = generalised(fingerprint, root, element, values)
    if (!made) {
      out.push(fingerprint)
      continue
    }
    out.push(...made.fingerprints)
    for (const f of made.bound ?? []) bound.add(f)
    for (const p of made.paths) if (!paths.includes(p)) paths.push(p)
    literal ??= made.literal
  }
  // The outermost such layer: a menu inside a toolbar may be redrawn (its role gone once the
  // list it opened shows), while the toolbar stays.
  const layer = ancestors(indexTree(root), element).findLast((a) => LAYERS.has(a.role))?.role
  if (paths.length === 0) return byOwnName(selector, root, element, values, layer) ?? { selector, paths }
  const fingerprints = out.filter((f) => f.by !== 'path' && (f.by !== 'automationId' || templated(f)))
  const scope = scopeOf(values.filter((v) => paths.includes(v.path)))
  // Any control in the row may be one of several there: then only its own name tells it apart.
  const loose = (f: Fingerprint) => f.by === 'inRow' && f.match === 'regex'
  const byColumn = (f: Fingerprint) => loose(f) && f.by === 'inRow' && f.column !== undefined
  // A row picked by a value its own cell shows exactly: "WX-100" is not the row of "WX-1000".
  const exactRows = (fs: Fingerprint[]) =>
    fs.map((f) =>
      f.by === 'inRow' && /^\{\{[^}]+\}\}$/.test(f.rowText) ? { ...f, rowMatch: 'exact' as const } : f,
    )
  const free = (f: Fingerprint) => !bound.has(f)
  const looser = [
    fingerprints.filter(free),
    fingerprints.filter((f) => free(f) && !byColumn(f)),
    fingerprints.filter((f) => !loose(f)),
  ]
  const tries = [...looser.map(exactRows), ...looser]
  // Picked in a menu or dialog that opened: only there, since the same names often show beside
  // it too (a folder list beside the "Move to" menu), on the run's screen if not on this one.
  const scoped = (fs: Fingerprint[]) =>
    fs.map((f) => (layer && (f.by === 'role' || f.by === 'inRow') ? { ...f, within: layer } : f))
  for (const candidate of [...(layer ? tries.map(scoped) : []), ...tries]) {
    const made: Selector = { ...selector, fingerprints: candidate }
    if (candidate.length > 0 && findsSame(made, root, element, scope))
      return { selector: made, paths, ...(literal ? { literal } : {}) }
  }
  return { selector, paths: [] }
}

/**
 * A control named exactly by a sample value whose designed selector kept no name (the name was
 * not unique, so only a position was left): its role and the value, inside the layer it sits in.
 */
function byOwnName(
  selector: Selector,
  root: UiElement,
  element: UiElement,
  values: SampleValue[],
  layer: UiRole | undefined,
): Generalised | undefined {
  const fold = (text: string) => collapse(text).toLowerCase()
  const value = values.find((v) => fold(v.value) !== '' && fold(v.value) === fold(element.name))
  if (!value || !layer) return undefined
  const fingerprint: Fingerprint = {
    by: 'role',
    role: element.role,
    name: `{{${value.path}}}`,
    match: 'exact',
    within: layer,
  }
  const made: Selector = { ...selector, fingerprints: [fingerprint] }
  return findsSame(made, root, element, scopeOf([value]))
    ? { selector: made, paths: [value.path], literal: value.value }
    : undefined
}

/**
 * Layers that open over a screen, and the bars whose menus open from them: what is picked in one
 * is sought in one.
 */
const LAYERS = new Set<UiRole>(['menu', 'dialog', 'alertdialog', 'listbox', 'toolbar', 'menubar'])

const ROWS = new Set<UiRole>(['row', 'listitem', 'treeitem'])

/**
 * The control in the row of the sample's record, the row found by a cell (or item part) that
 * shows a sample value exactly: for rows whose text alone does not tell them apart ("WX-100" is
 * also inside "WX-1000"'s row). Undefined when the element is in no row or no part shows a value.
 */
export function ownRowSelector(
  root: UiElement,
  element: UiElement,
  values: SampleValue[],
  description: string,
): Selector | undefined {
  const index = indexTree(root)
  const row = ancestors(index, element).find((a) => ROWS.has(a.role))
  if (!row) return undefined
  const parts = [row, ...descendants(row)]
  const shows = (v: SampleValue) =>
    parts.some((e) => e.name.trim() === v.value.trim() || e.value?.trim() === v.value.trim())
  for (const v of [...values].sort((a, b) => b.value.length - a.value.length)) {
    if (v.value.trim().length < 2 || !shows(v)) continue
    const selector: Selector = {
      fingerprints: [
        {
          by: 'inRow',
          rowText: `{{${v.path}}}`,
          rowMatch: 'exact',
          role: element.role,
          name: element.name,
          match: 'exact',
        },
      ],
      description,
    }
    if (findsSame(selector, root, element, scopeOf([v]))) return selector
  }
  return undefined
}

interface Made {
  fingerprints: Fingerprint[]
  /** Kept only as a last resort: it names the sample's own data. */
  bound?: Fingerprint[]
  paths: string[]
  literal?: string
}

function generalised(
  fingerprint: Fingerprint,
  root: UiElement,
  element: UiElement,
  values: SampleValue[],
): Made | undefined {
  switch (fingerprint.by) {
    case 'role':
    case 'text': {
      const text = fingerprint.by === 'role' ? fingerprint.name : fingerprint.text
      const found = templateOf(text, values)
      if (!found) return undefined
      const put = (t: string, match: 'exact' | 'contains'): Fingerprint =>
        fingerprint.by === 'role' ? { ...fingerprint, name: t, match } : { ...fingerprint, text: t, match }
      return {
        // Outside a row nothing else pins the record: the words around the value stay, exactly.
        fingerprints: [put(found.template, 'exact')],
        paths: [found.value.path],
        literal: text,
      }
    }
    case 'inRow': {
      const row = fingerprint.rowText.includes('{{') ? undefined : templateOf(fingerprint.rowText, values)
      const rowText = row ? `{{${row.value.path}}}` : fingerprint.rowText
      const rowPaths = row ? [row.value.path] : pathsIn(fingerprint.rowText)
      if (rowPaths.length === 0) return undefined
      const named = pathsIn(fingerprint.name)[0]
      const already = values.find((v) => v.path === named)
      const name = already
        ? { template: fingerprint.name, value: already }
        : templateOf(fingerprint.name, values)
      const base = { ...fingerprint, rowText, ...(row ? { rowMatch: 'contains' as const } : {}) }
      if (name)
        return {
          fingerprints: withFallback(name, (t, match) => ({ ...base, name: t, match })),
          paths: [...new Set([...rowPaths, name.value.path])],
          literal: fingerprint.name,
        }
      // The row is the record's; a name it alone shows is its data, which another record's row
      // shows differently: any named control of that role in the row stands for it.
      const data = fingerprint.name !== '' && !shownInOtherRows(root, fingerprint)
      const column = data && fingerprint.column === undefined ? columnOf(root, element) : undefined
      const any = { ...base, name: '\\S', match: 'regex' as const }
      const loose: Fingerprint[] = data ? [...(column ? [{ ...any, column }] : []), any] : []
      return {
        fingerprints: [...loose, base],
        ...(loose.length ? { bound: [base] } : {}),
        paths: rowPaths,
        ...(row ? { literal: fingerprint.rowText } : {}),
      }
    }
    case 'automationId': {
      let changed: SampleValue | undefined
      const ids = fingerprint.ids.map((id) => {
        const found = templateOf(id, values, true)
        if (!found) return id
        changed ??= found.value
        return found.template
      })
      return changed ? { fingerprints: [{ ...fingerprint, ids }], paths: [changed.path] } : undefined
    }
    default:
      return undefined
  }
}

/**
 * The exact template first; in a row that shows the value, a value long enough to be told apart
 * also by itself (case aside): the rest of the name may be the record's other data ("— New").
 */
function withFallback(
  found: { template: string; value: SampleValue },
  put: (template: string, match: 'exact' | 'contains') => Fingerprint,
): Fingerprint[] {
  const alone = `{{${found.value.path}}}`
  if (found.template === alone) return [put(alone, 'exact')]
  const exact = put(found.template, 'exact')
  return found.value.value.length >= SHORT ? [exact, put(alone, 'contains')] : [exact]
}

/**
 * `text` with the longest sample value it holds as a whole part ("Issue #7" → "Issue #{{number}}").
 * A short value counts only as the whole text, after an identifier mark, or when its key names an
 * identifier (a quantity of 1 is not the "1" of "Page 1").
 */
function templateOf(
  text: string,
  values: SampleValue[],
  inId = false,
): { template: string; value: SampleValue } | undefined {
  if (!text || text.includes('{{')) return undefined
  const sorted = [...values].sort((a, b) => b.value.length - a.value.length)
  for (const value of sorted) {
    const shown = value.value.trim()
    if (!shown) continue
    if (text.trim() === shown) return { template: `{{${value.path}}}`, value }
    const part = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegex(shown)}(?=$|[^\\p{L}\\p{N}])`, 'u')
    const hit = part.exec(text)
    if (!hit) continue
    const before = text.slice(0, hit.index + hit[1]!.length)
    const short = shown.length < SHORT
    if (short && !ID_MARK.test(before) && !ID_KEY.test(value.path) && !inId) continue
    if (short && inId && !ID_KEY.test(value.path)) continue
    const template = `${before}{{${value.path}}}${text.slice(hit.index + hit[0].length)}`
    return { template, value }
  }
  return undefined
}

function templated(f: Fingerprint): boolean {
  return f.by === 'automationId' && f.ids.some((id) => id.includes('{{'))
}

function pathsIn(template: string): string[] {
  return [...template.matchAll(/\{\{\s*([\w$.-]+)\s*\}\}/g)].map((m) => m[1]!)
}

/** Whether another row holds a control of that role and name ("Edit" in every row). */
function shownInOtherRows(root: UiElement, f: Extract<Fingerprint, { by: 'inRow' }>): boolean {
  let count = 0
  const visit = (e: UiElement) => {
    if (e.role === f.role && e.name === f.name) count++
    for (const c of e.children) visit(c)
  }
  visit(root)
  return count > 1
}

function findsSame(
  selector: Selector,
  root: UiElement,
  element: UiElement,
  scope: Record<string, unknown>,
): boolean {
  const found = resolveSelector(root, renderSelector(selector, scope))
  return found.status === 'found' && found.element === element
}

/** The nested input the paths name, for rendering (`a.b` → `{a: {b: …}}`). */
function scopeOf(values: SampleValue[]): Record<string, unknown> {
  const scope: Record<string, unknown> = {}
  for (const { path, value } of values) {
    const keys = path.split('.')
    let at = scope
    for (const key of keys.slice(0, -1)) {
      at[key] ??= {}
      at = at[key] as Record<string, unknown>
    }
    at[keys.at(-1)!] = value
  }
  return scope
}

// List outputs: which collection on the screen the job ends on holds the rows (a table or grid,
// a list, a run of like cards), and how each row becomes an object. Chosen by evidence only: it
// appeared after the submit, is not site chrome, shows the sample's values or sits under words
// that mean the key, and, given an example list, shows every example item. Two collections with
// the same evidence are a question, never a pick.
import { indexTree } from '../../automation/index.ts'
import { cardItems, listItems, partsOf, tableLayout, textOf } from '../../automation/read-rows.ts'
import { collapse } from '../../automation/text-match.ts'
import type { CardRun, RowPart, Selector, Step } from '../../protocol/automation.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { filtersBy } from '../explore/filter-route.ts'
import { designPlaceSelector } from '../selector-design.ts'
import { stems } from '../words.ts'
import { defaultMapping, mapExample, namingLink } from './collection-keys.ts'
import type { OutputContext } from './outputs.ts'

type RowsStep = Extract<Step, { kind: 'read' }> & { target: Selector }

/** `{"$type": "array"}` or a literal array: the output is a list (search results, table rows). */
export function listExpected(value: unknown): boolean {
  return (
    Array.isArray(value) ||
    (typeof value === 'object' && value !== null && (value as { $type?: unknown }).$type === 'array')
  )
}

/** How a collection's rows become objects: the read step's `columns`, `parts`, `cards`, `pluck`. */
export interface RowMapping {
  columns?: Record<string, string>
  parts?: Record<string, RowPart>
  pluck?: string
}

export interface Collection extends RowMapping {
  element: UiElement
  kind: 'table' | 'list' | 'cards'
  cards?: CardRun
  selector: Selector
  /** Why this collection may be the output, in words a question can show. */
  evidence: string[]
  score: number
  rows: number
}

const norm = (text: string) => collapse(text).toLowerCase()
const LISTS = new Set<UiRole>(['list', 'listbox', 'tree'])
const CHROME_ROLES = new Set<UiRole>(['menu', 'menubar', 'tablist', 'toolbar'])
/** Names and ids of site chrome (the driver keeps landmarks as named or identified containers). */
const CHROME_WORDS =
  /menu|nav(bar|igation|\b|[_-]|$)|sidebar|side-bar|toolbar|breadcrumb|footer|banner|masthead/i
/** Roles that are pieces of a card, never a card themselves. */
const NOT_CARDS = new Set<UiRole>(['heading', 'link', 'text', 'cell', 'rowheader', 'columnheader', 'row'])
/** Collections and controls of their own, never one card of a run. */
const NOT_A_CARD = new Set<UiRole>([
  ...NOT_CARDS,
  'list',
  'listbox',
  'tree',
  'table',
  'form',
  ...CHROME_ROLES,
])
/** A pager's link: a page number, "Next", "Previous", "»". */
const PAGER_LINK =
  /^\s*(\d+|next( page)?|previous( page)?|prev|older( entries| posts)?|newer( entries| posts)?|first|last|[‹›«»<>←→]+)\s*$/i
/**
 * A table of one record's fields, each row a caption (a row header) and its value, with no column
 * headers: its rows are that record's properties, not a list of records.
 */
function propertySheet(c: Found): boolean {
  return c.kind === 'table' && isPropertySheet(c.element)
}

/** The table's rows are each one caption (a row header) and at most one value, with no column headers. */
export function isPropertySheet(table: UiElement): boolean {
  const all = indexTree(table).all
  if (all.some((e) => e.role === 'columnheader' && e.name.trim() !== '')) return false
  const rows = all.filter((e) => e.role === 'row')
  const shape = (row: UiElement) => {
    const cells = indexTree(row).all.filter((d) => d.role === 'rowheader' || d.role === 'cell')
    return cells.filter((d) => d.role === 'rowheader').length === 1 && cells.length <= 2
  }
  return rows.length > 0 && rows.every(shape)
}

/** A count, not a list: "3 results", "(12)", "1 row". */
const COUNT = /^\(?\d[\d,.\s]*\)?(\s+\p{L}+){0,2}\s*[.:)]?$/u

export interface Found {
  element: UiElement
  kind: Collection['kind']
  cards?: CardRun
  /** Each row or card as the elements it is made of. */
  items: UiElement[][]
  headers: string[]
}

/**
 * Every collection on the ending's screen that may hold the list `key`, best first, each with
 * its evidence and how its rows map to objects. With `example` (the sample's list), a collection
 * counts only when it shows every example item, and its mapping comes from where it shows them.
 */
export function findCollections(ctx: OutputContext, key: string, example?: readonly unknown[]): Collection[] {
  const index = indexTree(ctx.after)
  const fresh = new Set(ctx.ending.appeared)
  const values = ctx.inputs.map(norm).filter((v) => v.length >= 2)
  const keyStems = stems(key)
  const found = collectionsIn(ctx.after).filter((c) => !inChrome(index, c.element))
  const nested = (c: Found) =>
    found.some(
      (outer) =>
        outer !== c &&
        outer.items.length >= 2 &&
        outer.items.some((item) => item.some((e) => e !== c.element && indexTree(e).all.includes(c.element))),
    )
  const out: Collection[] = []
  for (const c of found) {
    if (nested(c)) continue
    const texts = c.items.map((item) => norm(item.map(textOf).join(' ')))
    if (texts.every((t) => t === '' || COUNT.test(t))) continue
    if (propertySheet(c)) continue
    const newRows = c.items.filter((item) =>
      item.some((e) => indexTree(e).all.some((d) => fresh.has(d))),
    ).length
    const mapping = example?.length ? mapExample(c, key, example) : defaultMapping(c)
    if (!mapping) continue
    // Cards are titled by the heading before the first card (their container may hold it).
    const heading = headingBefore(index.all, c.kind === 'cards' ? c.items[0]![0]! : c.element)
    const evidence: string[] = []
    let score = 0
    if (example?.length) {
      evidence.push(`shows every item of the example (${example.length})`)
      score += 8
    }
    if (newRows > 0) {
      evidence.push(`${newRows} of its ${c.items.length} rows appeared after the submit`)
      // More of it new, more surely the submit's: of two lists showing one title each, the
      // results drawn under the search box beat the list the page showed all along.
      score += 0.5 + (0.5 * newRows) / c.items.length
    }
    // A link that filters by the sample's value ("Back room" → `?location=Back+room`) offers the
    // value as a choice; it is no row showing it.
    const shown = c.items.map((item, i) => withoutFilters(texts[i]!, item, ctx))
    if (shown.some((t) => values.some((v) => t.includes(v)))) {
      evidence.push('its rows show the sample’s values')
      score += 4
    }
    const named = stems(`${c.element.name} ${heading}`).some((w) => keyStems.some((k) => w.startsWith(k)))
    if (named) {
      evidence.push(`its heading “${heading || c.element.name}” names “${key}”`)
      score += 2
    }
    // A table's column named like the key ("Title" for `titles`) is the list the key asks for.
    const column = example?.length
      ? undefined
      : c.headers.find(
          (h) => h !== '' && stems(h).some((w) => keyStems.some((k) => k.startsWith(w) || w.startsWith(k))),
        )
    const plucked =
      column && mapping.columns
        ? Object.keys(mapping.columns).find((k) => mapping.columns![k] === column)
        : undefined
    if (plucked) {
      evidence.push(`its column “${column}” names “${key}”`)
      score += 2
      mapping.pluck = plucked
    }
    // No column named so, and "titles" asked for: each row's one link names its record.
    const byLink = plucked || example?.length || column ? undefined : namingLink(c, key)
    if (byLink) {
      evidence.push(`each of its rows names its record by one link, read as “${key}”`)
      delete mapping.columns
      Object.assign(mapping, byLink)
    }
    // A search that narrows a list shows nothing new: its rows must then show what was asked.
    if (score === 0) continue
    const what = c.kind === 'table' ? 'table' : c.kind === 'cards' ? 'cards' : 'list'
    const description = heading ? `the ${what} under “${heading}”` : `the ${what} of results`
    const selector: Selector =
      c.element === ctx.after
        ? // Cards straight in the window (their wrappers dissolved): the window is the collection.
          { fingerprints: [{ by: 'role', role: c.element.role, name: '.*', match: 'regex' }], description }
        : designPlaceSelector(ctx.after, c.element, description)
    out.push({
      element: c.element,
      kind: c.kind,
      ...(c.cards ? { cards: c.cards } : {}),
      ...mapping,
      selector,
      evidence,
      score,
      rows: c.items.length,
    })
  }
  return out.sort((a, b) => b.score - a.score)
}

/**
 * A list output reads the one collection the evidence points to; none, or two with the same
 * evidence, is undefined (the caller asks, offering `findCollections`).
 */
export function rowsRead(ctx: OutputContext, key: string, expected?: unknown): RowsStep | undefined {
  const example = Array.isArray(expected) ? expected : undefined
  const found = findCollections(ctx, key, example)
  const [best, next] = found
  // Two collections with the same evidence are a question, unless they show the very same rows
  // (a search's title matches and text matches): then either is the list, and the first is read.
  const tied = found.filter((c) => c.score === best?.score)
  if (!best || (next && next.score === best.score && !tied.every((c) => sameRows(c, best)))) return undefined
  return {
    kind: 'read',
    name: `Read the list “${key}”`,
    target: best.selector,
    source: 'rows',
    into: key,
    ...(best.columns ? { columns: best.columns } : {}),
    ...(best.parts ? { parts: best.parts } : {}),
    ...(best.cards ? { cards: best.cards } : {}),
    ...(best.pluck ? { pluck: best.pluck } : {}),
  }
}

/** Two collections of one kind whose rows show the same texts, in the same order. */
function sameRows(a: Collection, b: Collection): boolean {
  if (a.kind !== b.kind || a.rows !== b.rows) return false
  const rows = (c: Collection) => norm(textOf(c.element))
  return rows(a) === rows(b)
}

/** Tables and grids, lists, and runs of like cards (as children, or flat runs of parts). */
function collectionsIn(root: UiElement): Found[] {
  const out: Found[] = []
  for (const element of indexTree(root).all) {
    if (element.role === 'table') {
      const { headers, rows } = tableLayout(element)
      if (rows.length) out.push({ element, kind: 'table', items: rows.map((r) => [r]), headers })
    } else if (LISTS.has(element.role)) {
      const items = listItems(element)
      if (items.length) out.push({ element, kind: 'list', items: items.map((i) => [i]), headers: [] })
    } else if (!NOT_CARDS.has(element.role) && element.children.length >= 2) {
      const cards = cardRun(element)
      if (cards) out.push({ element, kind: 'cards', cards, items: cardItems(element, cards), headers: [] })
    }
  }
  return out
}

/**
 * Children that are cards: two or more of one role with the same sequence of parts, holding a
 * title (heading or link) and more; else flat runs that start at a heading, link or row header
 * and repeat the same sequence of roles.
 */
function cardRun(element: UiElement): CardRun | undefined {
  const shape = (item: UiElement[]) =>
    partsOf(item)
      .map((p) => p.role)
      .join(' ')
  const titled = (s: string) => /\b(heading|link|rowheader)\b/.test(s) && s.includes(' ')
  const counts = new Map<string, number>()
  for (const child of element.children) {
    if (NOT_A_CARD.has(child.role) || child.children.length === 0) continue
    const s = `${child.role}|${shape([child])}`
    counts.set(s, (counts.get(s) ?? 0) + 1)
  }
  const [top] = [...counts].sort((a, b) => b[1] - a[1])
  if (top && top[1] >= 2 && titled(top[0].split('|')[1]!)) return { role: top[0].split('|')[0] as UiRole }
  for (const role of ['heading', 'rowheader', 'link'] as const) {
    const run: CardRun = { role, flat: true }
    const items = cardItems(element, run)
    if (items.length < 2) continue
    const first = items[0]!.map((e) => e.role).join(' ')
    const same = items.every((item, i) => {
      const roles = item.map((e) => e.role).join(' ')
      return i === items.length - 1 ? first.startsWith(roles) : roles === first
    })
    if (same && items[0]!.length >= 2 && titled(shape(items[0]!))) return run
    // Links side by side with nothing between or after them (results listed under a search box
    // as bare links, one per line): each link is an item, as a list's would be. A pager's
    // numbers and "Next" are no list.
    if (
      role === 'link' &&
      items.every(
        (item) => item.length === 1 && item[0]!.role === 'link' && !PAGER_LINK.test(textOf(item[0]!)),
      ) &&
      element.children.at(-1) === items.at(-1)![0]
    )
      return run
  }
  return undefined
}

/** An item's text without the links in it that filter by one of the sample's values. */
function withoutFilters(text: string, item: UiElement[], ctx: OutputContext): string {
  let out = text
  for (const e of item.flatMap((i) => indexTree(i).all))
    if (
      e.role === 'link' &&
      ctx.values?.some((v) => filtersBy(e, v.path.split('.').at(-1)!, v.value, ctx.afterUrl))
    )
      out = out.replace(norm(e.name), '')
  return out
}

function inChrome(index: ReturnType<typeof indexTree>, element: UiElement): boolean {
  for (let a: UiElement | undefined = element; a; a = index.parent.get(a)) {
    if (CHROME_ROLES.has(a.role)) return true
    if (a.role === 'generic' && CHROME_WORDS.test(`${a.name} ${a.automationId ?? ''}`)) return true
  }
  return false
}

/** The text of the nearest heading before `element` in screen order. */
function headingBefore(all: UiElement[], element: UiElement): string {
  const at = all.indexOf(element)
  for (let i = at - 1; i >= 0; i--) if (all[i]!.role === 'heading') return all[i]!.name
  return ''
}

// What exploring may try next from a screen it reached, best first: the items of its menus, the
// next page of a paged list, the tabs of a form, and the actions whose words share the task's
// (or the sample's own record's row and link). What it would not press is kept to be told.

import type { TreeIndex } from '../../automation/element-tree.ts'
import type { AppSpec } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { screenFitness } from '../map/field-scores.ts'
import { actionElements, readControls } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import { actionOf } from '../words.ts'
import { actionKey, type PeekedMenu, scopeOf } from './explore-menus.ts'
import {
  aboutObject,
  indexOf,
  moveScore,
  ownRecordLink,
  refusal,
  rowSelector,
  sectionName,
} from './explore-moves.ts'
import { depth, type Move } from './explore-walk.ts'

/** Next-page clicks exploring may make looking for the sample's record (runs page further). */
const MAX_PAGES_EXPLORED = 5
/** A paged list's way to its next page: "Next page", "Next", "›", "Older entries". */
const PAGER = /^(next( page)?|older( entries| posts)?|more results|›|»|>|→)$/i
const ROWS = new Set(['row', 'listitem'])
const DELETE = actionOf('delete')
const FIELD = new Set(['textbox', 'combobox', 'spinbutton', 'listbox'])

export interface Candidate {
  path: Move[]
  move: Move
  priority: number
  /** What the screen the move starts from already offered (its buttons stay; they lead nowhere new). */
  known: Set<string>
  order: number
}

/** The action in the sample's own row that the task is ("Remove"), with the way to it. */
export interface RowAction {
  path: Move[]
  snapshot: Snapshot
  move: Move
}

/** One screen as the frontier reads it: its actions, which sit in rows, and which rows are the sample's. */
interface Screen {
  snapshot: Snapshot
  index: TreeIndex
  actions: UiElement[]
  /** Keys of what the screen offers, scoped to the part of the screen they are in. */
  here: Set<string>
  seenKey: (e: UiElement) => string
  /** The actions the sample's own row offers ("Edit" in its row). */
  ownRow: Set<string>
  inRows: UiElement[]
  /** Actions repeated in two or more rows of one table or list: per-record actions. */
  repeated: Set<string>
}

const byPriority = (a: Candidate, b: Candidate) => b.priority - a.priority || a.order - b.order

export class Frontier {
  readonly queue: Candidate[] = []
  /** Controls not pressed while exploring, with why (destructive, outward…). */
  readonly refused = new Map<string, string>()
  /** "Remove" in the sample's own row, for a task that removes: found, never pressed. */
  rowAction: RowAction | undefined
  private order = 0

  constructor(
    private readonly reading: PromptReading,
    private readonly app: AppSpec,
    private readonly leaves: InputLeaf[],
  ) {}

  /** Sorts best first and takes the best candidate. */
  next(): Candidate | undefined {
    this.sort()
    return this.queue.shift()
  }

  sort(): void {
    this.queue.sort(byPriority)
  }

  /** Every way on from a screen reached by `path`; `known` is what the screen before offered. */
  add(snapshot: Snapshot, path: Move[], known: Set<string>, menus: PeekedMenu[] = []): void {
    // A dialog's "Add" is not the window's "Add": keys say which part of the screen they are in.
    const scope = scopeOf(snapshot.root)
    const seenKey = (e: UiElement) => scope + actionKey(e)
    const entries = menuEntries(snapshot.root)
    const here = new Set([...actionElements(snapshot.root), ...entries].map(seenKey))
    this.addMenuItems(path, here, menus)
    this.addFoldedSections(path, here, menus)
    const screen = this.read(snapshot, here, seenKey)
    this.addNextPage(screen, path)
    this.addTabs(screen, path, known)
    this.addActions(screen, path, known)
    this.addMenuEntries(screen, entries, path, known)
  }

  /** A menu drawn as a table of names (menuEntries): its entries share words with the task. */
  private addMenuEntries(screen: Screen, entries: UiElement[], path: Move[], known: Set<string>): void {
    const { snapshot, here, seenKey } = screen
    for (const cell of entries) {
      if (known.has(seenKey(cell))) continue
      const score = moveScore(this.reading, cell.name)
      if (score === 0) continue
      const move = {
        selector: designSelector(snapshot.root, cell, `the “${cell.name}” entry`),
        label: cell.name,
      }
      this.push(path, move, score * 0.8 ** depth(path), here)
    }
  }

  private push(path: Move[], move: Move, priority: number, known: Set<string>): void {
    this.queue.push({ path, move, priority, known, order: this.order++ })
  }

  /** A menu's items are ways too, reached by opening their menu first. */
  private addMenuItems(path: Move[], here: Set<string>, menus: PeekedMenu[]): void {
    for (const { menu, open, items, via = [] } of menus) {
      const openIndex = indexOf(open)
      for (const item of items) {
        const score = moveScore(this.reading, item.name)
        if (score === 0 || item.states.includes('disabled')) continue
        const why = refusal(openIndex, item, this.app.url, this.reading)
        if (why) {
          this.refused.set(item.name, why)
          continue
        }
        const move = {
          selector: designSelector(open, item, `the “${item.name}” menu item`),
          label: item.name,
        }
        this.push([...path, ...via, menu], move, score * 0.8 ** depth(path), here)
      }
    }
  }

  /**
   * A folded section (a collapsed "Tags" panel beside the editor) that showed fields taking more
   * of the sample's values when peeked into: unfolding it is as likely a way as a form's tab.
   */
  private addFoldedSections(path: Move[], here: Set<string>, menus: PeekedMenu[]): void {
    for (const { menu, open, folded } of menus) {
      if (!folded) continue
      const shown = readControls(open)
      if (screenFitness(this.leaves, shown) <= screenFitness(this.leaves, readControls(folded))) continue
      const controls = new Set(shown.map((c) => c.element))
      const before = new Set(
        indexOf(folded)
          .all.filter((e) => FIELD.has(e.role))
          .map(actionKey),
      )
      const field = indexOf(open).all.find(
        (e) => FIELD.has(e.role) && !before.has(actionKey(e)) && controls.has(e),
      )
      if (!field) continue
      const unfolds = designSelector(open, field, `the “${field.name || menu.label}” field`)
      this.push(path, { ...menu, opensMenu: false, unfolds }, 1.5 * 0.8 ** depth(path), here)
    }
  }

  private read(snapshot: Snapshot, here: Set<string>, seenKey: (e: UiElement) => string): Screen {
    const index = indexOf(snapshot.root)
    const actions = actionElements(snapshot.root)
    // When the sample's own row offers an action ("Edit"), the same action of other rows is no way.
    const ownRow = new Set(
      actions.filter((e) => rowSelector(index, e, this.leaves) !== undefined).map(actionKey),
    )
    const rowOf = (e: UiElement) => {
      for (let p = index.parent.get(e); p; p = index.parent.get(p)) if (ROWS.has(p.role)) return p
      return undefined
    }
    const inRows = actions.filter((e) => rowOf(e) !== undefined)
    // Per-record actions: the same action in two or more rows of one table or list ("Edit" in
    // every row), not a name that merely shows in two places (a table's link and a menu's).
    const seenIn = new Map<UiElement | undefined, Set<string>>()
    const repeated = new Set<string>()
    for (const e of inRows) {
      const list = index.parent.get(rowOf(e)!)
      const keys = seenIn.get(list) ?? seenIn.set(list, new Set()).get(list)!
      if (keys.has(actionKey(e))) repeated.add(actionKey(e))
      keys.add(actionKey(e))
    }
    return { snapshot, index, actions, here, seenKey, ownRow, inRows, repeated }
  }

  /** A paged list that does not show the sample's record on this page: its next page may. */
  private addNextPage(screen: Screen, path: Move[]): void {
    const { snapshot, index, actions, here, seenKey, ownRow, inRows } = screen
    const showsRows = index.all.some((e) => ROWS.has(e.role))
    if (ownRow.size > 0 || !showsRows || this.leaves.length === 0) return
    for (const element of actions) {
      if (!PAGER.test((element.name || '').trim()) || refusal(index, element, this.app.url)) continue
      const move = {
        selector: designSelector(snapshot.root, element, `the “${element.name}” ${element.role}`),
        label: element.name,
        pager: true,
      }
      if (path.filter((m) => m.pager).length >= MAX_PAGES_EXPLORED) continue
      // The next page's rows are new, whatever their actions are called; the site's menus are not.
      const menus = new Set([...here].filter((key) => !inRows.some((e) => seenKey(e) === key)))
      this.push(path, move, 1.5 * 0.8 ** depth(path), menus)
    }
  }

  /** Tabs of a form hide fields behind them: a tab not shown yet may hold the sample's. */
  private addTabs(screen: Screen, path: Move[], known: Set<string>): void {
    const { snapshot, index, here, seenKey } = screen
    if (readControls(snapshot.root).length === 0) return
    for (const element of index.all) {
      if (
        element.role !== 'tab' ||
        element.states.includes('selected') ||
        element.states.includes('disabled')
      )
        continue
      if (!element.name.trim()) continue
      if (known.has(seenKey(element))) continue
      const move = {
        selector: designSelector(snapshot.root, element, `the “${element.name}” tab`),
        label: element.name,
      }
      // As likely as a move named like the task: the form is open, only its tab is not.
      this.push(path, move, 1.5 * 0.8 ** depth(path), here)
    }
  }

  /** The screen's buttons and links whose words share the task's, and the sample's own row and link. */
  private addActions(screen: Screen, path: Move[], known: Set<string>): void {
    const { snapshot, index, actions, here, seenKey, ownRow, repeated } = screen
    const { reading, leaves } = this
    const onTopic = aboutObject(snapshot, reading)
    for (const element of actions) {
      if (known.has(seenKey(element))) continue
      if (ownRow.has(actionKey(element)) && !rowSelector(index, element, leaves)) continue
      // An action repeated in every row ("Edit", "Remove") acts on that row's record: only the
      // row showing the sample's own record is a way, wherever (on whichever page) it is.
      if (repeated.has(actionKey(element)) && !rowSelector(index, element, leaves)) continue
      // The sample's record's own link ("PEN-RED" in its row) opens it for a lookup or a change.
      const section = sectionName(index, element)
      const score =
        moveScore(reading, section ? `${section} ${element.name}` : element.name) ||
        (ownRecordLink(reading, index, element, leaves) ? 1 : 0)
      if (score === 0) continue
      const why = refusal(index, element, this.app.url, this.reading)
      const inRow = rowSelector(index, element, leaves)
      // "Remove" in the sample's own row, for a task that removes: never pressed while exploring,
      // it is the job's own action (its submit), found here with the way to it.
      if (
        why &&
        inRow &&
        reading.verb === DELETE &&
        actionOf(element.name.trim().split(/\s+/)[0] ?? '') === DELETE
      ) {
        this.rowAction ??= {
          path,
          snapshot,
          move: {
            selector: inRow.selector,
            label: `${element.name}” in the row of “${inRow.value}`,
          },
        }
        continue
      }
      if (why) {
        this.refused.set(element.name, why)
        continue
      }
      const label = inRow ? `${element.name}” in the row of “${inRow.value}` : element.name
      const move = {
        selector: inRow?.selector ?? designSelector(snapshot.root, element, `the “${label}” ${element.role}`),
        label,
      }
      // The row of the sample's own record is the one to open; on a screen a move led to that is
      // about the task's object ("Manage Accounts"), its own actions are the likeliest way on.
      // When the sample's own row offers actions, those are the way (not the list's "Modify").
      const boost = inRow || (path.length > 0 && onTopic && ownRow.size === 0) ? 1 : 0
      this.push(path, move, (score + boost) * 0.8 ** depth(path), here)
    }
  }
}

/** A table holding these lays out a form or a record's actions, not a menu. */
const CONTROLS = new Set([
  'textbox',
  'combobox',
  'spinbutton',
  'checkbox',
  'radio',
  'button',
  'link',
  'listbox',
])

/**
 * A menu drawn as a table (a tree of an app's sections, as desktop-like web clients draw it): a
 * table with no column or row headers and no controls, whose every row names one thing in one
 * cell. Data tables have headers or several values a row; their cells are records, not ways on.
 */
export function menuEntries(root: UiElement): UiElement[] {
  const out: UiElement[] = []
  for (const table of indexOf(root).all.filter((e) => e.role === 'table' || e.role === 'tree')) {
    const inside = indexOf(table).all
    if (inside.some((e) => e.role === 'columnheader' || e.role === 'rowheader' || CONTROLS.has(e.role)))
      continue
    const rows = inside.filter((e) => e.role === 'row')
    if (rows.length < 2) continue
    const named = rows.map((r) => r.children.filter((c) => c.role === 'cell' && c.name.trim() !== ''))
    if (named.some((cells) => cells.length !== 1)) continue
    out.push(...named.map((cells) => cells[0]!))
  }
  return out
}

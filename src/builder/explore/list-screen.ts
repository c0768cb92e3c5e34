// Explore, for a list task that brings no values ("List my blog's published posts"): the screen
// to read is one that shows rows (a table, grid, list or feed) and is named by the task's object
// words, in its title, its headings, its columns' headers or the links that led to it
// ("Posts" → "Published (2)"). Nothing is filled and nothing is sent on the way.
import { indexTree } from '../../automation/element-tree.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { stems } from '../words.ts'

const COLLECTIONS = new Set(['table', 'grid', 'treegrid', 'list', 'listbox', 'feed'])
const ROWS = new Set(['row', 'listitem', 'option', 'article'])
const NAMES = new Set(['heading', 'columnheader'])

/** A list task: it reads (or names no action) and brings no values to fill in. */
export function listsWithoutValues(reading: PromptReading, valueCount: number, find?: string): boolean {
  return valueCount === 0 && (reading.verb === undefined || reading.verb === find)
}

/**
 * 0…1: the share of the task's object words that name this screen's rows, 0 when it shows none.
 * `path` is the names of the controls pressed to get here.
 */
export function listFitness(screen: Snapshot, path: string[], reading: PromptReading): number {
  const wanted = reading.object.filter((w) => w.length > 1)
  const all = indexTree(screen.root).all
  if (wanted.length === 0 || !all.some(showsRows)) return 0
  const names = [screen.window.title, ...path, ...all.filter((e) => NAMES.has(e.role)).map((e) => e.name)]
  const have = new Set(stems(names.join(' ')))
  return wanted.filter((w) => have.has(w)).length / wanted.length
}

/** A collection with at least two rows of its own (a table's header row counts as one). */
function showsRows(e: UiElement): boolean {
  if (!COLLECTIONS.has(e.role)) return false
  let rows = 0
  const stack = [...e.children]
  while (stack.length && rows < 2) {
    const next = stack.pop()!
    if (ROWS.has(next.role)) rows++
    else if (!COLLECTIONS.has(next.role)) stack.push(...next.children)
  }
  return rows >= 2
}

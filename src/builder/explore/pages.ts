// Forms that span screens: a wizard's pages (Next / Continue) or tabs of one form. Each page takes
// the values that clearly belong on it; what is left waits for the next page, reached with the
// page's own "Next"; the last page (no Next) gets the rest, with questions for anything unsure.
import type { Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { readPrompt } from '../locate/prompt.ts'
import { assignFields } from '../map/field-scores.ts'
import { openInlineEditors } from '../map/inline-editors.ts'
import { type FieldStep, mapFields } from '../map/map-fields.ts'
import { performStep } from '../observe/observe.ts'
import { readControls } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import type { BuildSession } from '../session.ts'
import { actionOf, stems } from '../words.ts'
import { isSearchBox } from './explore-moves.ts'

const MAX_PAGES = 5
const NEXT = new Set(stems('next continue forward proceed'))
/** A pager's "Next page", and the submit's variants: "Save and insert next", "Save and continue edit". */
const NOT_NEXT = new Set(stems('page result previous back save insert submit send'))

export interface FilledPages {
  /** The fills and the Next clicks, in order: the steps a run repeats. */
  steps: Step[]
  /** Every field step, on whichever page. */
  fields: FieldStep[]
  /** The fields of the last page (where the submit is). */
  lastFields: FieldStep[]
  /** The last page, filled in. */
  screen: Snapshot
}

/** A button named like a wizard's way on ("Next", "Continue"), not a pager's nor a submit variant's. */
export function isNextName(name: string): boolean {
  const words = stems(name)
  return words.some((w) => NEXT.has(w)) && !words.some((w) => NOT_NEXT.has(w))
}

/** A wizard's "Next" button on this screen (never a pager's "Next page" link). */
export function nextButton(root: UiElement): UiElement | undefined {
  const found: UiElement[] = []
  const visit = (e: UiElement) => {
    if (e.role === 'button' && !e.states.includes('disabled')) {
      if (isNextName(e.name)) found.push(e)
    }
    e.children.forEach(visit)
  }
  visit(root)
  return found.length === 1 ? found[0] : undefined
}

export async function fillPages(
  session: BuildSession,
  first: Snapshot,
  leaves: InputLeaf[],
): Promise<FilledPages> {
  let screen = first
  let remaining = leaves.filter((l) => l.source !== 'header')
  const headers = leaves.filter((l) => l.source === 'header')
  const steps: Step[] = []
  const fields: FieldStep[] = []
  for (let page = 1; ; page++) {
    const next = page < MAX_PAGES ? nextButton(screen.root) : undefined
    let here: FieldStep[]
    if (next && remaining.length > 0) {
      // Not the last page: only what surely belongs here; the rest may be on a later page.
      const { assigned } = assignFields(remaining, readControls(screen.root))
      const sure = new Set(assigned.map((a) => a.leaf))
      here = sure.size
        ? await mapFields(
            session,
            screen.root,
            remaining.filter((l) => sure.has(l)),
            notForValues(session, screen.root, leaves),
          )
        : []
    } else {
      // A value with no field may belong in an editor that opens when its line is pressed.
      const opened = await openInlineEditors(session, screen, remaining)
      screen = opened.screen
      steps.push(...opened.steps)
      here = await mapFields(
        session,
        screen.root,
        [...remaining, ...headers],
        notForValues(session, screen.root, leaves),
      )
    }
    for (const field of here) await performStep(session, field.step, session.request.sample.input)
    steps.push(...here.map((f) => f.step))
    fields.push(...here)
    const fed = new Set(here.flatMap((f) => (f.leaf ? [f.leaf] : [])))
    remaining = remaining.filter((l) => !fed.has(l))
    if (!next || remaining.length === 0) return { steps, fields, lastFields: here, screen }
    const click: Step = {
      kind: 'click',
      name: `Click “${next.name}”`,
      target: designSelector(screen.root, next, `the “${next.name}” button`),
    }
    session.progress(
      'map',
      `Page ${page} took ${here.length} value(s); ${remaining.map((l) => `“${l.path}”`).join(', ')} wait for the next page (“${next.name}”)`,
    )
    await performStep(session, click, session.request.sample.input)
    const before = screen.root
    screen = await session.settle(before)
    steps.push(click)
  }
}

/**
 * Controls that never take a record's values: a search box, unless the task is a search or
 * looks a record up by its one key (a wiki's "Search" box is no place for the text of the page
 * being written; it is the place for the subject of the message to open).
 */
function notForValues(session: BuildSession, root: UiElement, leaves: InputLeaf[]): UiElement[] {
  if (readPrompt(session.request.prompt).verb === actionOf('find') || leaves.some((l) => l.query)) return []
  return readControls(root)
    .map((c) => c.element)
    .filter(isSearchBox)
}

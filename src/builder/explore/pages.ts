// Forms that span screens: a wizard's pages (Next / Continue) or tabs of one form. Each page takes
// the values that clearly belong on it; what is left waits for the next page, reached with the
// page's own "Next"; the last page (no Next) gets the rest, with questions for anything unsure.
import type { Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { readPrompt } from '../locate/prompt.ts'
import { assignFields } from '../map/field-scores.ts'
import { invitations, openInlineEditors } from '../map/inline-editors.ts'
import { type FieldStep, mapFields, NAMED_LIKE } from '../map/map-fields.ts'
import { performStep } from '../observe/observe.ts'
import { counterpart } from '../observe/ui-diff.ts'
import { readControls } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import type { BuildSession } from '../session.ts'
import { actionOf, stems } from '../words.ts'
import { indexOf, isSearchBox } from './explore-moves.ts'

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

/**
 * A wizard's "Next" button on this screen (never a pager's "Next page" link). It follows the
 * page's fields, as a person reads a page: a "Next" above them is a toolbar's, which moves to the
 * next record (and on a changed record asks whether to save it).
 */
export function nextButton(root: UiElement): UiElement | undefined {
  const found: UiElement[] = []
  const order: UiElement[] = []
  const visit = (e: UiElement) => {
    order.push(e)
    if (e.role === 'button' && !e.states.includes('disabled')) {
      if (isNextName(e.name)) found.push(e)
    }
    e.children.forEach(visit)
  }
  visit(root)
  if (found.length !== 1) return undefined
  const fields = readControls(root).map((c) => order.indexOf(c.element))
  return fields.length && order.indexOf(found[0]!) < Math.max(...fields) ? undefined : found[0]
}

export async function fillPages(
  session: BuildSession,
  first: Snapshot,
  leaves: InputLeaf[],
  /** Values the way to the form already used (the row it was opened from): never asked about. */
  used: readonly InputLeaf[] = [],
): Promise<FilledPages> {
  const mapHere: typeof mapFields = (s, root, ls, taken, options = {}) =>
    mapFields(s, root, ls, taken, { ...options, used })
  let screen = first
  let remaining = leaves.filter((l) => l.source !== 'header')
  const headers = leaves.filter((l) => l.source === 'header')
  const steps: Step[] = []
  const fields: FieldStep[] = []
  for (let page = 1; ; page++) {
    const next = page < MAX_PAGES ? nextButton(screen.root) : undefined
    let here: FieldStep[]
    // Values no field of the shown tab can take: sought on the form's other tabs before anything
    // is asked about them (the last page only).
    let elsewhere: InputLeaf[] = []
    if (next && remaining.length > 0) {
      // Not the last page: only what surely belongs here; the rest may be on a later page.
      const { assigned } = assignFields(remaining, readControls(screen.root))
      const sure = new Set(assigned.map((a) => a.leaf))
      here = sure.size
        ? await mapHere(
            session,
            screen.root,
            remaining.filter((l) => sure.has(l)),
            notForValues(session, screen.root, leaves),
          )
        : []
    } else {
      // What surely goes on this screen is filled first when an editor is still to be opened, as
      // a person fills what is in view: pressing the editor's line may turn a side panel away
      // from fields already shown (a post's tags beside the editor).
      const filledEarly: UiElement[] = []
      const placed = namedHere(screen.root, remaining)
      if (placed.size > 0 && placed.size < remaining.length && invitations(screen.root).length > 0) {
        const early = await mapHere(
          session,
          screen.root,
          remaining.filter((l) => placed.has(l)),
          notForValues(session, screen.root, leaves),
          { askRequired: false },
        )
        for (const field of early) await performStep(session, field.step, session.request.sample.input)
        steps.push(...early.map((f) => f.step))
        fields.push(...early)
        filledEarly.push(...early.map((f) => f.control.element))
        const fedEarly = new Set(early.flatMap((f) => (f.leaf ? [f.leaf] : [])))
        remaining = remaining.filter((l) => !fedEarly.has(l))
        screen = await session.settle(screen.root)
      }
      // A value with no field may belong in an editor that opens when its line is pressed.
      const opened = await openInlineEditors(session, screen, remaining)
      screen = opened.screen
      steps.push(...opened.steps)
      // Values no field here can take wait for the form's other tabs before anything is asked.
      elsewhere = otherTabsOf(screen.root).length
        ? homeless(
            screen.root,
            remaining.filter((l) => !used.includes(l)),
          )
        : []
      here = await mapHere(
        session,
        screen.root,
        [...remaining.filter((l) => !elsewhere.includes(l)), ...headers],
        [
          ...notForValues(session, screen.root, leaves),
          // The fields filled before the editor opened are taken.
          ...filledEarly.flatMap((e) => counterpart(screen.root, e) ?? []),
        ],
        { editors: opened.editors },
      )
    }
    for (const field of here) await performStep(session, field.step, session.request.sample.input)
    steps.push(...here.map((f) => f.step))
    fields.push(...here)
    const fed = new Set(here.flatMap((f) => (f.leaf ? [f.leaf] : [])))
    remaining = remaining.filter((l) => !fed.has(l))
    // Only the values held back are sought on other tabs: one already asked about (and perhaps
    // left out as answered), or used on the way to the form, is not.
    if (!next && elsewhere.length > 0) {
      const tabbed = await otherTabs(session, screen, elsewhere, leaves, mapHere)
      screen = tabbed.screen
      // What no tab took is asked about (or left out) on the screen the job ends on, beside
      // the fields already filled there.
      const filled = [...here, ...tabbed.fields].flatMap(
        (f) => counterpart(screen.root, f.control.element) ?? [],
      )
      const rest = await mapHere(session, screen.root, tabbed.left, [
        ...notForValues(session, screen.root, leaves),
        ...filled,
      ])
      for (const field of rest) await performStep(session, field.step, session.request.sample.input)
      steps.push(...tabbed.steps, ...rest.map((f) => f.step))
      fields.push(...tabbed.fields, ...rest)
      // The submit is sought beside the fields of the tab the form is left on.
      if (tabbed.fields.length + rest.length > 0) here = [...tabbed.fields, ...rest]
    }
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
 * Values a field of the screen is named for: surely placed, or with a field named like them to
 * ask about ("tags" and "Add New Tag"). A value no field is named for may be the editor's.
 */
function namedHere(root: UiElement, leaves: InputLeaf[]): Set<InputLeaf> {
  const { assigned, unsure } = assignFields(leaves, readControls(root))
  return new Set([
    ...assigned.map((a) => a.leaf),
    ...unsure.filter((u) => (u.candidates[0]?.score ?? 0) >= NAMED_LIKE).map((u) => u.leaf),
  ])
}

/** The tabs of the screen not chosen now (each may hold fields of the same form). */
function otherTabsOf(root: UiElement): UiElement[] {
  return indexOf(root).all.filter(
    (e) =>
      e.role === 'tab' &&
      e.name.trim() !== '' &&
      !e.states.includes('disabled') &&
      !e.states.includes('selected'),
  )
}

/** Values no control of the screen could take at all, not even as a guess. */
function homeless(root: UiElement, leaves: InputLeaf[]): InputLeaf[] {
  const { assigned, unsure } = assignFields(leaves, readControls(root))
  const placed = new Set([
    ...assigned.map((a) => a.leaf),
    ...unsure.filter((u) => u.candidates.length > 0).map((u) => u.leaf),
  ])
  return leaves.filter((l) => l.source !== 'header' && !placed.has(l))
}

/**
 * Values no field of the shown tab could take, looked for on the form's other tabs in turn (a
 * record's department on its "Work" tab while "Personal" shows): each tab whose fields surely
 * take some of them is chosen and they are filled there; a tab that holds none is left again for
 * the one that was chosen before (docs/builder.md, "Forms as people use them").
 */
async function otherTabs(
  session: BuildSession,
  first: Snapshot,
  wanted: readonly InputLeaf[],
  leaves: InputLeaf[],
  mapHere: typeof mapFields,
): Promise<{ steps: Step[]; fields: FieldStep[]; screen: Snapshot; left: InputLeaf[] }> {
  const steps: Step[] = []
  const fields: FieldStep[] = []
  let left = [...wanted]
  let screen = first
  const click = (e: UiElement, root: UiElement): Step => ({
    kind: 'click',
    name: `Click the “${e.name}” tab`,
    target: designSelector(root, e, `the “${e.name}” tab`),
  })
  for (const name of [...new Set(otherTabsOf(first.root).map((t) => t.name))]) {
    if (left.length === 0) break
    // The tab as the screen shows it now (each click redraws the tab list).
    const tab = otherTabsOf(screen.root).find((t) => t.name === name)
    if (!tab) continue
    const chosen = indexOf(screen.root).all.find((e) => e.role === 'tab' && e.states.includes('selected'))
    const open = click(tab, screen.root)
    try {
      await performStep(session, open, session.request.sample.input)
    } catch {
      continue
    }
    const after = await session.settle(screen.root)
    const sure = new Set(assignFields(left, readControls(after.root)).assigned.map((a) => a.leaf))
    if (sure.size === 0) {
      // Nothing of the sample's here: back to the tab that was chosen, as the job leaves it; a
      // tab that cannot be chosen again keeps this one, and the job clicks it too.
      const back = chosen && counterpart(after.root, chosen)
      const returned =
        back &&
        (await performStep(session, click(back, after.root), session.request.sample.input).then(
          () => true,
          () => false,
        ))
      if (!returned) steps.push(open)
      screen = returned ? await session.settle(after.root) : after
      continue
    }
    const here = await mapHere(
      session,
      after.root,
      left.filter((l) => sure.has(l)),
      notForValues(session, after.root, leaves),
    )
    for (const field of here) await performStep(session, field.step, session.request.sample.input)
    session.progress(
      'map',
      `The “${tab.name}” tab took ${here.map((f) => `“${f.leaf?.path ?? f.step.name}”`).join(', ')}`,
    )
    steps.push(open, ...here.map((f) => f.step))
    fields.push(...here)
    const fed = new Set(here.flatMap((f) => (f.leaf ? [f.leaf] : [])))
    left = left.filter((l) => !fed.has(l))
    // The screen the fields were mapped on: the submit is sought beside those very elements.
    screen = after
  }
  return { steps, fields, screen, left }
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

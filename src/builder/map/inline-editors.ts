// Editors that open when pressed (docs/builder.md, "Map"). Many apps show a long text's field as a
// line that says to write there ("Type / to choose a block", "Add a description…", "Click to
// edit", "Start writing…"): a person presses it and the editor opens in its place. When a value of
// the sample has no field surely its own, such a line on the form is pressed (it sends nothing and
// leads nowhere), and the click becomes a step of the job when a field opened.
import type { Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { indexOf, refusal } from '../explore/explore-moves.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { performStep } from '../observe/observe.ts'
import { appeared } from '../observe/ui-diff.ts'
import { readControls } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import type { BuildSession } from '../session.ts'
import { assignFields } from './field-scores.ts'

/** Text that tells a person to write here: the placeholder of an editor not open yet. */
const INVITES_WRITING =
  /^(type\b|write\b|start (writing|typing)\b|click (here )?to (add|write|edit|type)\b|add an? (description|comment|note|message|body|text)\b|tap to (add|write|edit)\b)/i
const PRESSABLE = new Set(['button', 'generic', 'text'])

/**
 * Values of the sample no field on the screen surely takes. One that could only be guessed into
 * another field (a post's text into the tag box beside the editor) still looks for its own
 * editor: pressing a line that invites writing sends nothing, and the guess is asked about after.
 */
export function unplacedValues(root: UiElement, leaves: InputLeaf[]): InputLeaf[] {
  const placed = new Set(assignFields(leaves, readControls(root)).assigned.map((a) => a.leaf))
  return leaves.filter((l) => l.source !== 'header' && !placed.has(l))
}

/**
 * Presses each line on the screen that invites writing while a value has nowhere to go; returns
 * the screen after, and the clicks that opened a field (to be replayed by every run).
 */
export async function openInlineEditors(
  session: BuildSession,
  screen: Snapshot,
  leaves: InputLeaf[],
): Promise<{ screen: Snapshot; steps: Step[]; editors: UiElement[] }> {
  const steps: Step[] = []
  const tried = new Set<string>()
  const start = screen
  for (let round = 0; round < 3; round++) {
    if (unplacedValues(screen.root, leaves).length === 0) break
    const placeholder = invitations(screen.root).find((e) => !tried.has(textOf(e)))
    if (!placeholder) break
    const text = textOf(placeholder)
    tried.add(text)
    const before = readControls(screen.root).length
    const step: Step = {
      kind: 'click',
      name: `Click “${text}” (opens its editor)`,
      target: designSelector(screen.root, placeholder, `the “${text}” line`),
    }
    await performStep(session, step, session.request.sample.input)
    const after = await session.settle(screen.root)
    // A new field, even when another went (a side panel that turned to the new block's settings).
    const fresh = new Set(appeared(screen.root, after.root))
    const controls = readControls(after.root)
    const opened = controls.length > before || controls.some((c) => fresh.has(c.element))
    session.progress(
      'map',
      opened
        ? `“${text}” opened an editor; the values with no field may go there`
        : `“${text}” invites writing, but pressing it opened no field`,
      { placeholder: text, opened },
    )
    if (opened) steps.push(step)
    screen = after
  }
  // The text boxes that opened: where a person writes the value that had no field (map-fields.ts).
  const fresh = new Set(steps.length ? appeared(start.root, screen.root) : [])
  const editors = readControls(screen.root)
    .filter((c) => c.kind === 'text' && fresh.has(c.element))
    .map((c) => c.element)
  return { screen, steps, editors }
}

/** The lines of the screen that invite writing and that exploring's rules allow pressing. */
export function invitations(root: UiElement): UiElement[] {
  const index = indexOf(root)
  return index.all.filter(
    (e) =>
      PRESSABLE.has(e.role) &&
      INVITES_WRITING.test(textOf(e)) &&
      e.bounds !== undefined &&
      !e.states.includes('disabled') &&
      // A line inside a pressable one is pressed through it.
      !(
        e.role === 'text' &&
        PRESSABLE.has(index.parent.get(e)?.role ?? '') &&
        index.parent.get(e)?.role !== 'generic'
      ) &&
      // It sends nothing, so an empty form is no reason to leave it; leaving the session is.
      [undefined, 'empty form'].includes(refusal(index, e, undefined)),
  )
}

/** What the line says: its own text (an "Add default block" button showing "Type / to choose…"). */
function textOf(e: UiElement): string {
  const own = e.children.filter((c) => c.role === 'text').map((c) => c.name.trim())
  const shown = own.join(' ').trim()
  return shown && INVITES_WRITING.test(shown) ? shown : e.name.trim()
}

// How exploring moves through the app: a path of moves replayed from a fresh launch (as a run
// replays it after its launch step), and the path written as the click steps a run performs.
import { resolveSelector } from '../../automation/index.ts'
import type { AppSpec, Selector, Step } from '../../protocol/automation.ts'
import type { Snapshot } from '../../protocol/elements.ts'
import { performStep } from '../observe/observe.ts'
import type { BuildSession } from '../session.ts'
import { replaySignIn } from '../sign-in/sign-in.ts'

export interface Move {
  selector: Selector
  label: string
  /** Shows the next page of a paged list (not counted as depth; folded into the next move). */
  pager?: boolean
  /** Opens a menu of the menu bar, on the way to one of its items (not counted as depth). */
  opensMenu?: boolean
  /**
   * Unfolds a folded section of the form (a collapsed "Tags" panel): the section's first field.
   * The click is made only while that field is hidden, since an app may keep a section open from
   * one visit to the next and a second click would fold it again (docs/builder.md, "Forms as
   * people use them").
   */
  unfolds?: Selector
}

/** Resets the app (launch), signs in if asked, and replays the moves, waiting for each screen to settle. */
export async function goTo(
  session: BuildSession,
  app: AppSpec,
  prelude: Step[],
  path: Move[],
  start: Step[],
): Promise<Snapshot> {
  await session.launch(app)
  let snapshot = prelude.length ? await replaySignIn(session, prelude) : await session.snapshot()
  if (start.length) snapshot = await walk(session, start, snapshot)
  for (const move of path) {
    if (move.unfolds && resolveSelector(snapshot.root, move.unfolds).status !== 'not-found') continue
    await session.act(move.selector, { kind: 'click' }, session.scope(session.request.sample.input))
    snapshot = await session.settle(snapshot.root)
  }
  return snapshot
}

/** Performs steps with the sample's values, each waited out: the way to where exploring starts. */
export async function walk(session: BuildSession, steps: Step[], from?: Snapshot): Promise<Snapshot> {
  let snapshot = from ?? (await session.snapshot())
  const scope = session.scope(session.request.sample.input)
  for (const step of steps) {
    await performStep(session, step, scope)
    snapshot = await session.settle(snapshot.root)
  }
  return snapshot
}

export const inOwnRow = (m: Move) => m.selector.fingerprints.some((f) => f.by === 'inRow')

export function sameMoves(a: Move[], b: Move[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i])
}

/** How deep a path goes: turning a list's pages or opening a menu is not a step deeper into the app. */
export function depth(path: Move[]): number {
  return path.filter((m) => !m.pager && !m.opensMenu).length
}

/**
 * The moves as click steps. Next-page clicks before a move in the sample's own row become that
 * click's `pageWith`: a run turns pages until its own record's row shows, however far it is.
 */
export function foldPages(path: Move[]): Step[] {
  const steps: Step[] = []
  const click = (m: Move): Step =>
    m.unfolds
      ? {
          kind: 'click',
          name: `Unfold the “${m.label}” section`,
          target: m.selector,
          onlyIf: { kind: 'disappears', target: m.unfolds },
        }
      : {
          kind: 'click',
          name: m.opensMenu ? `Open the “${m.label}” menu` : `Click “${m.label}”`,
          target: m.selector,
        }
  let pagers: Move[] = []
  for (const m of path) {
    if (m.pager) {
      pagers.push(m)
      continue
    }
    const inRow = m.selector.fingerprints.some((f) => f.by === 'inRow')
    const pager = pagers.at(-1)
    if (pager && inRow) steps.push({ ...click(m), pageWith: pager.selector } as Step)
    else steps.push(...pagers.map(click), click(m))
    pagers = []
  }
  return steps
}

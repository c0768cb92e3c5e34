// A new or changed record named by the caller ("page": "release_checklist") whose form the app
// opens by address (`doku.php?id=<page>&do=edit`): open it there, fill in the rest.
import type { AppSpec } from '../../protocol/automation.ts'
import type { Snapshot } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { assignFields } from '../map/field-scores.ts'
import { readControls } from '../screen.ts'
import type { BuildSession } from '../session.ts'
import { type Explored, explore, NoFormFound } from './explore.ts'
import { isSearchBox } from './explore-moves.ts'
import { findUrlRoute, namesARecord, shapeOf, urlPatterns } from './url-route.ts'

/** A form found from a record's page must take this share of the other values (explore's GOOD). */
const FORM_FITS = 0.75

/**
 * The one value naming a record that no field on the explored screen surely takes, put into an
 * address the app's links show, when that address opens a form for the other values. Leaves
 * the app on that form; when no address does, explores again to get back to the screen found.
 */
export async function formByAddress(
  session: BuildSession,
  app: AppSpec,
  explored: Explored,
  leaves: InputLeaf[],
  reading: PromptReading,
  /** Explore again when no address helps, to leave the app on the screen explored (else undefined). */
  backToExplored = true,
): Promise<{ explored: Explored; rest: InputLeaf[] } | undefined> {
  const controls = (s: Snapshot) => readControls(s.root).filter((c) => !isSearchBox(c.element))
  const values = leaves.filter((l) => l.source !== 'header')
  const { unsure } = assignFields(values, controls(explored.snapshot))
  const named = unsure
    .map((u) => u.leaf)
    .filter((l) => namesARecord(l) && shapeOf(String(l.value)) !== undefined)
  if (named.length !== 1) return undefined
  const leaf = named[0]!
  const rest = leaves.filter((l) => l !== leaf)
  const screens = [...explored.seen, explored.snapshot]
  if (urlPatterns(screens, [leaf], app.url ?? '').length === 0) return undefined
  const route = await findUrlRoute(session, app, screens, [leaf], explored.prelude, false, {
    rest: rest.filter((l) => l.source !== 'header'),
    controlsOf: controls,
  })
  if (!route) {
    // The record opens by its address but shows no form: its form is a move away ("Edit").
    const record = await findUrlRoute(session, app, screens, [leaf], explored.prelude)
    const fromRecord = record
      ? await explore(session, app, rest, reading, [record.step]).catch((error) => {
          if (error instanceof NoFormFound) return undefined
          throw error
        })
      : undefined
    if (fromRecord && fromRecord.fitness >= FORM_FITS) {
      session.progress('explore', `The record opened by its address leads to a form for the other values`)
      return { explored: fromRecord, rest }
    }
    return backToExplored
      ? { explored: await explore(session, app, leaves, reading), rest: leaves }
      : undefined
  }
  return {
    rest,
    explored: {
      navigation: [...route.prelude, route.step],
      snapshot: route.after,
      fitness: 1,
      seen: explored.seen,
      prelude: explored.prelude,
    },
  }
}

// The explore stage of a first build: the way to the screen that takes the sample. Exploring
// finds a form (explore.ts); a lookup may rather open its record, or the app's filter, by
// address (url-route.ts, filter-route.ts); a record named by the caller may open its form by
// address (form-by-address.ts). Lost for good, the pipeline asks to be shown.
import type { AppSpec } from '../../protocol/automation.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { lookingUp } from '../locate/read-task.ts'
import type { BuildSession } from '../session.ts'
import { type Explored, explore, NoFormFound } from './explore.ts'
import { filterPatterns, findFilterRoute } from './filter-route.ts'
import { formByAddress } from './form-by-address.ts'
import { findUrlRoute, shapeOf, type UrlRoute, urlPatterns } from './url-route.ts'

export interface Way {
  /** The screen explored to (undefined when an address is the way). */
  explored?: Explored
  /** The address that opens what the task reads (a lookup's record, a filter's results). */
  route?: UrlRoute
  /** The values the form takes (all of them, or those an address did not take). */
  fillLeaves: InputLeaf[]
}

/** No screen takes the sample and no address helps. */
export interface Lost {
  lost: NoFormFound
}

interface Found {
  explored?: Explored
  route?: UrlRoute
  /** Set when the form was found by address: the values it still needs. */
  rest?: InputLeaf[]
}

export async function findTheWay(
  session: BuildSession,
  app: AppSpec,
  leaves: InputLeaf[],
  reading: PromptReading,
): Promise<Way | Lost> {
  const found = await exploreOrAddress(session, app, leaves, reading)
  if ('lost' in found) return found
  await preferFilterRoute(session, app, leaves, reading, found)
  await preferRecordAddress(session, app, leaves, reading, found)
  const fillLeaves = await preferFormByAddress(session, app, leaves, reading, found)
  return { ...found, fillLeaves }
}

/** Explores; when no form is found, a lookup opens its record by address, a change its form. */
async function exploreOrAddress(
  session: BuildSession,
  app: AppSpec,
  leaves: InputLeaf[],
  reading: PromptReading,
): Promise<Found | Lost> {
  try {
    return { explored: await explore(session, app, leaves, reading) }
  } catch (error) {
    // A record opened by its address is for reading or changing it; a new one needs a form.
    if (!(error instanceof NoFormFound)) throw error
    if (lookingUp(reading)) {
      const route = await findUrlRoute(session, app, error.seen, leaves, error.prelude)
      return route ? { route } : { lost: error }
    }
    // A change to a record no form shows: open the record by its address, find its form there.
    const seen = {
      navigation: [],
      snapshot: error.seen.at(-1)!,
      fitness: 0,
      seen: error.seen,
      prelude: error.prelude,
    }
    const byAddress = await formByAddress(session, app, seen, leaves, reading, false)
    return byAddress ? { explored: byAddress.explored, rest: byAddress.rest } : { lost: error }
  }
}

/**
 * A lookup of the records that have a value opens the app's own filter for it (`?location=…`)
 * rather than a box not named like the key, which may not search that value at all.
 */
async function preferFilterRoute(
  session: BuildSession,
  app: AppSpec,
  leaves: InputLeaf[],
  reading: PromptReading,
  found: Found,
): Promise<void> {
  const { explored } = found
  if (!(explored && explored.fitness < 1 && lookingUp(reading) && app.url)) return
  const screens = [...explored.seen, explored.snapshot]
  if (filterPatterns(screens, leaves, app.url).length === 0) return
  found.route = await findFilterRoute(session, app, screens, leaves, explored.prelude)
  if (found.route) found.explored = undefined
  else found.explored = await explore(session, app, leaves, reading)
}

/**
 * A lookup whose record the app links to by the very value given (/notes/1001) opens it by
 * address rather than guessing which box of a not-quite-fitting screen the id goes into.
 */
async function preferRecordAddress(
  session: BuildSession,
  app: AppSpec,
  leaves: InputLeaf[],
  reading: PromptReading,
  found: Found,
): Promise<void> {
  const { explored } = found
  if (!(explored && explored.fitness < 1 && lookingUp(reading))) return
  const ids = leaves.filter((l) => idShaped(l.value))
  if (ids.length > 0 && urlPatterns(explored.seen, ids, app.url ?? '').some((p) => p.direct))
    found.route = await findUrlRoute(session, app, explored.seen, ids, explored.prelude, true)
  if (found.route) found.explored = undefined
  // The tries left the app elsewhere: get back to the explored screen the way a run would.
  else if (ids.length > 0) found.explored = await explore(session, app, leaves, reading)
}

/**
 * A new or changed record named by the caller ("page": "release_checklist") whose form the
 * app opens by address (`doku.php?id=<page>&do=edit`): open it there, fill in the rest.
 * Returns the values the form is to take.
 */
async function preferFormByAddress(
  session: BuildSession,
  app: AppSpec,
  leaves: InputLeaf[],
  reading: PromptReading,
  found: Found,
): Promise<InputLeaf[]> {
  const { explored, rest } = found
  if (rest) return rest
  if (!(explored && explored.fitness < 1 && !lookingUp(reading))) return leaves
  const byAddress = await formByAddress(session, app, explored, leaves, reading)
  if (!byAddress) return leaves
  found.explored = byAddress.explored
  return byAddress.rest
}

function idShaped(value: unknown): boolean {
  const shape = typeof value === 'string' || typeof value === 'number' ? shapeOf(String(value)) : undefined
  return shape === 'digits' || shape === 'hex' || shape === 'code'
}

// Step 2 of a build: get to the screen that takes the sample's values. Best-first over the
// buttons, links, menu items and tabs whose names share words with the task ("New customer" for
// "Create a customer"), a few levels deep; every try starts from a freshly launched app, so the
// path that worked is exactly the navigation a run will replay after its launch step.
// What may be tried from a screen is explore-frontier.ts; how a path is replayed, explore-walk.ts.

import type { AppSpec, Step } from '../../protocol/automation.ts'
import type { Snapshot } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { screenFitness } from '../map/field-scores.ts'
import { readControls } from '../screen.ts'
import { BuildFailure, type BuildSession, canBeShown, unreachable } from '../session.ts'
import { signIn } from '../sign-in/sign-in.ts'
import { sendsOnlyElsewhere } from '../submit/submit.ts'
import { actionOf } from '../words.ts'
import { blindArea } from './blind-area.ts'
import { Frontier } from './explore-frontier.ts'
import { peekMenus } from './explore-menus.ts'
import { aboutObject, isSearchBox, moveScore } from './explore-moves.ts'
import { depth, foldPages, goTo, inOwnRow, type Move, sameMoves, walk } from './explore-walk.ts'
import { keyRowStep } from './key-row.ts'
import { listFitness, listsWithoutValues } from './list-screen.ts'

export type { Move } from './explore-walk.ts'

/** A screen this good takes the sample as it is. */
const GOOD = 0.75
/** Below this no screen is worth filling. */
const USABLE = 0.3
/** A lookup's value fitting only a search box on a screen not about the task's object. */
const QUERY_ELSEWHERE = 0.7
const MAX_TRIES = 8
const MAX_DEPTH = 3
/**
 * How long exploring goes on before a person who can show the way is asked instead: on a slow
 * app eight fresh tries can take minutes, longer than anyone waits for a question.
 */
const ASK_AFTER_MS = 60_000

export interface Explored {
  navigation: Step[]
  snapshot: Snapshot
  fitness: number
  /** Every screen seen on the way (their links may show records' addresses). */
  seen: Snapshot[]
  /** The sign-in steps every visit starts with (empty when the app asks for none). */
  prelude: Step[]
  /** A task with nothing to fill whose action sits in its record's row ("Remove"): its step. */
  rowAction?: { step: Step; label: string }
  /** A list task with no values: the last move to its list, the job's one action (nothing is sent). */
  readStep?: { step: Step; label: string }
}

/** No screen takes the sample; the screens seen on the way may still show addresses of records. */
export class NoFormFound extends BuildFailure {
  constructor(
    message: string,
    readonly seen: Snapshot[],
    /** The sign-in steps every visit starts with (empty when the app asks for none). */
    readonly prelude: Step[] = [],
  ) {
    super('NO_FORM_FOUND', message)
  }
}

const FIND = actionOf('find')

/** One exploration: where every try starts from and what it has seen. */
interface Trip {
  session: BuildSession
  app: AppSpec
  leaves: InputLeaf[]
  /** The sign-in steps every try starts with. */
  prelude: Step[]
  /** Steps to where exploring starts (a record opened by its address). */
  start: Step[]
  home: Snapshot
  seen: Snapshot[]
  /** How promising a control's name is for the task (explore-moves.ts). */
  promise: (name: string) => number
  /** When exploring began (performance.now()). */
  startedAt: number
}

/** How well a screen reached by a path fits the task, and how that is told. */
interface Judge {
  listing: boolean
  good: number
  fit: (s: Snapshot, path: Move[]) => number
  tell: (what: string, fit: number) => string
}

interface Best {
  path: Move[]
  snapshot: Snapshot
  fitness: number
}

export async function explore(
  session: BuildSession,
  app: AppSpec,
  leaves: InputLeaf[],
  reading: PromptReading,
  /** Steps that lead to where exploring starts (a record opened by its address), after any sign-in. */
  start: Step[] = [],
): Promise<Explored> {
  await session.launch(app)
  const first = await session.settle()
  // A sign-in screen in front of the app: sign in (steps that run only when it shows), then explore.
  const signedIn = await signIn(session, first)
  const prelude = signedIn?.steps ?? []
  let home = start.length ? await walk(session, start) : (signedIn?.screen ?? first)
  // A change to "the record with this title": its row is picked first (key-row.ts).
  const keyed = keyRowStep(home.root, leaves, reading)
  if (keyed) {
    start = [...start, keyed.step]
    home = await walk(session, [keyed.step], home)
    session.progress(
      'explore',
      `The task acts on the record whose ${keyed.key.path} is “${String(keyed.key.value)}”: its row is picked first, so nothing else is edited`,
    )
  }
  const promise = (name: string) => moveScore(reading, name)
  const trip: Trip = {
    session,
    app,
    leaves,
    prelude,
    start,
    home,
    seen: [home],
    promise,
    startedAt: performance.now(),
  }
  const judge = screenJudge(leaves, reading)
  const best: Best = { path: [], snapshot: home, fitness: judge.fit(home, []) }
  session.progress('explore', judge.tell(`The first screen (“${home.window.title}”)`, best.fitness), {
    fitness: round(best.fitness),
  })
  // A web page shows everything it draws to the accessibility tree (an empty area there is empty);
  // a desktop toolkit's window may draw a part itself (a grid, a canvas).
  const blind = best.fitness < judge.good && home.window.kind === 'window' ? blindArea(home.root) : undefined
  if (blind) {
    // Exploring around a part nothing can be read of would take minutes and find nothing there.
    const where = `${blind.width}×${blind.height} px at (${blind.x}, ${blind.y})`
    session.progress(
      'explore',
      `Most of “${home.window.title}” (${where}) shows nothing to the accessibility interface: what is drawn there cannot be read or explored`,
      { blind },
    )
    throw new NoFormFound(
      `Most of “${home.window.title}” (${where}) shows nothing to the accessibility interface (a grid or canvas the app draws itself), so the builder cannot read or explore it. Show how the task is done ("demonstrate": true) with the controls around it (a name or address box, the menus, keys and typing): a click on that area itself is not replayed at its place.`,
      [home],
      prelude,
    )
  }
  if (best.fitness >= judge.good)
    return {
      navigation: [...prelude, ...start],
      snapshot: home,
      fitness: best.fitness,
      seen: trip.seen,
      prelude,
    }

  const frontier = new Frontier(reading, app, leaves)
  frontier.add(home, [], new Set(), await peekMenus(session, home, new Set(), trip.promise, app.url))
  frontier.sort()
  tellCandidates(session, frontier)
  const { chosen, current } = await tryBestFirst(trip, frontier, judge, best)
  if (chosen.fitness < USABLE && frontier.rowAction) return rowActionWay(trip, frontier, current)
  if (chosen.fitness < USABLE) throw noFormFound(trip)
  if (judge.listing && chosen.path.length > 0) return listWay(trip, chosen)
  return chosenWay(trip, chosen, current)
}

/**
 * A screen's fitness: how many of the sample's values its controls take (a search box only for a
 * lookup), or for a list task with no values, how many of the task's words name its rows.
 */
function screenJudge(leaves: InputLeaf[], reading: PromptReading): Judge {
  // A search box never takes the values of a record being created or changed: for such a task it
  // does not make a screen fit (the home page's search would otherwise pass for the form). A
  // lookup's one key ("open the message with the given subject") is what a search box is for.
  const searching = reading.verb === FIND || leaves.some((l) => l.query)
  const fitness = (s: Snapshot) => {
    const fit = screenFitness(
      leaves,
      // A form whose sends all do something else (a quick-draft box's "Save Draft" for a lookup,
      // or for a task that publishes) is not the task's form, however well its fields fit.
      readControls(s.root).filter(
        (c) => (searching || !isSearchBox(c.element)) && !sendsOnlyElsewhere(s.root, c.element, reading),
      ),
    )
    // A lookup's value fits any search box; the search of the screen about the task's object
    // ("Select: products") is the one to use, so a site-wide search elsewhere is no reason to stop.
    return leaves.some((l) => l.query) && fit < 1 && !aboutObject(s, reading)
      ? Math.min(fit, QUERY_ELSEWHERE)
      : fit
  }
  // A list task with no values reads rows named by the task's words: only a screen named by all
  // of them ends the search ("Posts" → "Published" for the published posts), nothing is filled.
  const listing = listsWithoutValues(reading, leaves.length, FIND)
  return {
    listing,
    good: listing ? 1 : GOOD,
    fit: (s, path) =>
      listing
        ? listFitness(
            s,
            path.map((m) => m.label),
            reading,
          )
        : fitness(s),
    tell: (what, fit) =>
      listing
        ? `${what} ${fit > 0 ? `shows rows named by ${Math.round(fit * 100)}% of the task’s words` : 'shows no rows named by the task’s words'}`
        : describe(what, fit, leaves.length),
  }
}

function tellCandidates(session: BuildSession, frontier: Frontier): void {
  const { queue, refused } = frontier
  const shown = (c: (typeof queue)[number]) =>
    [...c.path.filter((m) => m.opensMenu), c.move].map((m) => `“${m.label}”`).join(' › ')
  session.progress(
    'explore',
    `It lacks fields for the sample; trying what shares words with the task: ${queue.map(shown).join(', ') || 'nothing'}` +
      (refused.size
        ? `. Not pressed: ${[...refused].map(([name, why]) => `“${name}” (${why})`).join(', ')}`
        : ''),
    { candidates: queue.map((c) => c.move.label), refused: Object.fromEntries(refused) },
  )
}

/** Tries the best candidates until a screen is good enough or the budget is spent. */
async function tryBestFirst(
  trip: Trip,
  frontier: Frontier,
  judge: Judge,
  first: Best,
): Promise<{ chosen: Best; current: Move[] }> {
  const { session, app, prelude, start, leaves, seen } = trip
  let best = first
  let current: Move[] = []
  for (let tries = 0; tries < MAX_TRIES && frontier.queue.length > 0; tries++) {
    if (performance.now() - trip.startedAt > ASK_AFTER_MS && canBeShown(session)) {
      session.progress(
        'explore',
        `Exploring has gone on for over ${ASK_AFTER_MS / 1000} s without a screen that fits; trying no more (${frontier.queue.length} left)`,
      )
      break
    }
    const next = frontier.next()!
    const path = [...next.path, next.move]
    let snapshot: Snapshot
    try {
      snapshot = await goTo(session, app, prelude, path, start)
    } catch (error) {
      // A control that cannot be reached (shown only by something the builder did not do,
      // covered, disabled) is skipped; exploring goes on with the next candidate.
      if (!unreachable(error)) throw error
      session.progress(
        'explore',
        `“${next.move.label}” could not be reached (${(error as Error).message.slice(0, 160)}); skipped`,
      )
      continue
    }
    seen.push(snapshot)
    current = path
    // A lookup's value typed in after going through its own record's row (a search reached from
    // the very record it would find) is circular: a run has the value, not the row.
    const circular = leaves.some((l) => l.query) && path.some((m) => inOwnRow(m))
    const fit = circular ? 0 : judge.fit(snapshot, path)
    const route = path.map((m) => `“${m.label}”`).join(' → ')
    session.progress('explore', judge.tell(`Tried ${route}: the screen`, fit), {
      path: path.map((m) => m.label),
      fitness: round(fit),
    })
    if (fit > best.fitness) best = { path, snapshot, fitness: fit }
    if (fit >= judge.good) break
    if (depth(path) < MAX_DEPTH && !circular)
      frontier.add(
        snapshot,
        path,
        next.known,
        await peekMenus(session, snapshot, next.known, trip.promise, app.url),
      )
  }
  return { chosen: best, current }
}

/** Nothing to fill: the job is the action in its record's row (and whatever it asks next). */
async function rowActionWay(trip: Trip, frontier: Frontier, current: Move[]): Promise<Explored> {
  const { session, app, prelude, start, seen } = trip
  const rowAction = frontier.rowAction!
  const snapshot = sameMoves(current, rowAction.path)
    ? rowAction.snapshot
    : await goTo(session, app, prelude, rowAction.path, start)
  session.progress(
    'explore',
    `The task is “${rowAction.move.label}”, reached by ${rowAction.path.map((m) => `“${m.label}”`).join(' → ') || 'the first screen'}`,
    { path: rowAction.path.map((m) => m.label) },
  )
  const steps = foldPages([...rowAction.path, rowAction.move])
  const action = steps.pop()!
  return {
    navigation: [...prelude, ...start, ...steps],
    snapshot,
    fitness: 0,
    seen,
    prelude,
    rowAction: { step: action, label: rowAction.move.label },
  }
}

function noFormFound({ home, leaves, seen, prelude }: Trip): NoFormFound {
  return new NoFormFound(
    `No screen reachable from “${home.window.title}” has fields for ${leaves.map((l) => `“${l.key}”`).join(', ')} ` +
      `(tried ${seen.length} screen${seen.length === 1 ? '' : 's'}: ${[...new Set(seen.map((s) => `“${s.window.title}”`))].join(', ')}), ` +
      'and no link of the app shows an address that holds one of its values. ' +
      'Name the button or page that opens the form in the prompt (“… with the New ticket button”), or open that screen as the app’s start page.',
    seen,
    prelude,
  )
}

/**
 * The last move to the list is what the job does (nothing to fill, nothing to send): the app
 * is left just before it, and the move is observed as the job's action.
 */
async function listWay(trip: Trip, best: Best): Promise<Explored> {
  const { session, app, prelude, start, seen } = trip
  const before = best.path.slice(0, -1)
  const last = best.path.at(-1)!
  const snapshot = await goTo(session, app, prelude, before, start)
  session.progress('explore', `The list to read: ${best.path.map((m) => `“${m.label}”`).join(' → ')}`, {
    path: best.path.map((m) => m.label),
  })
  const steps = foldPages(best.path)
  const step = steps.pop()!
  return {
    navigation: [...prelude, ...start, ...steps],
    snapshot,
    fitness: best.fitness,
    seen,
    prelude,
    readStep: { step, label: last.label },
  }
}

/** Leaves the app on the chosen screen, reached the way a run will reach it. */
async function chosenWay(trip: Trip, best: Best, current: Move[]): Promise<Explored> {
  const { session, app, prelude, start, seen } = trip
  const snapshot = sameMoves(current, best.path)
    ? best.snapshot
    : await goTo(session, app, prelude, best.path, start)
  if (best.path.length)
    session.progress('explore', `Chosen path: ${best.path.map((m) => `“${m.label}”`).join(' → ')}`, {
      path: best.path.map((m) => m.label),
    })
  const navigation: Step[] = [...prelude, ...start, ...foldPages(best.path)]
  return { navigation, snapshot, fitness: best.fitness, seen, prelude }
}

function describe(what: string, fitness: number, leafCount: number): string {
  if (leafCount === 0) return `${what} has ${fitness > 0 ? 'fields' : 'no fields'}`
  return `${what} fits the sample’s values ${Math.round(fitness * 100)}%`
}

const round = (n: number) => Number(n.toFixed(2))

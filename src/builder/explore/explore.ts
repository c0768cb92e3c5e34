// Step 2 of a build: get to the screen that takes the sample's values. Best-first over the
// buttons, links, menu items and tabs whose names share words with the task ("New customer" for
// "Create a customer"), a few levels deep; every try starts from a freshly launched app, so the
// path that worked is exactly the navigation a run will replay after its launch step.

import type { AppSpec, Selector, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { PromptReading } from '../locate/prompt.ts'
import { screenFitness } from '../map/field-scores.ts'
import { performStep } from '../observe/observe.ts'
import { actionElements, readControls } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import { BuildFailure, type BuildSession, unreachable } from '../session.ts'
import { replaySignIn, signIn } from '../sign-in/sign-in.ts'
import { sendsOnlyElsewhere } from '../submit/submit.ts'
import { actionOf } from '../words.ts'
import { actionKey, type PeekedMenu, peekMenus, scopeOf } from './explore-menus.ts'
import {
  aboutObject,
  indexOf,
  isSearchBox,
  moveScore,
  ownRecordLink,
  refusal,
  rowSelector,
} from './explore-moves.ts'
import { listFitness, listsWithoutValues } from './list-screen.ts'

/** A screen this good takes the sample as it is. */
const GOOD = 0.75
/** Below this no screen is worth filling. */
const USABLE = 0.3
/** A lookup's value fitting only a search box on a screen not about the task's object. */
const QUERY_ELSEWHERE = 0.7
const MAX_TRIES = 8
const MAX_DEPTH = 3
/** Next-page clicks exploring may make looking for the sample's record (runs page further). */
const MAX_PAGES_EXPLORED = 5

export interface Move {
  selector: Selector
  label: string
  /** Shows the next page of a paged list (not counted as depth; folded into the next move). */
  pager?: boolean
  /** Opens a menu of the menu bar, on the way to one of its items (not counted as depth). */
  opensMenu?: boolean
}

/** A paged list's way to its next page: "Next page", "Next", "›", "Older entries". */
const PAGER = /^(next( page)?|older( entries| posts)?|more results|›|»|>|→)$/i
const ROWS = new Set(['row', 'listitem'])

interface Candidate {
  path: Move[]
  move: Move
  priority: number
  /** What the screen the move starts from already offered (its buttons stay; they lead nowhere new). */
  known: Set<string>
  order: number
}

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
const DELETE = actionOf('delete')

const byPriority = (a: Candidate, b: Candidate) => b.priority - a.priority || a.order - b.order

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
  const home = start.length ? await walk(session, start) : (signedIn?.screen ?? first)
  const seen: Snapshot[] = [home]
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
  const good = listing ? 1 : GOOD
  const fitAfter = (s: Snapshot, path: Move[]) =>
    listing
      ? listFitness(
          s,
          path.map((m) => m.label),
          reading,
        )
      : fitness(s)
  const tell = (what: string, fit: number) =>
    listing
      ? `${what} ${fit > 0 ? `shows rows named by ${Math.round(fit * 100)}% of the task’s words` : 'shows no rows named by the task’s words'}`
      : describe(what, fit, leaves.length)
  let best = { path: [] as Move[], snapshot: home, fitness: fitAfter(home, []) }
  session.progress('explore', tell(`The first screen (“${home.window.title}”)`, best.fitness), {
    fitness: round(best.fitness),
  })
  if (best.fitness >= good)
    return { navigation: [...prelude, ...start], snapshot: home, fitness: best.fitness, seen, prelude }

  const queue: Candidate[] = []
  let order = 0
  let rowAction: { path: Move[]; snapshot: Snapshot; move: Move } | undefined
  const refused = new Map<string, string>()
  const enqueue = (snapshot: Snapshot, path: Move[], known: Set<string>, menus: PeekedMenu[] = []) => {
    // A dialog's "Add" is not the window's "Add": keys say which part of the screen they are in.
    const scope = scopeOf(snapshot.root)
    const seenKey = (e: UiElement) => scope + actionKey(e)
    const here = new Set(actionElements(snapshot.root).map(seenKey))
    // A menu's items are ways too, reached by opening their menu first.
    for (const { menu, open, items } of menus) {
      const openIndex = indexOf(open)
      for (const item of items) {
        const score = moveScore(reading, item.name)
        if (score === 0 || item.states.includes('disabled')) continue
        const why = refusal(openIndex, item, app.url)
        if (why) {
          refused.set(item.name, why)
          continue
        }
        const move = {
          selector: designSelector(open, item, `the “${item.name}” menu item`),
          label: item.name,
        }
        queue.push({
          path: [...path, menu],
          move,
          priority: score * 0.8 ** depth(path),
          known: here,
          order: order++,
        })
      }
    }
    const index = indexOf(snapshot.root)
    const actions = actionElements(snapshot.root)
    const onTopic = aboutObject(snapshot, reading)
    // When the sample's own row offers an action ("Edit"), the same action of other rows is no way.
    const ownRow = new Set(actions.filter((e) => rowSelector(index, e, leaves) !== undefined).map(actionKey))
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
    // A paged list that does not show the sample's record on this page: its next page may.
    const showsRows = index.all.some((e) => ROWS.has(e.role))
    if (ownRow.size === 0 && showsRows && leaves.length > 0)
      for (const element of actions) {
        if (!PAGER.test((element.name || '').trim()) || refusal(index, element, app.url)) continue
        const move = {
          selector: designSelector(snapshot.root, element, `the “${element.name}” ${element.role}`),
          label: element.name,
          pager: true,
        }
        if (path.filter((m) => m.pager).length >= MAX_PAGES_EXPLORED) continue
        // The next page's rows are new, whatever their actions are called; the site's menus are not.
        const menus = new Set([...here].filter((key) => !inRows.some((e) => seenKey(e) === key)))
        queue.push({ path, move, priority: 1.5 * 0.8 ** depth(path), known: menus, order: order++ })
      }
    // Tabs of a form hide fields behind them: a tab not shown yet may hold the sample's.
    if (readControls(snapshot.root).length > 0)
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
        queue.push({ path, move, priority: 1.5 * 0.8 ** depth(path), known: here, order: order++ })
      }
    for (const element of actions) {
      if (known.has(seenKey(element))) continue
      if (ownRow.has(actionKey(element)) && !rowSelector(index, element, leaves)) continue
      // An action repeated in every row ("Edit", "Remove") acts on that row's record: only the
      // row showing the sample's own record is a way, wherever (on whichever page) it is.
      if (repeated.has(actionKey(element)) && !rowSelector(index, element, leaves)) continue
      // The sample's record's own link ("PEN-RED" in its row) opens it for a lookup or a change.
      const score =
        moveScore(reading, element.name) || (ownRecordLink(reading, index, element, leaves) ? 1 : 0)
      if (score === 0) continue
      const why = refusal(index, element, app.url)
      const inRow = rowSelector(index, element, leaves)
      // "Remove" in the sample's own row, for a task that removes: never pressed while exploring,
      // it is the job's own action (its submit), found here with the way to it.
      if (
        why &&
        inRow &&
        reading.verb === DELETE &&
        actionOf(element.name.trim().split(/\s+/)[0] ?? '') === DELETE
      ) {
        rowAction ??= {
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
        refused.set(element.name, why)
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
      queue.push({ path, move, priority: (score + boost) * 0.8 ** depth(path), known: here, order: order++ })
    }
  }
  enqueue(home, [], new Set(), await peekMenus(session, home, new Set()))
  queue.sort(byPriority)
  const shown = (c: Candidate) =>
    [...c.path.filter((m) => m.opensMenu), c.move].map((m) => `“${m.label}”`).join(' › ')
  session.progress(
    'explore',
    `It lacks fields for the sample; trying what shares words with the task: ${queue.map(shown).join(', ') || 'nothing'}` +
      (refused.size
        ? `. Not pressed: ${[...refused].map(([name, why]) => `“${name}” (${why})`).join(', ')}`
        : ''),
    { candidates: queue.map((c) => c.move.label), refused: Object.fromEntries(refused) },
  )
  let current: Move[] = []
  for (let tries = 0; tries < MAX_TRIES && queue.length > 0; tries++) {
    queue.sort(byPriority)
    const next = queue.shift()!
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
    const fit = circular ? 0 : fitAfter(snapshot, path)
    const route = path.map((m) => `“${m.label}”`).join(' → ')
    session.progress('explore', tell(`Tried ${route}: the screen`, fit), {
      path: path.map((m) => m.label),
      fitness: round(fit),
    })
    if (fit > best.fitness) best = { path, snapshot, fitness: fit }
    if (fit >= good) break
    if (depth(path) < MAX_DEPTH && !circular)
      enqueue(snapshot, path, next.known, await peekMenus(session, snapshot, next.known))
  }
  if (best.fitness < USABLE && rowAction) {
    // Nothing to fill: the job is the action in its record's row (and whatever it asks next).
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
  if (best.fitness < USABLE)
    throw new NoFormFound(
      `No screen reachable from “${home.window.title}” has fields for ${leaves.map((l) => `“${l.key}”`).join(', ')} ` +
        `(tried ${seen.length} screen${seen.length === 1 ? '' : 's'}: ${[...new Set(seen.map((s) => `“${s.window.title}”`))].join(', ')}), ` +
        'and no link of the app shows an address that holds one of its values. ' +
        'Name the button or page that opens the form in the prompt (“… with the New ticket button”), or open that screen as the app’s start page.',
      seen,
      prelude,
    )
  if (listing && best.path.length > 0) {
    // The last move to the list is what the job does (nothing to fill, nothing to send): the app
    // is left just before it, and the move is observed as the job's action.
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
  // Leave the app on the chosen screen, reached the way a run will reach it.
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

/** Resets the app (launch), signs in if asked, and replays the moves, waiting for each screen to settle. */
async function goTo(
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
    await session.act(move.selector, { kind: 'click' }, session.scope(session.request.sample.input))
    snapshot = await session.settle(snapshot.root)
  }
  return snapshot
}

/** Performs steps with the sample's values, each waited out: the way to where exploring starts. */
async function walk(session: BuildSession, steps: Step[], from?: Snapshot): Promise<Snapshot> {
  let snapshot = from ?? (await session.snapshot())
  const scope = session.scope(session.request.sample.input)
  for (const step of steps) {
    await performStep(session, step, scope)
    snapshot = await session.settle(snapshot.root)
  }
  return snapshot
}

const inOwnRow = (m: Move) => m.selector.fingerprints.some((f) => f.by === 'inRow')

function sameMoves(a: Move[], b: Move[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i])
}

function describe(what: string, fitness: number, leafCount: number): string {
  if (leafCount === 0) return `${what} has ${fitness > 0 ? 'fields' : 'no fields'}`
  return `${what} fits the sample’s values ${Math.round(fitness * 100)}%`
}

const round = (n: number) => Number(n.toFixed(2))

/** How deep a path goes: turning a list's pages or opening a menu is not a step deeper into the app. */
function depth(path: Move[]): number {
  return path.filter((m) => !m.pager && !m.opensMenu).length
}

/**
 * The moves as click steps. Next-page clicks before a move in the sample's own row become that
 * click's `pageWith`: a run turns pages until its own record's row shows, however far it is.
 */
function foldPages(path: Move[]): Step[] {
  const steps: Step[] = []
  const click = (m: Move): Step => ({
    kind: 'click',
    name: m.opensMenu ? `Open the “${m.label}” menu` : `Click “${m.label}”`,
    target: m.selector,
  })
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

// Records a user opens by address: when no screen takes the sample's values, but the app's own
// links show addresses that carry a record's id (`/tktview/5f3a9c0d1e`, `/orders/2041`,
// `doku.php?id=start`), the sample's value put in that place opens its record. The builder tries
// such addresses (the sample's value where the links have one of the same shape), keeps the
// first that shows the value, and the job navigates there (`/tktview/{{ticketId}}`).
import type { AppSpec, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { escapeRegex } from '../generalise.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { screenFitness } from '../map/field-scores.ts'
import type { ScreenControl } from '../screen.ts'
import type { BuildSession } from '../session.ts'
import { replaySignIn } from '../sign-in/sign-in.ts'

export interface UrlRoute {
  /** Sign-in steps before the navigation (empty when the app asks for none). */
  prelude: Step[]
  /** The navigate step, its URL a template over the input. */
  step: Extract<Step, { kind: 'navigate' }>
  leaf: InputLeaf
  before: Snapshot
  after: Snapshot
  elapsedMs: number
}

const MAX_TRIES = 4
/** A form reached by address must take at least this share of the other values (explore's GOOD). */
const FORM_FITS = 0.75
const NOT_FOUND =
  /\b(not found|no such|does not exist|doesn[’']t exist|unknown|invalid|error|404|bad request|cannot|can[’']t|could not|unable)\b/i
/** Keys that name a record: only their values are put into an address as words. */
export const NAMES_A_RECORD =
  /(^|[^a-z])(id|ids|key|ref|reference|code|number|no|num|nr|slug|page|name|title|handle|uuid|hash)$/i

/** Whether a value's key names a record (`page`, `ticketId`), so the value may go into an address. */
export function namesARecord(leaf: InputLeaf): boolean {
  return NAMES_A_RECORD.test(leaf.key.replace(/([a-z])([A-Z])/g, '$1 $2'))
}

type Shape = 'digits' | 'hex' | 'code' | 'word'

/** The kind of token a value is: 2041 digits, 5f3a9c0d hex, C-1042 code, start word. */
export function shapeOf(value: string): Shape | undefined {
  if (!/^[\p{L}\p{N}_.~:-]{1,80}$/u.test(value)) return undefined
  if (/^\d+$/.test(value)) return 'digits'
  if (/^[0-9a-f]{6,}$/i.test(value) && /\d/.test(value) && /[a-f]/i.test(value)) return 'hex'
  if (/\d/.test(value)) return 'code'
  return 'word'
}

export interface Pattern {
  template: string
  /** The address was seen with exactly this sample's value in it (surest), else by shape. */
  direct: boolean
  /**
   * How much it looks like a record's own address: a link whose text shows the value ("Issue
   * #3", a row's link) beats one that merely carries it; a path segment beats a query parameter;
   * every other parameter (a filter's `set_filter=1&tracker_id=3`) counts against it.
   */
  rank: number
}

/** Address templates from the links on the screens seen, for the values that could be ids. */
export function urlPatterns(screens: Snapshot[], leaves: InputLeaf[], appUrl: string): Pattern[] {
  const home = safeUrl(appUrl)
  if (!home) return []
  const links = new Map<string, string[]>()
  const visit = (e: UiElement) => {
    if (e.href) links.set(e.href, [...(links.get(e.href) ?? []), e.name])
    e.children.forEach(visit)
  }
  for (const s of screens) visit(s.root)
  const hrefs = [...links.keys()]
  const out = new Map<string, Pattern>()
  const add = (template: string, direct: boolean, rank: number) => {
    const had = out.get(template)
    if (!had || (direct && !had.direct) || (direct === had.direct && rank > had.rank))
      out.set(template, { template, direct, rank })
  }
  const shownIn = (href: string, value: string) =>
    (links.get(href) ?? []).some((name) =>
      new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegex(value)}($|[^\\p{L}\\p{N}])`, 'u').test(name),
    )
  for (const leaf of leaves) {
    if (leaf.source === 'header' || (typeof leaf.value !== 'string' && typeof leaf.value !== 'number'))
      continue
    const value = String(leaf.value)
    const shape = shapeOf(value)
    if (!shape) continue
    // "defect" in a `type` is a category, not a record: words only go where the key names a record.
    if (shape === 'word' && !namesARecord(leaf)) continue
    const placeholder = `{{${leaf.path}}}`
    for (const href of hrefs) {
      const url = safeUrl(href, appUrl)
      if (!url || url.origin !== home.origin) continue
      const segments = url.pathname.split('/')
      segments.forEach((segment, i) => {
        const decoded = safeDecode(segment)
        // An app may link a record by its id abbreviated (10 of a hash's 40 digits).
        const direct =
          decoded === value || (shape === 'hex' && decoded.length >= 8 && value.startsWith(decoded))
        // A path segment of words ("wiki", "tickets") is the app's own; only ids are swapped by shape.
        if (
          direct ||
          (shape !== 'word' && shapeOf(decoded) === shape && similarLength(decoded, value, shape))
        ) {
          const copy = [...segments]
          copy[i] = placeholder
          const rank = (shownIn(href, decoded) ? 2 : 0) + 1 - [...url.searchParams].length
          add(`${copy.join('/')}${url.search}`, direct, rank)
        }
      })
      for (const [key, inner] of url.searchParams) {
        const direct = inner === value
        if (direct || (shapeOf(inner) === shape && similarLength(inner, value, shape))) {
          const params = [...url.searchParams].map(([k, v]) =>
            k === key
              ? `${encodeURIComponent(k)}=${placeholder}`
              : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
          )
          const rank = (shownIn(href, inner) ? 2 : 0) - (params.length - 1)
          add(`${url.pathname}?${params.join('&')}`, direct, rank)
        }
      }
    }
  }
  return [...out.values()].sort((a, b) => Number(b.direct) - Number(a.direct) || b.rank - a.rank)
}

function similarLength(a: string, b: string, shape: Shape): boolean {
  if (shape === 'word' || shape === 'code' || shape === 'hex') return true
  return Math.abs(a.length - b.length) <= Math.max(2, b.length / 2)
}

/**
 * Tries the address patterns with the sample's values: the first page that shows the value (and
 * no "not found") is the record. Leaves the app on that page.
 */
export async function findUrlRoute(
  session: BuildSession,
  app: AppSpec,
  screens: Snapshot[],
  leaves: InputLeaf[],
  prelude: Step[] = [],
  onlyDirect = false,
  form?: { rest: InputLeaf[]; controlsOf: (s: Snapshot) => ScreenControl[] },
): Promise<UrlRoute | undefined> {
  const appUrl = app.url
  if (!appUrl) return undefined
  let patterns = urlPatterns(screens, leaves, appUrl).filter((p) => p.direct || !onlyDirect)
  // A form for the record: addresses that name the record by a key (`?id=`, `/pages/…`) and say
  // what is done to it (`do=edit`, `/new`) come first; of those, the plainest (fewest other
  // parameters: not `&section=1`).
  if (form)
    patterns = [...patterns].sort(
      (a, b) => formRank(b.template) - formRank(a.template) || extras(a.template) - extras(b.template),
    )
  if (patterns.length === 0) return undefined
  const why = form
    ? 'The sample names its record, and the app’s links show addresses that hold names like it'
    : onlyDirect
      ? 'The app links to the sample’s record itself'
      : 'No screen has fields for the sample, but the app’s links show addresses that hold ids'
  return tryAddresses(session, app, patterns, leaves, prelude, why, form)
}

/**
 * Opens each address (the sample's values in it) on the freshly launched app, after any sign-in;
 * the first that shows the value (or, for a form, takes the other values) is the route.
 */
export async function tryAddresses(
  session: BuildSession,
  app: AppSpec,
  patterns: Pattern[],
  leaves: InputLeaf[],
  prelude: Step[],
  why: string,
  form?: { rest: InputLeaf[]; controlsOf: (s: Snapshot) => ScreenControl[] },
): Promise<UrlRoute | undefined> {
  const appUrl = app.url
  if (!appUrl || patterns.length === 0) return undefined
  session.progress(
    'explore',
    `${why}: ${patterns
      .slice(0, MAX_TRIES)
      .map((p) => `“${p.template}”`)
      .join(', ')}`,
  )
  for (const pattern of patterns.slice(0, MAX_TRIES)) {
    const leaf = leaves.find((l) => pattern.template.includes(`{{${l.path}}}`))!
    const value = String(leaf.value)
    const relative = pattern.template.replace(`{{${leaf.path}}}`, encodeURIComponent(value))
    // Every try starts where a run starts: the app freshly opened.
    await session.launch(app)
    const base = prelude.length ? await replaySignIn(session, prelude) : await session.settle()
    const url = new URL(relative, base.window.url ?? appUrl).href
    const started = performance.now()
    try {
      await session.navigate(url)
    } catch (error) {
      session.progress('explore', `Opening ${relative} failed: ${(error as Error).message}`)
      continue
    }
    const after = await session.settle(base.root)
    const elapsedMs = Math.round(performance.now() - started)
    const text = visibleText(after.root)
    const shows = text.includes(value) || (after.window.title ?? '').includes(value)
    const fits = form
      ? screenFitness(form.rest, form.controlsOf(after)) >= FORM_FITS
      : shows && !NOT_FOUND.test(`${after.window.title} ${text.slice(0, 400)}`)
    if (fits) {
      session.progress(
        'explore',
        form
          ? `Opening ${relative} shows a form for the other values: the job opens “${pattern.template}” and fills it`
          : `Opening ${relative} shows the record (it has “${value}”): the job opens “${pattern.template}”`,
        { url: pattern.template },
      )
      return {
        step: { kind: 'navigate', name: `Open ${pattern.template}`, url: pattern.template },
        prelude,
        leaf,
        before: base,
        after,
        elapsedMs,
      }
    }
    session.progress(
      'explore',
      form
        ? `Opening ${relative} shows no form for the other values; not this address`
        : `Opening ${relative} does not show “${value}”; not this address`,
    )
  }
  return undefined
}

const KEYED = /[?&/](id|ids|key|page|name|slug|item|record|title)[=/]/i
const ACTS = /(edit|new|create|add|write|compose)\b/i

/** How many query parameters an address carries. */
function extras(template: string): number {
  return (template.split('?')[1] ?? '').split('&').filter(Boolean).length
}

function formRank(template: string): number {
  const at = template.indexOf('{{')
  const before = template.slice(0, at + 2)
  return (KEYED.test(before.replace(/\{\{$/, '=')) ? 2 : 0) + (ACTS.test(template) ? 1 : 0)
}

function visibleText(root: UiElement): string {
  const parts: string[] = []
  const visit = (e: UiElement) => {
    if (e.name) parts.push(e.name)
    if (e.value) parts.push(e.value)
    e.children.forEach(visit)
  }
  visit(root)
  return parts.join(' \n')
}

export function safeUrl(href: string, base?: string): URL | undefined {
  try {
    return new URL(href, base)
  } catch {
    return undefined
  }
}

export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

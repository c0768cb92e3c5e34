// A lookup of the records that have a value ("the items kept in a location") opens the app's own
// filter for it: a link that shows the value and whose address sets a parameter named like the
// value's key (`?location=Back+room` for "location"). The job opens that address with each call's
// value (`?location={{location}}`) and reads what the filtered page shows; a search box that is
// not named like the key may not search that value at all.
import { collapse } from '../../automation/text-match.ts'
import type { AppSpec, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import type { BuildSession } from '../session.ts'
import { textSimilarity } from '../words.ts'
import { type Pattern, safeUrl, tryAddresses, type UrlRoute } from './url-route.ts'

/** A parameter this like the key names it (`location`, `location__exact` for "location"). */
const NAMED = 0.8

const fold = (text: string) => collapse(text).toLowerCase()
/** A filter's link may add how many records it holds: "Back room (2)". */
const withoutCount = (text: string) => text.replace(/\s*[([]\d+[)\]]\s*$/, '')

/**
 * Whether a link (its text and address) is the app's filter for a value of the key: the
 * parameter it sets, or undefined.
 */
export function filtersBy(link: UiElement, key: string, raw: unknown, appUrl?: string): string | undefined {
  if (!link.href || (typeof raw !== 'string' && typeof raw !== 'number')) return undefined
  const value = fold(String(raw))
  if (value.length < 2 || fold(withoutCount(link.name)) !== value) return undefined
  const url = safeUrl(link.href, appUrl)
  if (!url) return undefined
  for (const [param, inner] of url.searchParams)
    if (fold(inner) === value && textSimilarity(key, param) >= NAMED) return param
  return undefined
}

/** Address templates of the filters the screens' links show for the sample's values. */
export function filterPatterns(screens: Snapshot[], leaves: InputLeaf[], appUrl: string): Pattern[] {
  const home = safeUrl(appUrl)
  if (!home) return []
  const out = new Map<string, Pattern>()
  const visit = (e: UiElement) => {
    for (const leaf of leaves) {
      if (leaf.source === 'header') continue
      const param = filtersBy(e, leaf.key, leaf.value, appUrl)
      const url = param && safeUrl(e.href!, appUrl)
      if (!url || url.origin !== home.origin) continue
      const params = [...url.searchParams].map(([k, v]) =>
        k === param
          ? `${encodeURIComponent(k)}={{${leaf.path}}}`
          : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
      )
      const template = `${url.pathname}?${params.join('&')}`
      // Every other parameter (a search or sort order kept from the page) counts against it.
      out.set(template, { template, direct: true, rank: 1 - params.length })
    }
    e.children.forEach(visit)
  }
  for (const s of screens) visit(s.root)
  return [...out.values()].sort((a, b) => b.rank - a.rank)
}

/** Opens the app's filter for the sample's value, when its links show one; leaves the app there. */
export async function findFilterRoute(
  session: BuildSession,
  app: AppSpec,
  screens: Snapshot[],
  leaves: InputLeaf[],
  prelude: Step[],
): Promise<UrlRoute | undefined> {
  const patterns = app.url ? filterPatterns(screens, leaves, app.url) : []
  const why = 'The app’s own filter links show the sample’s value in a parameter named like its key'
  return tryAddresses(session, app, patterns, leaves, prelude, why)
}

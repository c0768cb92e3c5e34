// The record's own screen (docs/builder.md, "Outputs"): a lookup's results show the record sought
// (one row or item holding the sample's value) but label nothing like a key the task returns
// ("status" of a post whose list shows only its title and date). A person opens the record and
// reads the value there. The builder does the same, before asking: it tries the record's openers
// in its own row (its naming link, then controls that say view, open, show, details or edit; never
// one that deletes, downloads, leaves or sends), each from the results screen, and keeps the first
// whose screen shows every missing key as a labelled value. Nothing is typed or saved on the way.
import { ancestors, descendants, indexTree } from '../../automation/element-tree.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Fingerprint, Selector, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement, UiRole } from '../../protocol/elements.ts'
import { refusal } from '../explore/explore-moves.ts'
import { appeared } from '../observe/ui-diff.ts'
import { designPlaceSelector, designSelector } from '../selector-design.ts'
import type { BuildSession } from '../session.ts'
import { actionOf, splitWords } from '../words.ts'
import { keyed, type LabelValue, labelValuePairs } from './label-values.ts'
import { labelMeansKey } from './output-evidence.ts'
import { isTypeSpec, listExpected, type OutputContext, type ReadStep } from './outputs.ts'
import { nestedValue, resolvesTo } from './row-reads.ts'

const ITEMS = new Set<UiRole>(['row', 'listitem', 'treeitem'])
const OPENERS = new Set<UiRole>(['link', 'button', 'menuitem'])
/** Words of a control that shows a record without changing it, best first. */
const SHOWS = /^(view|open|show|details?|info|properties)$/
const EDITS = /^edit$/
/** At most this many openers are tried: each may load a page. */
const MAX_TRIES = 4

const norm = (text: string) => collapse(text).toLowerCase()
const FIND = actionOf('find')
/** The task finds or shows something (or names no verb): it changes nothing. */
const lookup = (verb: string | undefined) => verb === undefined || verb === FIND

interface Opener {
  element: UiElement
  selector: Selector
  rank: number
}

/**
 * Steps that open the sought record and read the keys there (a click in its row, then one read
 * per key), or undefined when no opener's screen shows them all. The window is back on the results
 * screen afterwards when nothing was found.
 */
export async function openRecordReads(
  session: BuildSession,
  ctx: OutputContext,
  expect: Record<string, unknown>,
  keys: string[],
): Promise<{ open: Step; reads: ReadStep[]; screen: Snapshot } | undefined> {
  if (keys.length === 0 || keys.some((k) => listExpected(expect[k]))) return undefined
  // Only a task that looks a record up: after a create or a change, the record's screen is no
  // evidence of what the task made, and going back to the results must not send anything again.
  if (!lookup(ctx.reading.verb)) return undefined
  const own = soughtItem(ctx.after, ctx.values ?? [])
  if (!own) return undefined
  const openers = openersIn(ctx.after, ctx.afterUrl, own.item, own.value)
  if (openers.length === 0) return undefined
  session.progress(
    'outputs',
    `Nothing after “${ctx.submitLabel}” is labelled like ${keys.map((k) => `“${k}”`).join(', ')}; opening the record “${own.value.value}” to look there`,
  )
  const scope = session.scope(session.request.sample.input)
  const tried = new Set<string>()
  for (const opener of openers.slice(0, MAX_TRIES)) {
    const where = opener.element.href ?? opener.element.name
    if (tried.has(where)) continue
    tried.add(where)
    const before = await session.snapshot()
    try {
      await session.act(opener.selector, { kind: 'click' }, scope)
    } catch {
      continue
    }
    const after = await session.settle(before.root)
    const fresh = new Set(appeared(before.root, after.root))
    const reads = readsThere(after.root, fresh, ctx, expect, keys)
    if (reads) {
      session.progress('outputs', `“${opener.element.name}” in the record’s row shows them`)
      const open: Step = { kind: 'click', name: `Open “${opener.element.name}”`, target: opener.selector }
      return { open, reads, screen: after }
    }
    session.progress('outputs', `“${opener.element.name}” does not show them`)
    if (!(await backToResults(session, ctx, own.value.value))) return undefined
  }
  return undefined
}

/**
 * Whether the results' sought record offers a way to open it other than the link to `href` (the
 * result link a follow-up opened): going back to the results is then worth it.
 */
export function otherOpeners(
  root: UiElement,
  url: string | undefined,
  values: { path: string; value: string }[],
  href: string | undefined,
): boolean {
  const own = soughtItem(root, values)
  return !!own && openersIn(root, url, own.item, own.value).some((o) => !href || o.element.href !== href)
}

/** The one row or item on the results that shows a sample value as a whole part of it. */
function soughtItem(
  root: UiElement,
  values: { path: string; value: string }[],
): { item: UiElement; value: { path: string; value: string } } | undefined {
  const index = indexTree(root)
  for (const value of [...values].sort((a, b) => b.value.length - a.value.length)) {
    if (value.value.trim().length < 2) continue
    const showing = index.all.filter(
      (e) =>
        !ITEMS.has(e.role) &&
        (norm(e.name) === norm(value.value) || norm(e.value ?? '') === norm(value.value)),
    )
    const items = new Set(
      showing.flatMap((e) => {
        const item = ancestors(index, e).find((a) => ITEMS.has(a.role))
        return item ? [item] : []
      }),
    )
    if (items.size === 1) return { item: [...items][0]!, value }
    if (items.size > 1) return undefined
  }
  return undefined
}

/** The item's controls that open it, best first, each with a selector in the row of the value. */
function openersIn(
  root: UiElement,
  url: string | undefined,
  item: UiElement,
  value: { path: string; value: string },
): Opener[] {
  const index = indexTree(root)
  const out: Opener[] = []
  for (const element of descendants(item)) {
    if (!OPENERS.has(element.role) || !element.name.trim() || element.states.includes('disabled')) continue
    if (refusal(index, element, url)) continue
    const naming = element.role === 'link' && norm(element.name).includes(norm(value.value))
    const words = splitWords(element.name.replace(value.value, ' '))
    const rank =
      naming && words.length <= 2
        ? 0
        : words.some((w) => SHOWS.test(w))
          ? 1
          : words.some((w) => EDITS.test(w))
            ? 2
            : -1
    if (rank < 0 || (words.some((w) => !SHOWS.test(w) && !EDITS.test(w) && !PLAIN.test(w)) && rank > 0))
      continue
    const selector = inRowSelector(root, element, value)
    if (selector) out.push({ element, selector, rank })
  }
  return out.sort((a, b) => a.rank - b.rank)
}
/** Words an opener's name may hold beside its verb: "Quick edit “…” inline", "View details". */
const PLAIN = /^(quick|inline|this|the|record|item|entry|page|more|full|in|new|tab|window|edit)$/

/** The control by its name (the value in it templated) in the row showing the value. */
function inRowSelector(
  root: UiElement,
  element: UiElement,
  value: { path: string; value: string },
): Selector | undefined {
  const at = element.name.indexOf(value.value)
  const name =
    at >= 0
      ? `${element.name.slice(0, at)}{{${value.path}}}${element.name.slice(at + value.value.length)}`
      : element.name
  const scope = nestedValue(value)
  for (const rowMatch of ['exact', 'contains'] as const) {
    const fingerprint: Fingerprint = {
      by: 'inRow',
      rowText: `{{${value.path}}}`,
      rowMatch,
      role: element.role,
      name,
      match: 'exact',
    }
    if (resolvesTo(root, fingerprint, scope, element))
      return { fingerprints: [fingerprint], description: `“${element.name}” in the row of “${value.value}”` }
  }
  return undefined
}

/** One read per key from the opened screen's labelled values, or undefined when a key is not there. */
function readsThere(
  root: UiElement,
  fresh: ReadonlySet<UiElement>,
  ctx: OutputContext,
  expect: Record<string, unknown>,
  keys: string[],
): ReadStep[] | undefined {
  const pairs = keyed(labelValuePairs(root, fresh, { fields: true }))
  const isInput = (text: string) => ctx.inputs.some((v) => norm(v) === norm(text))
  const reads: ReadStep[] = []
  for (const key of keys) {
    const expected = expect[key]
    const fits = (p: LabelValue) =>
      labelMeansKey(p.label, key) &&
      !isInput(p.value) &&
      (isTypeSpec(expected) || norm(p.value) === norm(String(expected)))
    const found = pairs.filter(fits)
    if (new Set(found.map((p) => norm(p.value))).size !== 1) return undefined
    const pair = found[0]!
    const field = pair.element.role === 'textbox' || pair.element.role === 'combobox'
    const target = field
      ? designSelector(root, pair.element, `the “${pair.label}” field`)
      : designPlaceSelector(root, pair.element, `the “${pair.label}” value`)
    if (target.fingerprints.length === 0) return undefined
    reads.push({
      kind: 'read',
      name: `Read “${key}”`,
      target,
      into: key,
      ...(pair.extract ? { extract: pair.extract } : {}),
    })
  }
  return reads
}

/** Back to the results by their address; false when the sought record is not shown again. */
async function backToResults(session: BuildSession, ctx: OutputContext, value: string): Promise<boolean> {
  if (!ctx.afterUrl || ctx.afterUrl === ctx.beforeUrl) return false
  await session.navigate(ctx.afterUrl)
  const snapshot = await session.settle()
  return indexTree(snapshot.root).all.some((e) => norm(e.name) === norm(value))
}

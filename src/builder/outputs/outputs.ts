// Step 6 of a build: what the job returns, as `read` steps on the screen the submit led to,
// from the sample's `expect`: a generated value ({"$type": "string"}) is found by its shape (it
// has digits) and the key's words around it; an exact value by its text. Without `expect`, see
// choose-outputs.ts.
import { indexTree, renderSelector, resolveSelector } from '../../automation/index.ts'
import { collapse } from '../../automation/text-match.ts'
import type { Fingerprint, Selector, Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement, UiRole } from '../../protocol/elements.ts'
import type { SampleSpec } from '../contract.ts'
import { escapeRegex, extractPattern, generaliseText } from '../generalise.ts'
import type { PromptReading } from '../locate/prompt.ts'
import type { Ending } from '../observe/classify.ts'
import { designPlaceSelector, designTextSelector } from '../selector-design.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { compact, stems } from '../words.ts'
import { askForOutput } from './ask-output.ts'
import { listExpected, rowsRead } from './collections.ts'
import { exactRead } from './exact-read.ts'
import { openRecordReads } from './open-record.ts'
import { type Evidenced, evidencedValues } from './output-evidence.ts'
import { CELLS, nestedValue, ownRowColumn, resolvesTo, rowOrPlace } from './row-reads.ts'
import { urlRead } from './url-output.ts'

export { findCollections, listExpected, rowsRead } from './collections.ts'
export { exactRead } from './exact-read.ts'

export interface OutputContext {
  ending: Ending
  after: UiElement
  /** The window's address before the submit and on the screen it led to, when it has one. */
  beforeUrl?: string
  afterUrl?: string
  /** The sample's text values (echoes of them are not outputs; in patterns they are wildcards). */
  inputs: string[]
  /** The same values with their template paths: a read inside the sample's own item finds it by them. */
  values?: { path: string; value: string }[]
  reading: PromptReading
  submitLabel: string
  /**
   * Read a cell of a list at its place even where no caller's value picks its row (rowOrPlace):
   * only to tell a value the screen shows from one it does not, never for a step that is kept.
   */
  anyRow?: boolean
}

/** An expected value as a person wrote it: a text as is, a list or object as JSON. */
export const shownExpected = (value: unknown) =>
  typeof value === 'object' && value !== null ? JSON.stringify(value).slice(0, 120) : `“${String(value)}”`

/** The outputs stage's view of a submit: the screens before and after, their addresses, the ending. */
export function outputContext(
  observed: { before: Snapshot; after: Snapshot },
  rest: Omit<OutputContext, 'after' | 'beforeUrl' | 'afterUrl'>,
): OutputContext {
  return {
    ...rest,
    after: observed.after.root,
    ...(observed.before.window.url ? { beforeUrl: observed.before.window.url } : {}),
    ...(observed.after.window.url ? { afterUrl: observed.after.window.url } : {}),
  }
}

/** `{"$type": "string"}`: a value the app generates, checked by type only. */
export function isTypeSpec(value: unknown): value is { $type: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { $type?: unknown }).$type === 'string'
  )
}

const norm = (text: string) => collapse(text).toLowerCase()

/** The builder's reads always point at an element (reads of the URL or rows are built elsewhere). */
export type ReadStep = Extract<Step, { kind: 'read' }> & { target: Selector }
/** A read of an element or of the page's address (`source: url`, no target). */
export type ReadStepAny = Extract<Step, { kind: 'read' }>

/**
 * Read steps for the keys of `expect` the ending shows, and the keys it does not. `inList` are
 * the missing keys the ending does show, in a row that appeared with it among several rows of a
 * list that no caller's value picks (rowOrPlace): the ending showed them, so it is no less the
 * sample's success; reading them takes the record opened, or a person's pointing.
 */
export function expectedReads(
  ctx: OutputContext,
  expect: Record<string, unknown>,
): { steps: ReadStepAny[]; missing: string[]; inList: string[] } {
  const steps: ReadStepAny[] = []
  const missing: string[] = []
  const inList: string[] = []
  const readOf = (at: OutputContext, key: string, expected: unknown) =>
    listExpected(expected)
      ? rowsRead(at, key, expected)
      : isTypeSpec(expected)
        ? generatedRead(at, key)
        : exactRead(at, key, expected)
  // Only a row that came with the ending: a complaint over the list of records that exist
  // ("already exists") shows the value too, and is no success.
  const fresh = new Set(ctx.ending.appeared)
  const cameWith = (step: ReadStepAny | undefined) => {
    if (!step?.target || ctx.ending.kind === 'validation') return false
    try {
      const found = resolveSelector(ctx.after, renderSelector(step.target, {}))
      return found.status === 'found' && fresh.has(found.element)
    } catch {
      return false
    }
  }
  for (const [key, expected] of Object.entries(expect)) {
    const step = readOf(ctx, key, expected)
    if (step) steps.push(step)
    else missing.push(key)
    if (!step && cameWith(readOf({ ...ctx, anyRow: true }, key, expected))) inList.push(key)
  }
  return { steps, missing, inList }
}

/** Whether the ending shows every value of `expect`, readable or only in a list (expectedReads). */
export function showsExpected(ctx: OutputContext, expect: Record<string, unknown> | undefined): boolean {
  if (expect === undefined) return false
  const { missing, inList } = expectedReads(ctx, expect)
  return missing.every((key) => inList.includes(key))
}

/**
 * Read steps for every key of `expect`. A key nothing on the screen evidences is sought on the
 * record's own screen when `opening` can take it, then asked about (ask-output.ts: pick a value,
 * or point at it); OUTPUT_NOT_FOUND only when the person cannot.
 */
export async function readsForExpect(
  session: BuildSession,
  ctx: OutputContext,
  expect: Record<string, unknown>,
  opening?: { screen?: Snapshot },
): Promise<Step[]> {
  const { steps, missing: unread } = expectedReads(ctx, expect)
  const opened = opening && (await openRecordReads(session, ctx, expect, unread))
  if (opened) opening.screen = opened.screen
  const missing = opened ? [] : unread
  const unanswered: string[] = []
  for (const key of missing) {
    const step = await askForOutput(session, ctx, key, expect[key])
    if (step) steps.push(step)
    else unanswered.push(key)
  }
  if (unanswered.length) {
    const shown =
      ctx.ending.appeared
        .map((e) => `“${e.name}”`)
        .slice(0, 8)
        .join(', ') || 'nothing new'
    const what = unanswered
      .map((key) =>
        isTypeSpec(expect[key])
          ? `a generated value for “${key}”`
          : `${shownExpected(expect[key])} (for “${key}”)`,
      )
      .join(', ')
    throw new BuildFailure(
      'OUTPUT_NOT_FOUND',
      `After “${ctx.submitLabel}”, nothing on the screen shows ${what}, and nobody pointed at it. What appeared: ${shown}. ` +
        'Teach again and point at the value when asked, or show the way to the screen that has it ("demonstrate": true).',
    )
  }
  for (const step of [...steps, ...(opened?.reads ?? [])])
    session.progress(
      'outputs',
      `“${step.into}” is read from ${step.target?.description ?? 'the page’s address'}`,
      {
        output: step.into,
        extract: step.extract,
      },
    )
  // The record is opened after the results' own reads: they read the results screen.
  return opened ? [...steps, opened.open, ...opened.reads] : steps
}

/** The id-like token that appeared nearest to the key's words ("customerId" → C-1042 in "Customer C-1042 created"). */
export function generatedRead(ctx: OutputContext, key: string): ReadStepAny | undefined {
  return findGenerated(ctx, key)?.step
}

/** The best id-like token for the key, with its read step and the text it sits in. */
export function findGenerated(
  ctx: OutputContext,
  key: string,
): { step: ReadStepAny; token: string; text: string } | undefined {
  // An output named like an address ("address", "url", "link") is a whole URL the app showed
  // (Radicale shows a new collection's URL in a read-only box after “URL:”), read as it is.
  if (/(url|address|link|href)$/i.test(key)) {
    const shown = (e: UiElement) => (e.role === 'textbox' ? (e.value ?? '') : e.name)
    const urls = ctx.ending.appeared.filter((e) => /^https?:\/\/\S+$/.test(shown(e).trim()))
    if (urls.length === 1) {
      const element = urls[0]!
      const place = designPlaceSelector(ctx.after, element, `the address shown (“${shown(element)}”)`)
      const step: ReadStep = {
        kind: 'read',
        name: `Read “${key}”`,
        target: ownItem(
          ctx,
          element,
          element.role === 'textbox' ? `^${escapeRegex(element.name)}$` : '^https?://',
          place,
        ),
        into: key,
      }
      return { step, token: shown(element), text: shown(element) }
    }
  }
  const cell = ownRowCell(ctx, key)
  if (cell) return cell
  // Only a value shown beside words that mean the key counts (output-evidence.ts); two different
  // values with that evidence are a question, not a pick.
  const found = evidencedValues(ctx.after, ctx.ending.appeared, key, ctx.inputs, {
    stems: ctx.reading.taskStems,
    ...(ctx.ending.messageElement ? { message: ctx.ending.messageElement } : {}),
  })
  const tokens = new Set(found.map((f) => compact(f.token)))
  if (tokens.size > 1) return undefined
  if (found.length === 0) return urlRead(ctx, key)
  return evidencedRead(ctx, key, found[0]!)
}

/** The read step for a value the screen shows: a labelled value whole, or a token inside its text. */
export function evidencedRead(
  ctx: OutputContext,
  key: string,
  found: Evidenced,
): { step: ReadStep; token: string; text: string } | undefined {
  const { element, token } = found
  if (found.pair?.extract || (!found.pair && element.name.trim() !== token)) {
    const shown = element.name
    const { pattern } = generaliseText(shown, ctx.inputs)
    const text = designTextSelector(ctx.after, element, { pattern, match: 'regex' }, `the text “${shown}”`)
    const step: ReadStep = {
      kind: 'read',
      name: `Read “${key}”`,
      target: ownItem(ctx, element, pattern, text),
      into: key,
      extract: found.pair?.extract ?? extractPattern(shown, token, ctx.inputs),
    }
    return { step, token, text: shown }
  }
  const target = rowOrPlace(
    ctx,
    element,
    designPlaceSelector(ctx.after, element, `the “${found.label}” value`),
    key,
  )
  if (!target) return undefined
  return { step: { kind: 'read', name: `Read “${key}”`, target, into: key }, token, text: element.name }
}

const ITEM_ROLES = new Set<UiRole>(['row', 'listitem', 'treeitem'])

/**
 * A generated value shown in a table, in the row that holds the sample's own values, under the
 * column named after the key: the new row's "id" in a table of all rows (phpLiteAdmin shows the
 * table after an insert). Headers may be fewer than cells (a leading "actions" header spanning
 * three cells): they are then aligned from the right.
 */
function ownRowCell(
  ctx: OutputContext,
  key: string,
): { step: ReadStep; token: string; text: string } | undefined {
  const keyStems = stems(key)
  if (keyStems.length === 0) return undefined
  const values = new Set(ctx.inputs.map(norm).filter((v) => v.length >= 2))
  const fresh = new Set(ctx.ending.appeared)
  const index = indexTree(ctx.after)
  for (const table of index.all.filter((e) => e.role === 'table')) {
    const rows = indexTree(table).all.filter((e) => e.role === 'row')
    const cellsOf = (row: UiElement) => row.children.filter((c) => CELLS.has(c.role))
    const header =
      rows.find((r) => cellsOf(r).length > 0 && cellsOf(r).every((c) => c.role === 'columnheader')) ??
      rows.find((r) => cellsOf(r).length > 0)
    if (!header) continue
    const heads = cellsOf(header)
    const column = heads.findIndex((h) => {
      const words = stems(h.name)
      return words.length > 0 && words.length <= 3 && keyStems.every((k) => words.includes(k))
    })
    if (column < 0) continue
    const matches = (row: UiElement) => cellsOf(row).filter((c) => values.has(norm(c.name))).length
    const own = rows
      .filter((r) => r !== header && indexTree(r).all.some((e) => fresh.has(e)) && matches(r) > 0)
      .sort((a, b) => matches(b) - matches(a))
    if (own.length === 0 || (own.length > 1 && matches(own[0]!) === matches(own[1]!))) continue
    const cells = cellsOf(own[0]!)
    const element = cells[column + Math.max(0, cells.length - heads.length)]
    if (!element?.name.trim() || values.has(norm(element.name))) continue
    const { pattern } = generaliseText(element.name, ctx.inputs)
    const place = designPlaceSelector(ctx.after, element, `the “${heads[column]!.name}” cell of the new row`)
    const regex = pattern.startsWith('^') ? pattern : `^${escapeRegex(pattern)}$`
    // The cell under the key's column in the row showing the call's own values: by the column,
    // as a row may hold other values of the same shape (a category number beside the id).
    const step: ReadStep = {
      kind: 'read',
      name: `Read “${key}”`,
      target: ownRowColumn(ctx, element, key) ?? ownItem(ctx, element, regex, place),
      into: key,
    }
    return { step, token: element.name.trim(), text: element.name }
  }
  return undefined
}

/**
 * A value read inside one of a run of like items (a row, a card per record) is read in the item
 * that shows the sample's own value ("the URL in the card titled {{title}}"), so a live call reads
 * its own record's item, not whichever sits there now. Nothing by place stands behind it: when no
 * item shows the call's value, the read fails rather than answer from another record.
 */
function ownItem(ctx: OutputContext, element: UiElement, namePattern: string, fallback: Selector): Selector {
  const index = indexTree(ctx.after)
  const shownIn = (e: UiElement) => indexTree(e).all.flatMap((d) => [d.name, d.value ?? ''])
  for (let item = index.parent.get(element); item; item = index.parent.get(item)) {
    if (!ITEM_ROLES.has(item.role)) continue
    const texts = shownIn(item)
    const own = (ctx.values ?? []).find(
      (v) => v.value.length >= 2 && texts.some((t) => t.includes(v.value)) && !element.name.includes(v.value),
    )
    if (!own) continue
    const fingerprint: Fingerprint = {
      by: 'inRow',
      rowText: `{{${own.path}}}`,
      role: element.role,
      name: namePattern,
      match: 'regex',
    }
    if (!resolvesTo(ctx.after, fingerprint, nestedValue(own), element)) return fallback
    return {
      fingerprints: [fingerprint],
      description: `${fallback.description} in the item showing “${own.value}”`,
    }
  }
  return fallback
}

/** The sample's `expect`, or undefined when it says nothing. */
export function nonEmpty(expect: SampleSpec['expect']): Record<string, unknown> | undefined {
  return expect && Object.keys(expect).length > 0 ? expect : undefined
}

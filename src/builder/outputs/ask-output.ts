// The outputs stage's question (docs/builder.md, "Outputs"): a key of `expect` that nothing on the
// screen evidences is asked about. The person picks one of the values that appeared, or points at
// the value (or the list) on the screen; "none of these" leads to pointing. Nothing is guessed.
import { indexTree } from '../../automation/index.ts'
import type { Selector } from '../../protocol/automation.ts'
import type { UiElement, UiRole } from '../../protocol/elements.ts'
import { askOnScreen, askToPoint } from '../ask/pointing.ts'
import { escapeRegex, extractPattern, generaliseText, idLikeTokens } from '../generalise.ts'
import { designPlaceSelector, designTextSelector } from '../selector-design.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { compact, stems } from '../words.ts'
import { isPropertySheet } from './collections.ts'
import { keyed, labelValuePairs } from './label-values.ts'
import { exactRead, isTypeSpec, listExpected, type OutputContext, type ReadStep } from './outputs.ts'
import { rowOrPlace } from './row-reads.ts'

const CONTROLS = new Set<UiRole>(['button', 'textbox', 'combobox', 'option', 'checkbox', 'radio', 'menuitem'])
const COLLECTIONS = new Set<UiRole>(['table', 'list', 'listbox', 'tree'])
const MAX_OPTIONS = 10

interface Candidate {
  element: UiElement
  token: string
  label: string
  extract?: string
}

/** A read step for `key` chosen or pointed at by the person, or undefined when they cannot. */
export async function askForOutput(
  session: BuildSession,
  ctx: OutputContext,
  key: string,
  expected: unknown,
): Promise<ReadStep | undefined> {
  if (listExpected(expected)) {
    session.progress('outputs', `No list on the screen is clearly “${key}”; asking to point at it`)
    const pointed = await askToPoint(
      session,
      `Point at the list (a table, or its first row) that “${key}” should return, on the screen after “${ctx.submitLabel}”.`,
    )
    return pointed && listRead(pointed.snapshot.root, pointed.element, key, expected)
  }
  const literal = !isTypeSpec(expected)
  const candidates = literal ? [] : valuesShown(ctx)
  if (candidates.length) {
    session.progress(
      'outputs',
      `No label or text after “${ctx.submitLabel}” names “${key}”; asking which value it is`,
      { candidates: candidates.map((c) => c.label) },
    )
    const answer = await askOnScreen(session, {
      kind: 'choose_outputs',
      text: `Which value shown after “${ctx.submitLabel}” should the job return as “${key}”? Nothing there is labelled like it.`,
      options: candidates.map((c, i) => ({ value: String(i), label: c.label })),
      multiple: false,
    })
    if (answer.kind === 'option') {
      const chosen = candidates[Number(answer.value)]
      if (chosen) return candidateRead(ctx, key, chosen)
    }
    if (answer.kind === 'point') return pointedRead(ctx, answer.snapshot.root, answer.element, key, expected)
  }
  const text = literal
    ? `The sample expects “${String(expected)}” for “${key}”, but the screen after “${ctx.submitLabel}” does not show it where I can find it. Point at where it is shown.`
    : `Point at the value that the job should return as “${key}” on the screen after “${ctx.submitLabel}”.`
  const pointed = await askToPoint(session, text)
  return pointed && pointedRead(ctx, pointed.snapshot.root, pointed.element, key, expected)
}

/** Labelled values and id-like tokens that appeared, each once, as the options of the question. */
function valuesShown(ctx: OutputContext): Candidate[] {
  const isInput = (text: string) => ctx.inputs.some((v) => compact(v) === compact(text))
  const fresh = new Set(ctx.ending.appeared)
  const out: Candidate[] = []
  const seen = new Set<string>()
  for (const pair of keyed(labelValuePairs(ctx.after, fresh))) {
    if (isInput(pair.value) || seen.has(compact(pair.value))) continue
    seen.add(compact(pair.value))
    out.push({
      element: pair.element,
      token: pair.value,
      label: `${pair.label}: ${pair.value}`,
      ...(pair.extract ? { extract: pair.extract } : {}),
    })
  }
  for (const element of ctx.ending.appeared) {
    if (CONTROLS.has(element.role)) continue
    for (const token of idLikeTokens(element.name)) {
      if (isInput(token) || seen.has(compact(token))) continue
      seen.add(compact(token))
      out.push({ element, token, label: `${token} (in “${element.name.slice(0, 80)}”)` })
    }
  }
  return out.slice(0, MAX_OPTIONS)
}

function candidateRead(ctx: OutputContext, key: string, c: Candidate): ReadStep {
  const whole = c.element.name.trim() === c.token
  if (whole && !c.extract) {
    const place = designPlaceSelector(ctx.after, c.element, `the value “${c.token}”`)
    // In one of several rows of a list: read in its own row or not at all (rowOrPlace).
    const target = rowOrPlace(ctx, c.element, place, key)
    if (!target) throw refusedInList(c.token)
    return { kind: 'read', name: `Read “${key}”`, target, into: key }
  }
  const { pattern } = generaliseText(c.element.name, ctx.inputs)
  return {
    kind: 'read',
    name: `Read “${key}”`,
    target: designTextSelector(
      ctx.after,
      c.element,
      { pattern, match: 'regex' },
      `the text “${c.element.name}”`,
    ),
    into: key,
    extract: c.extract ?? extractPattern(c.element.name, c.token, ctx.inputs),
  }
}

/** The pointed element read whole; a literal inside a longer text is taken out of it. */
function pointedRead(
  ctx: OutputContext,
  root: UiElement,
  element: UiElement,
  key: string,
  expected: unknown,
): ReadStep | undefined {
  const here = { ...ctx, after: root }
  if (!isTypeSpec(expected)) {
    // The literal, found in what was pointed at (or around it), is the evidence.
    const step = exactRead(
      { ...here, ending: { ...ctx.ending, appeared: [element, ...indexTree(element).all] } },
      key,
      expected,
    )
    if (step) return step
  }
  const shown = element.name || element.value || ''
  if (!shown.trim()) return undefined
  const place = designPlaceSelector(root, element, `the value pointed at (“${shown.slice(0, 60)}”)`)
  const target = rowOrPlace(here, element, place, key)
  if (!target) throw refusedInList(shown)
  return {
    kind: 'read',
    name: `Read “${key}”`,
    target,
    into: key,
    ...(isTypeSpec(expected) &&
    numberish(key, expected) &&
    element.name &&
    idLikeTokens(element.name).length === 1 &&
    element.name.trim() !== idLikeTokens(element.name)[0]
      ? { extract: extractPattern(element.name, idLikeTokens(element.name)[0]!, ctx.inputs) }
      : {}),
  }
}

/**
 * Whether an output pointed at in a longer text is the number in it: a number by its type, or an
 * identifier or a count by its name. A "status" pointed at in "Published (4)" is the text as shown,
 * not the count beside the word (docs/builder.md, "Ask and point").
 */
function numberish(key: string, expected: { $type: string }): boolean {
  if (expected.$type === 'number' || expected.$type === 'integer') return true
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2')
  return /(^|[^a-z])(id|number|no|num|nr|ref|code|count|total|quantity|qty)$/i.test(words)
}

/** The table or list around what was pointed at, read as rows. */
function listRead(root: UiElement, element: UiElement, key: string, expected: unknown): ReadStep | undefined {
  const index = indexTree(root)
  let list: UiElement | undefined = element
  while (list && !COLLECTIONS.has(list.role)) list = index.parent.get(list)
  // One record's fields (a caption and a value on each row) are no list of records: its rows would
  // answer every call with that record's properties. A value there, or anywhere outside a list,
  // may be a list written out in one place.
  if (!list || (list.role === 'table' && isPropertySheet(list)))
    return writtenList(root, element, key, expected)
  return {
    kind: 'read',
    name: `Read the list “${key}”`,
    target: designPlaceSelector(root, list, `the ${list.role} pointed at`),
    source: 'rows',
    into: key,
  }
}

/** What separates the items of a list written out in one place ("Invoices, Scans", "a; b", "a · b"). */
const SEPARATORS = [';', '·', '|', ',']

/**
 * A list written out in one place ("Folders: Invoices, Scans, Contracts"): the value pointed at,
 * split at the separator it shows, read in the row of its caption. Only on evidence that it is a
 * list: the sample's example list is exactly its items, or (for `{"$type": "array"}`) its caption
 * names the key. A value with parts of its own (a row, a card), one with a single item, a number
 * written with a thousands mark ("1,234.50"), or one no caption names is not read as a list.
 */
function writtenList(
  root: UiElement,
  element: UiElement,
  key: string,
  expected: unknown,
): ReadStep | undefined {
  if (indexTree(element).all.some((e) => e !== element && e.name.trim() !== '')) return undefined
  const text = (element.value || element.name).trim()
  const itemsAt = (s: string) =>
    text
      .split(s)
      .map((item) => item.trim())
      .filter((item) => item !== '')
  const example = Array.isArray(expected) ? expected.map((v) => String(v).trim()) : undefined
  const split = SEPARATORS.find((s) => {
    const items = itemsAt(s)
    if (items.length < 2 || (s === ',' && /\d,\d/.test(text))) return false
    return !example || JSON.stringify(items) === JSON.stringify(example)
  })
  if (!split) return undefined
  const caption = captionOf(root, element)
  if (!example && !(caption && stems(caption.name).some((w) => stems(key).includes(w)))) return undefined
  const target: Selector = caption
    ? {
        fingerprints: [
          {
            by: 'inRow',
            rowText: caption.name,
            rowMatch: 'exact',
            role: element.role,
            name: '\\S',
            match: 'regex',
          },
        ],
        description: `the “${caption.name}” value`,
      }
    : designPlaceSelector(root, element, `the list “${key}” pointed at`)
  return { kind: 'read', name: `Read the list “${key}”`, target, split, into: key }
}

/** The row header of the value's row (a record's caption beside its value). */
function captionOf(root: UiElement, element: UiElement): UiElement | undefined {
  const index = indexTree(root)
  let row: UiElement | undefined = element
  while (row && row.role !== 'row') row = index.parent.get(row)
  if (!row) return undefined
  const headers = indexTree(row).all.filter((e) => e.role === 'rowheader' && e.name.trim() !== '')
  return headers.length === 1 && headers[0] !== element ? headers[0] : undefined
}

export { escapeRegex }

/** A value chosen or pointed at in one of several rows that no value of the call picks (rowOrPlace). */
function refusedInList(shown: string): BuildFailure {
  return new BuildFailure(
    'OUTPUT_NOT_FOUND',
    `“${shown.slice(0, 60)}” sits in one of several rows of a list, and no cell of its row shows a value the call sends: ` +
      'another call’s record could sit in that place, so it is not read there. Show the way to a screen with just that record (open it), or send a value its row shows.',
  )
}

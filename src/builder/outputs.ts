// Step 6 of a build: what the job returns, as `read` steps on the screen the submit led to.
// From `expect` when the sample has one (a generated id is found by its shape and the words
// around it); otherwise from the label/value pairs that appeared, confirmed by the person
// teaching, because outputs are the job's API contract.
import { indexTree } from '../automation/index.ts'
import { collapse } from '../automation/text-match.ts'
import type { Step } from '../protocol/automation.ts'
import type { UiElement, UiRole } from '../protocol/elements.ts'
import type { Ending } from './classify.ts'
import { CONFIDENT } from './field-scores.ts'
import { escapeRegex, extractPattern, generaliseText, idLikeTokens } from './generalise.ts'
import { keyed, type LabelValue, labelValuePairs } from './label-values.ts'
import type { PromptReading } from './prompt.ts'
import { designPlaceSelector, designTextSelector } from './selector-design.ts'
import { BuildFailure, type BuildSession } from './session.ts'
import { camelKey, compact, stems, textSimilarity } from './words.ts'

export interface OutputContext {
  ending: Ending
  after: UiElement
  /** The sample's text values (echoes of them are not outputs; in patterns they are wildcards). */
  inputs: string[]
  reading: PromptReading
  submitLabel: string
}

/** `{"$type": "string"}`: a value the app generates, checked by type only. */
export function isTypeSpec(value: unknown): value is { $type: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { $type?: unknown }).$type === 'string'
  )
}

const NOT_VALUES = new Set<UiRole>(['button', 'link', 'textbox', 'combobox', 'option', 'checkbox', 'radio'])
const norm = (text: string) => collapse(text).toLowerCase()

type ReadStep = Extract<Step, { kind: 'read' }>

/** Read steps for the keys of `expect` the ending shows, and the keys it does not. */
export function expectedReads(
  ctx: OutputContext,
  expect: Record<string, unknown>,
): { steps: ReadStep[]; missing: string[] } {
  const steps: ReadStep[] = []
  const missing: string[] = []
  for (const [key, expected] of Object.entries(expect)) {
    const step = isTypeSpec(expected) ? generatedRead(ctx, key) : exactRead(ctx, key, expected)
    if (step) steps.push(step)
    else missing.push(key)
  }
  return { steps, missing }
}

/** Read steps for every key of `expect`; OUTPUT_NOT_FOUND names the keys nothing on screen fits. */
export function readsForExpect(
  session: BuildSession,
  ctx: OutputContext,
  expect: Record<string, unknown>,
): Step[] {
  const { steps, missing } = expectedReads(ctx, expect)
  if (missing.length) {
    const shown =
      ctx.ending.appeared
        .map((e) => `“${e.name}”`)
        .slice(0, 8)
        .join(', ') || 'nothing new'
    const what = missing
      .map((key) =>
        isTypeSpec(expect[key])
          ? `a generated value for “${key}”`
          : `“${String(expect[key])}” (for “${key}”)`,
      )
      .join(', ')
    throw new BuildFailure(
      'OUTPUT_NOT_FOUND',
      `After “${ctx.submitLabel}”, nothing on the screen shows ${what}. What appeared: ${shown}.`,
    )
  }
  for (const step of steps)
    session.progress('outputs', `“${step.into}” is read from ${step.target.description}`, {
      output: step.into,
      extract: step.extract,
    })
  return steps
}

/** The id-like token that appeared nearest to the key's words ("customerId" → C-1042 in "Customer C-1042 created"). */
export function generatedRead(ctx: OutputContext, key: string): ReadStep | undefined {
  return findGenerated(ctx, key)?.step
}

function findGenerated(
  ctx: OutputContext,
  key: string,
): { step: ReadStep; token: string; text: string } | undefined {
  const keyStems = stems(key)
  let best: { element: UiElement; token: string; score: number } | undefined
  for (const element of ctx.ending.appeared) {
    if (NOT_VALUES.has(element.role)) continue
    for (const token of idLikeTokens(element.name)) {
      if (ctx.inputs.some((v) => compact(v) === compact(token))) continue
      const around = stems(element.name.replace(token, ' ')).filter((s) => keyStems.includes(s)).length
      const score =
        around +
        (element === ctx.ending.messageElement ? 1 : 0) +
        (/\p{L}/u.test(token) ? 0.5 : 0) +
        (element.name.length > token.length ? 0.25 : 0)
      if (!best || score > best.score) best = { element, token, score }
    }
  }
  if (!best) return undefined
  const { element, token } = best
  const { pattern } = generaliseText(element.name, ctx.inputs)
  const step: ReadStep = {
    kind: 'read',
    name: `Read “${key}”`,
    target: designTextSelector(ctx.after, element, { pattern, match: 'regex' }, `the text “${element.name}”`),
    into: key,
    extract: extractPattern(element.name, token, ctx.inputs),
  }
  return { step, token, text: element.name }
}

/** An exact expected value: the element showing just it, else a text containing it. */
function exactRead(ctx: OutputContext, key: string, expected: unknown): ReadStep | undefined {
  const want = norm(String(expected))
  const fresh = new Set(ctx.ending.appeared)
  const ordered = [...ctx.ending.appeared, ...indexTree(ctx.after).all.filter((e) => !fresh.has(e))]
  const candidates = ordered.filter((e) => e !== ctx.after && !NOT_VALUES.has(e.role))
  const whole = candidates.find((e) => norm(e.name) === want)
  if (whole)
    return {
      kind: 'read',
      name: `Read “${key}”`,
      target: designPlaceSelector(ctx.after, whole, `the “${key}” value`),
      into: key,
    }
  const inside = ctx.ending.appeared.find((e) => !NOT_VALUES.has(e.role) && norm(e.name).includes(want))
  if (!inside) return undefined
  const value = inside.name.slice(
    norm(inside.name).indexOf(want),
    norm(inside.name).indexOf(want) + want.length,
  )
  const { pattern } = generaliseText(inside.name, [value, ...ctx.inputs])
  return {
    kind: 'read',
    name: `Read “${key}”`,
    target: designTextSelector(ctx.after, inside, { pattern, match: 'regex' }, `the text “${inside.name}”`),
    into: key,
    extract: extractPattern(inside.name, value, ctx.inputs),
  }
}

/** Without `expect`: the pairs that appeared, the prompt's matches first, confirmed by a question. */
export async function askOutputs(session: BuildSession, ctx: OutputContext): Promise<Step[]> {
  const fresh = new Set(ctx.ending.appeared)
  const pairs = keyed(labelValuePairs(ctx.after, fresh))
  const phrases = ctx.reading.returns.map((words) => words.join(' '))
  const suggested = pairs.filter((p) =>
    phrases.some((phrase) => textSimilarity(phrase, p.label) >= CONFIDENT),
  )
  // Things the prompt asks for that no label names: a generated id in a message ("return its id").
  const generated = phrases
    .filter((phrase) => !suggested.some((p) => textSimilarity(phrase, p.label) >= CONFIDENT))
    .flatMap((phrase) => {
      const found = findGenerated(ctx, camelKey(phrase))
      return found ? [{ phrase, ...found }] : []
    })
  const options = [
    ...generated.map((g) => ({
      value: g.step.into,
      label: `${capitalise(g.phrase)}: ${g.token} (in “${g.text}”)`,
    })),
    ...suggested.map(pairOption),
    ...pairs.filter((p) => !suggested.includes(p)).map(pairOption),
  ]
  session.progress('outputs', `Found ${pairs.length} label/value pair(s) after “${ctx.submitLabel}”`, {
    pairs: pairs.map((p) => `${p.label}: ${p.value}`),
    promptAsksFor: phrases,
    suggested: [...generated.map((g) => g.step.into), ...suggested.map((p) => p.key)],
  })
  if (options.length === 0) {
    if (phrases.length === 0) {
      session.progress(
        'outputs',
        'The prompt asks for no values and none appeared; the job returns no outputs',
      )
      return []
    }
    throw new BuildFailure(
      'OUTPUT_NOT_FOUND',
      `The prompt asks for ${phrases.map((p) => `“${p}”`).join(' and ')}, but nothing with a label or an id appeared after “${ctx.submitLabel}”.`,
    )
  }
  const named = [...generated.map((g) => g.phrase), ...suggested.map((p) => p.label)]
  const text = named.length
    ? `Which values should the job return? From your prompt I would pick ${list(named)} (listed first).`
    : `Which of the values that appeared after “${ctx.submitLabel}” should the job return?`
  const answer = await session.ask({ kind: 'choose_outputs', text, options, multiple: true })
  const chosen = new Set(Array.isArray(answer) ? answer : [answer])
  const steps: Step[] = [
    ...generated.filter((g) => chosen.has(g.step.into)).map((g) => g.step),
    ...pairs.filter((p) => chosen.has(p.key)).map((p) => pairRead(ctx.after, p)),
  ]
  session.progress('outputs', `The job returns ${list([...chosen])}, as answered`, { outputs: [...chosen] })
  return steps
}

function pairOption(pair: LabelValue) {
  return { value: pair.key, label: `${pair.label}: ${pair.value}` }
}

function pairRead(root: UiElement, pair: LabelValue): Step {
  const name = `Read “${pair.label}”`
  if (pair.extract) {
    const pattern = `^${escapeRegex(pair.label)}:`
    const target = designTextSelector(
      root,
      pair.element,
      { pattern, match: 'regex' },
      `the “${pair.label}” text`,
    )
    return { kind: 'read', name, target, into: pair.key, extract: pair.extract }
  }
  return {
    kind: 'read',
    name,
    target: designPlaceSelector(root, pair.element, `the “${pair.label}” value`),
    into: pair.key,
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

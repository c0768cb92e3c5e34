// Step 6 of a build without `expect`: the label/value pairs that appeared (and an id the prompt
// asks for that no label names), the prompt's matches first, confirmed by the person teaching in
// one choose_outputs question, because outputs are the job's API contract.
import type { Step } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import { askOnScreen, askToPoint, type ScreenAnswer } from '../ask/pointing.ts'
import { escapeRegex } from '../generalise.ts'
import { CONFIDENT } from '../map/field-scores.ts'
import { designPlaceSelector, designTextSelector } from '../selector-design.ts'
import { BuildFailure, type BuildSession } from '../session.ts'
import { camelKey, textSimilarity } from '../words.ts'
import { keyed, type LabelValue, labelValuePairs } from './label-values.ts'
import { findGenerated, type OutputContext } from './outputs.ts'
import { rowOrPlace } from './row-reads.ts'

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
  // A task that asks for nothing back ("Insert a row …") returns nothing: no question about
  // values nobody asked for. A sample's `expect` (or "… and return X") adds outputs.
  if (phrases.length === 0 && pairs.length > 0) {
    session.progress(
      'outputs',
      `The prompt asks for no values, so the job returns none (${pairs.length} label/value pair(s) appeared; name one in the prompt or in expect to return it)`,
    )
    return []
  }
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
  const answer = await askOnScreen(session, { kind: 'choose_outputs', text, options, multiple: true })
  if (answer.kind !== 'option') return pointedOutputs(session, ctx, phrases, answer)
  const chosen = new Set(answer.values)
  const steps: Step[] = [
    ...generated.filter((g) => chosen.has(g.step.into)).map((g) => g.step),
    ...pairs.filter((p) => chosen.has(p.key)).map((p) => pairRead(ctx.after, p)),
  ]
  session.progress('outputs', `The job returns ${list([...chosen])}, as answered`, { outputs: [...chosen] })
  return steps
}

/**
 * None of the offered values (or one pointed at): each value the prompt asks for is pointed at on
 * the screen, and read from there. Nothing pointed at is a failure that says what to do.
 */
async function pointedOutputs(
  session: BuildSession,
  ctx: OutputContext,
  phrases: string[],
  first: Exclude<ScreenAnswer, { kind: 'option' }>,
): Promise<Step[]> {
  const wanted = phrases.length ? phrases : ['value']
  const steps: Step[] = []
  for (const [i, phrase] of wanted.entries()) {
    const pointed =
      i === 0 && first.kind === 'point'
        ? first
        : await askToPoint(
            session,
            `Point at the ${phrase} the job should return, on the screen after “${ctx.submitLabel}”.`,
          )
    const shown = pointed && (pointed.element.name || pointed.element.value || '')
    if (!pointed || !shown?.trim()) continue
    const key = camelKey(phrase)
    const root = pointed.snapshot.root
    const target = rowOrPlace(
      { ...ctx, after: root },
      pointed.element,
      designPlaceSelector(root, pointed.element, `the ${phrase} pointed at`),
      key,
    )
    if (!target) {
      session.progress(
        'outputs',
        `“${shown.slice(0, 60)}” sits in one of several rows, and no cell of its row shows a value the call sends: another call's row could sit there, so it is not read by its place`,
      )
      continue
    }
    steps.push({ kind: 'read', name: `Read “${key}”`, target, into: key })
    session.progress('outputs', `“${key}” is read from what was pointed at (“${shown.slice(0, 60)}”)`)
  }
  if (steps.length === 0)
    throw new BuildFailure(
      'OUTPUT_NOT_FOUND',
      `None of the values after “${ctx.submitLabel}” is what the job should return, and nothing was pointed at. ` +
        'Say what to return in the sample’s expect (e.g. {"subject": {"$type": "string"}}) and teach again, or show the way to the screen that has it.',
    )
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

// Step 4 of a build: the button that sends the form. Looked for in the smallest part of the
// screen that holds the mapped fields (their form), widening outwards; named like a submit
// (Save, Submit, Search…) or like the task; asked about when two are equally plausible.
import { ancestors, type TreeIndex } from '../automation/element-tree.ts'
import { indexTree } from '../automation/index.ts'
import type { Selector } from '../protocol/automation.ts'
import type { UiElement } from '../protocol/elements.ts'
import type { PromptReading } from './prompt.ts'
import { designSelector } from './selector-design.ts'
import { BuildFailure, type BuildSession } from './session.ts'
import { stems } from './words.ts'

const SUBMIT = new Set(
  stems(
    'save submit create add search find send ok apply confirm go continue done register post update book open next finish',
  ),
)
const NOT_SUBMIT = new Set(
  stems('cancel reset clear back close delete remove discard previous help logout signout abort'),
)

/** A button's plausibility as the submit, or undefined for one that surely is not (Cancel, Back). */
export function submitScore(name: string, reading: PromptReading): number | undefined {
  const words = stems(name)
  if (words.length === 0 || words.some((w) => NOT_SUBMIT.has(w))) return undefined
  const submitLike = words.some((w) => SUBMIT.has(w)) ? 1 : 0
  const task = Math.min(1, words.filter((w) => reading.taskStems.includes(w)).length * 0.5)
  return submitLike + task
}

/** Buttons in the fields' form (or the nearest part of the screen that has any), in screen order. */
export function buttonsNear(root: UiElement, fields: UiElement[]): UiElement[] {
  const index = indexTree(root)
  const scopes = fields.length ? commonAncestors(index, fields) : [root]
  for (const scope of scopes) {
    const buttons = index.all.filter(
      (e) => e.role === 'button' && e.name.trim() !== '' && within(index, scope, e),
    )
    if (buttons.length) return buttons
  }
  return []
}

export async function chooseSubmit(
  session: BuildSession,
  root: UiElement,
  fields: UiElement[],
  reading: PromptReading,
): Promise<{ selector: Selector; label: string }> {
  const buttons = buttonsNear(root, fields)
  const scored = buttons
    .map((element) => ({ element, score: submitScore(element.name, reading) }))
    .filter((b): b is { element: UiElement; score: number } => b.score !== undefined)
  const ranked = [...scored].sort((a, b) => b.score - a.score)
  const excluded = buttons.filter((b) => !scored.some((s) => s.element === b)).map((b) => `“${b.name}”`)
  session.progress(
    'submit',
    `Buttons next to the fields: ${buttons.map((b) => `“${b.name}”`).join(', ') || 'none'}` +
      (excluded.length
        ? ` (${excluded.join(', ')} never ${excluded.length === 1 ? 'sends' : 'send'} a form)`
        : ''),
    {
      buttons: buttons.map((b) => b.name),
      scores: ranked.map((b) => ({ button: b.element.name, score: b.score })),
    },
  )
  const [first, second] = ranked
  const pick = (element: UiElement, why: string) => {
    session.progress('submit', `The form is sent with “${element.name}” (${why})`, { button: element.name })
    return { selector: designSelector(root, element, `the “${element.name}” button`), label: element.name }
  }
  if (first && (!second || (first.score > 0 && first.score - second.score >= 0.5)))
    return pick(first.element, ranked.length === 1 ? 'the only one that can send it' : 'named like a submit')
  const options = (ranked.length ? ranked.map((r) => r.element) : buttons).slice(0, 10)
  if (options.length === 0)
    throw new BuildFailure(
      'NO_SUBMIT',
      'There is no button next to the fields to send them with. Is the form complete on this screen?',
    )
  const answer = await session.ask({
    kind: 'choose_submit',
    text: 'Which button sends this form once the fields are filled in?',
    options: options.map((b, i) => ({ value: String(i), label: b.name })),
    multiple: false,
  })
  return pick(options[Number(answer)] ?? options[0]!, 'as answered')
}

/** The fields' lowest common ancestor (its form, when it has one) and every ancestor above it. */
function commonAncestors(index: TreeIndex, elements: UiElement[]): UiElement[] {
  const chains = elements.map((e) => ancestors(index, e))
  const shared = chains[0]!.filter((a) => chains.every((chain) => chain.includes(a)))
  const form = shared.find((a) => a.role === 'form')
  return form ? shared.slice(shared.indexOf(form)) : shared
}

function within(index: TreeIndex, container: UiElement, element: UiElement): boolean {
  for (let e: UiElement | undefined = element; e; e = index.parent.get(e)) if (e === container) return true
  return false
}

// A caller's words → the app's options of a drop-down or radio group (its step's valueMap): while
// a build maps fields (field-steps.ts), and when a new sample brings a word no option names.
import { lookupPath, mapWord, renderSelector, resolveSelector } from '../../automation/index.ts'
import type { Selector, Step } from '../../protocol/automation.ts'
import type { UiElement } from '../../protocol/elements.ts'
import type { InputLeaf } from '../input-leaves.ts'
import { readControls, type ScreenControl } from '../screen.ts'
import type { BuildSession } from '../session.ts'
import { realOptions } from './field-scores.ts'
import { matchOption, runnerFinds } from './option-match.ts'

const NONE = '(none)'
/** Options listed in a map_option question when none is plausible (a language list has ~40). */
const MAX_OPTIONS = 40

/**
 * The caller's words → the app's options, for the sample's value(s): exact names need no entry
 * (unless only separators differ), one plausible option is taken, anything else is asked. Undefined
 * when the person says none of the options means it (the value does not belong in this control).
 */
export async function optionMap(
  session: BuildSession,
  control: ScreenControl,
  leaf: InputLeaf,
  options: string[],
): Promise<Record<string, string> | undefined> {
  const valueMap: Record<string, string> = {}
  const values = (Array.isArray(leaf.value) ? leaf.value : [leaf.value]).map(String)
  for (const word of values) {
    const match = matchOption(word, options)
    if (match.kind === 'exact') {
      if (!runnerFinds(word, match.option)) valueMap[word] = match.option
      continue
    }
    if (match.kind === 'meaning') {
      valueMap[word] = match.option
      session.progress('map', `“${word}” means “${match.option}” in “${control.label}” (${match.why})`, {
        input: leaf.path,
        field: control.label,
        valueMap: { [word]: match.option },
      })
      continue
    }
    const listed = (match.plausible.length >= 2 ? match.plausible : options).slice(0, MAX_OPTIONS)
    const why =
      match.plausible.length >= 2
        ? `it could be “${match.plausible.slice(0, 3).join('”, “')}”`
        : 'no option is named like it'
    session.progress('map', `Which option of “${control.label}” means “${word}”? (${why}); asking`, {
      input: leaf.path,
      field: control.label,
      plausible: match.plausible,
    })
    const answer = await session.ask({
      kind: 'map_option',
      text: `“${control.label}” has no option called “${word}” (the value of “${leaf.key}”). Which option means “${word}”?`,
      options: [...listed.map((o) => ({ value: o, label: o })), { value: NONE, label: 'None of these' }],
      multiple: false,
    })
    const chosen = Array.isArray(answer) ? answer[0] : answer
    if (!chosen || chosen === NONE || !options.includes(chosen)) {
      session.progress(
        'map',
        `No option of “${control.label}” means “${word}”, as answered: “${leaf.path}” is not used there`,
        {
          input: leaf.path,
          field: control.label,
        },
      )
      return undefined
    }
    valueMap[word] = chosen
    session.progress('map', `“${word}” means “${chosen}” in “${control.label}”, as answered`, {
      input: leaf.path,
      field: control.label,
      valueMap: { [word]: chosen },
    })
  }
  return valueMap
}

/**
 * A drop-down or radio step met a word of a new sample that no option (nor its valueMap) names:
 * on the screen where that step stopped, the word is matched to the option that means it (or
 * asked about, map_option) and the step comes back with the entry added to its valueMap, so
 * live calls that send it work too. Undefined when the step is not such a step, or no option
 * means the word (as answered).
 */
export async function learnOptionWord(
  session: BuildSession,
  root: UiElement,
  step: Step,
  scope: Record<string, unknown>,
): Promise<Step | undefined> {
  if (step.kind !== 'select' && step.kind !== 'check') return undefined
  const template =
    step.kind === 'select' ? step.value : step.target.fingerprints.find((f) => f.by === 'role')?.name
  const path = template ? /^\{\{\s*([\w$-]+(?:\.[\w$-]+)*)\s*\}\}$/.exec(template)?.[1] : undefined
  if (!path) return undefined
  const value = lookupPath(scope, path)
  if (value === undefined || value === null) return undefined
  const controls = readControls(root)
  const control =
    step.kind === 'select'
      ? controlOf(root, controls, step.target, scope)
      : controls.find(
          (c) => c.kind === 'radio-group' && step.target.description === `the “${c.label}” choice`,
        )
  if (!control) return undefined
  const options = control.kind === 'radio-group' ? control.options : realOptions(control)
  const words = (Array.isArray(value) ? value : [value]).map(String)
  const known = step.valueMap ?? {}
  const missing = words.filter((w) => !options.some((o) => runnerFinds(mapWord(w, known), o)))
  if (missing.length === 0) return undefined
  const leaf: InputLeaf = { path, key: path.split('.').at(-1) ?? path, value: missing, source: 'body' }
  const added = await optionMap(session, control, leaf, options)
  if (added === undefined) return undefined
  return { ...step, valueMap: { ...known, ...added } }
}

function controlOf(
  root: UiElement,
  controls: ScreenControl[],
  target: Selector,
  scope: Record<string, unknown>,
): ScreenControl | undefined {
  const found = resolveSelector(root, renderSelector(target, scope))
  return found.status === 'found' ? controls.find((c) => c.element === found.element) : undefined
}

// Step 5 of a build, the doing part: fill the sample in, press the submit, and wait until the
// window has settled (quiet, no busy region, the submit no longer greyed out), bounded by the
// session's settle deadline. Returns the screens before and after for classify.ts to judge.
import { renderSelector, resolveSelector, type TemplateScope } from '../../automation/index.ts'
import { resolveTemplate, TemplateError, toBoolean } from '../../automation/templates.ts'
import { mapWord } from '../../automation/text-match.ts'
import type { Step } from '../../protocol/automation.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { BuildFailure, type BuildSession } from '../session.ts'

/** Performs a fill/select/check/click/keys step the way the runner would; optional ones without input are skipped. */
export async function performStep(session: BuildSession, step: Step, scope: TemplateScope): Promise<void> {
  try {
    switch (step.kind) {
      case 'fill': {
        const value = resolveTemplate(step.value, scope)
        const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)
        await session.act(step.target, { kind: 'fill', value: text }, scope)
        return
      }
      case 'select': {
        const value = resolveTemplate(step.value, scope)
        // The caller's words become the app's options through the step's valueMap, as at run time.
        const values = (Array.isArray(value) ? value : [value]).map((v) => mapWord(String(v), step.valueMap))
        await session.act(step.target, { kind: 'select', values }, scope)
        return
      }
      case 'check': {
        const checked =
          typeof step.checked === 'boolean'
            ? step.checked
            : toBoolean(resolveTemplate(step.checked, scope), step.checked)
        // A radio named by the input ("{{breakfast}}") is found under the app's word for it.
        const target = step.valueMap
          ? renderSelector(step.target, scope, (w) => mapWord(w, step.valueMap))
          : step.target
        await session.act(target, { kind: 'check', checked }, scope)
        return
      }
      case 'click':
        await session.act(step.target, { kind: 'click' }, scope)
        return
      case 'keys':
        if (!step.target)
          throw new BuildFailure('NO_SUBMIT', `Step “${step.name}” has no target to type into`)
        await session.act(step.target, { kind: 'keys', keys: step.keys }, scope)
        return
      case 'navigate': {
        // An address relative to the app is opened against the window's current one, as a run does.
        const here = (await session.snapshot()).window.url
        const url = String(resolveTemplate(step.url, scope))
        await session.navigate(here ? new URL(url, here).href : url)
        return
      }
      default:
        throw new BuildFailure(
          'NO_SUBMIT',
          `The way to the form includes “${step.name}” (a ${step.kind} step), which the builder cannot take while exploring. ` +
            'Teach again and show the way once ("demonstrate": true), or point at the control that opens the form when asked.',
        )
    }
  } catch (error) {
    const optional = 'optional' in step && step.optional
    if (optional && error instanceof TemplateError && error.code === 'INPUT_MISSING') return
    if (error instanceof TemplateError)
      throw new BuildFailure('FIELD_NOT_MAPPED', `Step “${step.name}”: ${error.message}`)
    throw error
  }
}

export interface Observation {
  before: Snapshot
  after: Snapshot
  /** How long the app took to settle after the submit. */
  elapsedMs: number
}

/** Presses the submit and waits for the outcome to settle. */
export async function submitAndObserve(
  session: BuildSession,
  submit: Step,
  scope: TemplateScope,
): Promise<Observation> {
  const before = await session.settle()
  const started = performance.now()
  await performStep(session, submit, scope)
  const target = 'target' in submit ? submit.target : undefined
  const wasDisabled = target ? greyedOut(before.root, target) : false
  const after = await session.settle(
    before.root,
    (root) => !wasDisabled && !!target && greyedOut(root, target),
  )
  return { before, after, elapsedMs: Math.round(performance.now() - started) }
}

/** Whether the selector's element is on screen and disabled (a submit greyed out while saving). */
function greyedOut(
  root: UiElement,
  target: NonNullable<Extract<Step, { kind: 'click' }>['target']>,
): boolean {
  const found = resolveSelector(root, target)
  return found.status === 'found' && found.element.states.includes('disabled')
}

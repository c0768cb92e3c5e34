// UI conditions for wait, assert and branch, evaluated against one snapshot. Conditions test
// presence, so a selector matching several elements counts as present (unlike actions, which
// need exactly one target).
import type { Condition, TextMatch } from '../protocol/automation.ts'
import type { UiElement } from '../protocol/elements.ts'
import { descendants, indexTree } from './element-tree.ts'
import { describeSelector, renderSelector, resolveSelector } from './selectors.ts'
import { renderTemplate, type TemplateScope } from './templates.ts'
import { matchesText } from './text-match.ts'

export interface ConditionResult {
  holds: boolean
  /** What was seen, for step results and error messages. */
  detail: string
}

export function evaluateCondition(
  root: UiElement,
  condition: Condition,
  scope: TemplateScope,
): ConditionResult {
  switch (condition.kind) {
    case 'appears':
    case 'disappears': {
      const selector = renderSelector(condition.target, scope)
      const present = resolveSelector(root, selector).status !== 'not-found'
      const holds = condition.kind === 'appears' ? present : !present
      return { holds, detail: `${describeSelector(selector)} is ${present ? 'present' : 'absent'}` }
    }
    case 'dialog': {
      const dialogs = openDialogs(root)
      if (dialogs.length === 0) return { holds: false, detail: 'no dialog is open' }
      if (condition.text === undefined) return { holds: true, detail: `dialog "${dialogs[0]!.name}" is open` }
      const text = renderTemplate(condition.text, scope)
      const match = dialogs.find((dialog) => shows(dialog, text, condition.match ?? 'contains'))
      return match
        ? { holds: true, detail: `dialog "${match.name}" shows "${text}"` }
        : {
            holds: false,
            detail: `open dialog(s) ${dialogs.map((d) => `"${d.name}"`).join(', ')} do not show "${text}"`,
          }
    }
    case 'text': {
      const text = renderTemplate(condition.text, scope)
      const holds = shows(root, text, condition.match ?? 'contains')
      return { holds, detail: `"${text}" is ${holds ? 'visible' : 'not visible'}` }
    }
    case 'anyOf': {
      const results = condition.conditions.map((inner) => evaluateCondition(root, inner, scope))
      const hit = results.find((result) => result.holds)
      return hit ?? { holds: false, detail: results.map((result) => result.detail).join('; ') }
    }
  }
}

/** Modal dialogs and alert dialogs (native alert/confirm/prompt are modelled as alertdialog). */
export function openDialogs(root: UiElement): UiElement[] {
  return indexTree(root).all.filter(
    (e) => e.role === 'alertdialog' || (e.role === 'dialog' && e.states.includes('modal')),
  )
}

/** Whether the element or anything inside it shows the text (name, value or description). */
function shows(element: UiElement, text: string, mode: TextMatch): boolean {
  return [element, ...descendants(element)].some(
    (e) =>
      matchesText(e.name, text, mode) ||
      (e.value !== undefined && matchesText(e.value, text, mode)) ||
      (e.description !== undefined && matchesText(e.description, text, mode)),
  )
}

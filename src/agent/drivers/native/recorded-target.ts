// What a recording says of the element a person's input went to, named exactly as a snapshot of
// the window names it: the helper's node goes through the same mapping (element-mapping.ts).
import type { UiElement } from '../../../protocol/elements.ts'
import type { HelperEventTarget } from '../../../protocol/helper.ts'
import type { RecordedTarget } from '../../../protocol/recording.ts'
import { type BackendProfile, mapWindowTree } from './element-mapping.ts'

export function recordedTarget(
  target: HelperEventTarget,
  profile: BackendProfile,
): RecordedTarget | undefined {
  const root = mapWindowTree(
    { ref: 'window', role: 'frame', name: '', states: [], children: [target.tree] },
    '',
    { profile, origin: { x: 0, y: 0 }, ref: (ref) => ref },
  )
  // A target that only holds text is read as part of its parent (a label inside a list item).
  const element = findRef(root, target.ref) ?? findRef(root, target.tree.ref)
  if (!element) return undefined
  const recorded: RecordedTarget = { role: element.role, name: element.name }
  if (target.point) recorded.point = target.point
  if (element.automationId) recorded.automationId = element.automationId
  if (element.inputType) recorded.inputType = element.inputType
  if (element.placeholder) recorded.placeholder = element.placeholder
  return recorded
}

function findRef(element: UiElement, ref: string): UiElement | undefined {
  if (element.ref === ref) return element
  for (const child of element.children) {
    const found = findRef(child, ref)
    if (found) return found
  }
  return undefined
}

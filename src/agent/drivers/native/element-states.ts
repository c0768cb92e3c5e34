// The states of a toolkit node as the element tree says them (ARIA's vocabulary), for
// element-mapping.ts: a toggle button that is on is pressed, a switching menu item is checkable, a
// box that cannot be edited is read-only, and a tree's node that can open and is shut is collapsed.
import type { UiRole, UiState } from '../../../protocol/elements.ts'
import type { HelperNode } from '../../../protocol/helper.ts'
import type { BackendProfile } from './element-mapping.ts'

const NODE_ROLES = new Set<UiRole>(['cell', 'row', 'treeitem', 'listitem'])

export function mapStates(node: HelperNode, role: UiRole, profile: BackendProfile): UiState[] {
  const states = new Set<UiState>()
  for (const state of node.states) {
    const mapped = profile.states[state]
    if (mapped) states.add(mapped)
  }
  // A toggle button that is on is pressed, not checked (ARIA's vocabulary).
  if (role === 'button' && states.delete('checked')) states.add('pressed')
  // A menu item or button that switches on and off says so (AT-SPI's checkable, UIA's Toggle
  // pattern); on other roles (a check box) it says nothing new and is left out.
  if (
    (role === 'menuitem' || role === 'button') &&
    (node.states.includes('checkable') ||
      node.actions?.includes('toggle') ||
      profile.checkableRoles?.has(node.role))
  )
    states.add('checkable')
  // A tree's node that can open and is shut says so, as a web tree's aria-expanded="false" does.
  if (NODE_ROLES.has(role) && node.states.includes('expandable') && !states.has('expanded'))
    states.add('collapsed')
  const { editableState } = profile
  if (editableState && (role === 'textbox' || role === 'spinbutton') && !node.states.includes(editableState))
    states.add('readonly')
  return [...states]
}

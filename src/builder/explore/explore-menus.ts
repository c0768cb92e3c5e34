// Menus of a menu bar while exploring: each new menu is opened once to note its items and closed
// again, so an item named like the task ("Accounts…" under "Manage") is tried like a button.
import { resolveSelector } from '../../automation/index.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { actionElements, activeScope } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import type { BuildSession } from '../session.ts'
import { indexOf } from './explore-moves.ts'
import type { Move } from './explore-walk.ts'

/** A menu of the menu bar, opened once to see its items (a desktop app's "Manage › Accounts…"). */
export interface PeekedMenu {
  menu: Move
  /** The screen with the menu open, and the menu's items on it. */
  open: UiElement
  items: UiElement[]
}

/** Menus opened to look at their items on one screen; the rest are left closed. */
const MAX_MENUS = 10

export const actionKey = (e: UiElement) => `${e.role}\u0000${e.name}`

/** Which part of the screen takes input: the open modal dialog's title, or '' for the window. */
export const scopeOf = (root: UiElement) => {
  const scope = activeScope(root)
  return scope === root ? '' : `${scope.role}\u0000${scope.name}\u0001`
}

/**
 * Opens each menu of the screen's menu bar that is new here, notes its items and closes it again
 * (Escape), so items named like the task ("Accounts…" under "Manage") can be tried like buttons.
 * Opening a menu changes nothing in the app; the screen is as it was afterwards.
 */
export async function peekMenus(
  session: BuildSession,
  screen: Snapshot,
  known: Set<string>,
): Promise<PeekedMenu[]> {
  const index = indexOf(screen.root)
  const scope = scopeOf(screen.root)
  const menus = actionElements(screen.root).filter(
    (e) =>
      e.role === 'menuitem' &&
      index.parent.get(e)?.role === 'menubar' &&
      // A web menu bar's item that is a link goes somewhere: it is a move, not a menu to peek into.
      !e.href &&
      e.name.trim() !== '' &&
      e.children.length === 0 &&
      !e.states.includes('disabled') &&
      !known.has(scope + actionKey(e)),
  )
  const peeked: PeekedMenu[] = []
  let current = screen
  for (const element of menus.slice(0, MAX_MENUS)) {
    const menu: Move = {
      selector: designSelector(screen.root, element, `the “${element.name}” menu`),
      label: element.name,
      opensMenu: true,
    }
    await session.act(menu.selector, { kind: 'click' })
    const open = await session.settle(current.root)
    const found = resolveSelector(open.root, menu.selector)
    const items =
      found.status === 'found'
        ? indexOf(found.element).all.filter(
            (e) => e !== found.element && e.role === 'menuitem' && e.name.trim(),
          )
        : []
    peeked.push({ menu, open: open.root, items })
    await session.desktop('Closing a menu', () =>
      session.port.act(session.windowId, { kind: 'keys', keys: 'Escape' }),
    )
    current = await session.settle(open.root)
  }
  if (peeked.length)
    session.progress(
      'explore',
      `Opened the menus to see their items: ${peeked
        .map(
          (p) =>
            `“${p.menu.label}” (${
              p.items
                .map((i) => i.name)
                .slice(0, 12)
                .join(', ') || 'empty'
            })`,
        )
        .join('; ')}`,
      { menus: Object.fromEntries(peeked.map((p) => [p.menu.label, p.items.map((i) => i.name)])) },
    )
  return peeked
}

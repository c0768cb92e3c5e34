// Menus of a menu bar while exploring: each new menu is opened once to note its items and closed
// again, so an item named like the task ("Accounts…" under "Manage") is tried like a button.
import { ancestors } from '../../automation/element-tree.ts'
import { resolveSelector } from '../../automation/index.ts'
import type { Snapshot, UiElement } from '../../protocol/elements.ts'
import { appeared } from '../observe/ui-diff.ts'
import { actionElements, activeScope } from '../screen.ts'
import { designSelector } from '../selector-design.ts'
import type { BuildSession } from '../session.ts'
import { unreachable } from '../session.ts'
import { indexOf, refusal } from './explore-moves.ts'
import type { Move } from './explore-walk.ts'

/** A menu of the menu bar, opened once to see its items (a desktop app's "Manage › Accounts…"). */
export interface PeekedMenu {
  menu: Move
  /** The screen with the menu open, and the menu's items on it. */
  open: UiElement
  items: UiElement[]
  /** The screen before it was opened, when opening it showed fields: a folded section of a form. */
  folded?: UiElement
  /** For a submenu: the menus opened before it, outermost first ("Business" for "Business › Customer"). */
  via?: Move[]
}

/** Menus opened to look at their items on one screen; the rest are left closed. */
const MAX_MENUS = 10
/**
 * Submenus opened inside one menu bar menu: those whose names share words with the task, best
 * first, so an item three levels down ("Business › Customer › New Customer…") is reached.
 */
const MAX_SUBMENUS = 2
/** Drop-downs opened on one screen, the most promising first. */
const MAX_DISCLOSURES = 4
const DISCLOSURES = new Set(['button', 'link', 'menuitem'])
const ITEM_ROLES = new Set(['button', 'link', 'menuitem', 'tab', 'treeitem'])
/** Fields a folded section of a form shows when unfolded. */
const SECTION_FIELDS = new Set(['textbox', 'combobox', 'spinbutton', 'listbox', 'checkbox', 'radio'])

/** A link to another page (not "#", not a script): following it is a move, not a peek. */
function goesElsewhere(e: UiElement): boolean {
  if (!e.href) return false
  return !/^(#|javascript:)/i.test(e.href.trim()) && !/#[^/]*$/.test(e.href)
}

export const actionKey = (e: UiElement) => `${e.role}\u0000${e.name}`

/** Which part of the screen takes input: the open modal dialog's title, or '' for the window. */
export const scopeOf = (root: UiElement) => {
  const scope = activeScope(root)
  return scope === root ? '' : `${scope.role}\u0000${scope.name}\u0001`
}

/**
 * Opens each menu of the screen's menu bar that is new here, and each drop-down that hides its
 * content until pressed (a collapsed "Actions ▾", a navigation entry with a sub-list), notes the
 * actions it shows and closes it again, so items named like the task ("Accounts…" under "Manage",
 * "Add mailbox" under "Mailboxes ▾") can be tried like buttons. Opening a menu changes nothing in
 * the app; the screen is as it was afterwards.
 */
export async function peekMenus(
  session: BuildSession,
  screen: Snapshot,
  known: Set<string>,
  /** How promising a name is for the task: drop-downs are opened best first. */
  score: (name: string) => number = () => 0,
  appUrl?: string,
): Promise<PeekedMenu[]> {
  const index = indexOf(screen.root)
  const scope = scopeOf(screen.root)
  const actions = actionElements(screen.root).filter(
    (e) => e.name.trim() !== '' && !e.states.includes('disabled') && !known.has(scope + actionKey(e)),
  )
  const menus = actions.filter(
    (e) =>
      e.role === 'menuitem' &&
      index.parent.get(e)?.role === 'menubar' &&
      // A web menu bar's item that is a link goes somewhere: it is a move, not a menu to peek into.
      !e.href &&
      e.children.length === 0,
  )
  // A control marked collapsed hides what it holds (aria-expanded="false"); one that is a link to
  // another page goes there instead, and one that leaves the session is never pressed.
  const disclosures = actions
    .filter(
      (e) =>
        DISCLOSURES.has(e.role) &&
        e.states.includes('collapsed') &&
        // A drop-down of a form or an editor's toolbar (a text colour, a section of fields) is
        // part of filling it in, not a way elsewhere.
        !ancestors(index, e).some((a) => a.role === 'form' || a.role === 'toolbar') &&
        !menus.includes(e) &&
        !goesElsewhere(e) &&
        refusal(index, e, appUrl) === undefined,
    )
    .map((e, order) => ({ e, order, score: score(e.name) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_DISCLOSURES)
    .map(({ e }) => e)
  const peeked: PeekedMenu[] = []
  let current = screen
  for (const element of [...menus.slice(0, MAX_MENUS), ...disclosures]) {
    const menu: Move = {
      selector: designSelector(screen.root, element, `the “${element.name}” menu`),
      label: element.name,
      opensMenu: true,
    }
    try {
      await session.act(menu.selector, { kind: 'click' })
    } catch (error) {
      if (unreachable(error)) continue
      throw error
    }
    const open = await session.settle(current.root)
    const found = resolveSelector(open.root, menu.selector)
    const items = menus.includes(element)
      ? found.status === 'found'
        ? indexOf(found.element).all.filter(
            (e) => e !== found.element && e.role === 'menuitem' && e.name.trim(),
          )
        : []
      : // What the drop-down shows: the actions that appeared when it opened.
        appeared(current.root, open.root).filter(
          (e) => ITEM_ROLES.has(e.role) && e.name.trim() !== '' && e.name !== element.name,
        )
    // A drop-down that shows fields rather than actions is a folded section of a form.
    const fields = menus.includes(element)
      ? []
      : appeared(current.root, open.root).filter((e) => SECTION_FIELDS.has(e.role))
    peeked.push({ menu, open: open.root, items, ...(fields.length ? { folded: current.root } : {}) })
    if (menus.includes(element)) peeked.push(...(await peekSubmenus(session, menu, open, items, score)))
    await session.desktop('Closing a menu', () =>
      session.port.act(session.windowId, { kind: 'keys', keys: 'Escape' }),
    )
    current = await session.settle(open.root)
    // A drop-down that Escape does not close is closed the way it was opened.
    const still = resolveSelector(current.root, menu.selector)
    if (!menus.includes(element) && still.status === 'found' && still.element.states.includes('expanded')) {
      await session.act(menu.selector, { kind: 'click' }).catch(() => undefined)
      current = await session.settle(current.root)
    }
  }
  if (peeked.length)
    session.progress(
      'explore',
      `Opened the menus to see their items: ${peeked
        .map(
          (p) =>
            `“${[...(p.via ?? []), p.menu].map((m) => m.label).join(' › ')}” (${
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

/**
 * Opens the submenus of an open menu whose names share words with the task (best first) and notes
 * their items, each closed again with Escape (which closes the innermost menu only). A submenu
 * that shares no word is left closed: its items are reached by a demonstration or a question.
 */
async function peekSubmenus(
  session: BuildSession,
  menu: Move,
  open: Snapshot,
  items: UiElement[],
  score: (name: string) => number,
): Promise<PeekedMenu[]> {
  const submenus = items
    .filter((e) => e.states.includes('collapsed') && !e.states.includes('disabled') && score(e.name) > 0)
    .map((e, order) => ({ e, order, score: score(e.name) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_SUBMENUS)
  const peeked: PeekedMenu[] = []
  let current = open
  for (const { e } of submenus) {
    const submenu: Move = {
      // Designed on the screen the item was found on (a later screen holds other objects).
      selector: designSelector(open.root, e, `the “${e.name}” submenu`),
      label: e.name,
      opensMenu: true,
    }
    try {
      await session.act(submenu.selector, { kind: 'click' })
    } catch (error) {
      if (unreachable(error)) continue
      throw error
    }
    const shown = await session.settle(current.root)
    const known = new Set(items)
    const inner = appeared(current.root, shown.root).filter(
      (i) => i.role === 'menuitem' && i.name.trim() !== '' && !known.has(i) && i.name !== e.name,
    )
    peeked.push({ menu: submenu, open: shown.root, items: inner, via: [menu] })
    await session.desktop('Closing a submenu', () =>
      session.port.act(session.windowId, { kind: 'keys', keys: 'Escape' }),
    )
    current = await session.settle(shown.root)
  }
  return peeked
}

// A tab's snapshot and its refs: each snapshot bumps the tab's generation and names its elements
// `<generation>:<node>`, so a ref from an older snapshot is refused instead of acting on a changed UI.
import { DriverError } from '../../../protocol/driver.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../../protocol/elements.ts'
import { mapAxTree } from './ax-tree.ts'
import { dialogElement } from './dialogs.ts'
import { collectDomFacts } from './dom-facts.ts'
import type { PageTarget } from './page-target.ts'

/**
 * The tab's element tree now (only its native dialog while one is open). Throws BLOCKED_BY_DIALOG
 * when a dialog opens while the tree is read: the caller looks again, at the dialog.
 */
export async function snapshotPage(page: PageTarget, fresh: () => Promise<WindowInfo>): Promise<Snapshot> {
  page.seenSeq = page.changeSeq
  const generation = ++page.generation
  const ref = (part: string | number) => `${generation}:${part}`
  const window = await fresh()
  const capturedAt = new Date().toISOString()
  if (page.dialog) {
    const children = [dialogElement(page.dialog, ref)]
    const root: UiElement = { ref: ref('root'), role: 'window', name: window.title, states: [], children }
    return { window, root, capturedAt }
  }
  const [ax, dom] = await Promise.all([
    page.call('Accessibility.getFullAXTree', {}),
    page.call('DOMSnapshot.captureSnapshot', { computedStyles: [] }),
  ])
  const facts = collectDomFacts(dom)
  const root = mapAxTree(ax.nodes, { facts, ref, rootRef: ref('root'), title: window.title })
  return { window, root, capturedAt }
}

/** The node part of a ref (`root`, a dialog part, or a backend node id) of the tab's latest snapshot. */
export function partOf(ref: string, generation: number): string {
  const colon = ref.indexOf(':')
  if (colon < 0 || Number(ref.slice(0, colon)) !== generation) {
    throw new DriverError('STALE_REF', `Ref ${ref} is not from the latest snapshot of this window`)
  }
  return ref.slice(colon + 1)
}

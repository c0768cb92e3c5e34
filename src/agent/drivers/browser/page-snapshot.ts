// A tab's snapshot and its refs: each snapshot bumps the tab's generation and names its elements
// `<generation>:<node>`, so a ref from an older snapshot is refused instead of acting on a changed UI.
import type { Protocol } from 'devtools-protocol'
import { DriverError } from '../../../protocol/driver.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../../protocol/elements.ts'
import { mapAxTree } from './ax-tree.ts'
import { CdpProtocolError } from './cdp-connection.ts'
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
  const [ax, dom, frames] = await Promise.all([
    page.call('Accessibility.getFullAXTree', {}),
    // The padding is asked for so an inner frame's content is placed inside its <iframe>'s
    // border and padding (dom-facts.ts); DOM rects give the border only.
    page.call('DOMSnapshot.captureSnapshot', {
      computedStyles: ['padding-left', 'padding-top'],
      includeDOMRects: true,
    }),
    frameTrees(page),
  ])
  const facts = collectDomFacts(dom)
  const root = mapAxTree(ax.nodes, { facts, ref, rootRef: ref('root'), title: window.title, frames })
  return { window, root, capturedAt }
}

/** Frames inside frames looked into; deeper ones are not followed. */
const MAX_FRAME_DEPTH = 4

/**
 * The accessibility trees of the tab's inner frames (a message shown in an iframe), by the
 * backendNodeId of the <iframe> that shows each: a person sees their content as part of the page.
 * Frames of another site run in their own process and are not in this tab's tree; they are left out.
 */
async function frameTrees(page: PageTarget): Promise<Map<number, Protocol.Accessibility.AXNode[]>> {
  const trees = new Map<number, Protocol.Accessibility.AXNode[]>()
  const { frameTree } = await page.call('Page.getFrameTree')
  const visit = async (tree: Protocol.Page.FrameTree, depth: number): Promise<void> => {
    if (depth > MAX_FRAME_DEPTH) return
    await Promise.all(
      (tree.childFrames ?? []).map(async (child) => {
        try {
          const [{ backendNodeId }, { nodes }] = await Promise.all([
            page.call('DOM.getFrameOwner', { frameId: child.frame.id }),
            page.call('Accessibility.getFullAXTree', { frameId: child.frame.id }),
          ])
          trees.set(backendNodeId, nodes)
        } catch (error) {
          if (!(error instanceof CdpProtocolError)) throw error
          return
        }
        await visit(child, depth + 1)
      }),
    )
  }
  await visit(frameTree, 1)
  return trees
}

/** The node part of a ref (`root`, a dialog part, or a backend node id) of the tab's latest snapshot. */
export function partOf(ref: string, generation: number): string {
  const colon = ref.indexOf(':')
  if (colon < 0 || Number(ref.slice(0, colon)) !== generation) {
    throw new DriverError('STALE_REF', `Ref ${ref} is not from the latest snapshot of this window`)
  }
  return ref.slice(colon + 1)
}

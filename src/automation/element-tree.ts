// Read-only helpers over one snapshot's element tree: document order, parents, role paths.
import type { PathSegment } from '../protocol/automation.ts'
import type { UiElement } from '../protocol/elements.ts'

export interface TreeIndex {
  root: UiElement
  /** Every element in document order (root first). */
  all: UiElement[]
  parent: Map<UiElement, UiElement>
  order: Map<UiElement, number>
}

const cache = new WeakMap<UiElement, TreeIndex>()

/** Indexes a snapshot tree once; snapshots are never mutated, so the index is cached per root. */
export function indexTree(root: UiElement): TreeIndex {
  const cached = cache.get(root)
  if (cached) return cached
  const index: TreeIndex = { root, all: [], parent: new Map(), order: new Map() }
  const stack: UiElement[] = [root]
  while (stack.length) {
    const element = stack.pop()!
    index.order.set(element, index.all.length)
    index.all.push(element)
    for (let i = element.children.length - 1; i >= 0; i--) {
      const child = element.children[i]!
      index.parent.set(child, element)
      stack.push(child)
    }
  }
  cache.set(root, index)
  return index
}

export function ancestors(index: TreeIndex, element: UiElement): UiElement[] {
  const chain: UiElement[] = []
  for (let p = index.parent.get(element); p; p = index.parent.get(p)) chain.push(p)
  return chain
}

export function descendants(element: UiElement): UiElement[] {
  const out: UiElement[] = []
  const stack = [...element.children].reverse()
  while (stack.length) {
    const next = stack.pop()!
    out.push(next)
    for (let i = next.children.length - 1; i >= 0; i--) stack.push(next.children[i]!)
  }
  return out
}

/** The role/index path from the root to the element: a fingerprint that picks exactly it. */
export function pathTo(index: TreeIndex, element: UiElement): PathSegment[] {
  const segments: PathSegment[] = []
  for (
    let node = element, parent = index.parent.get(node);
    parent;
    node = parent, parent = index.parent.get(node)
  ) {
    const sameRole = parent.children.filter((child) => child.role === node.role)
    segments.unshift({ role: node.role, index: sameRole.indexOf(node) })
  }
  return segments
}

export function followPath(root: UiElement, path: PathSegment[]): UiElement | undefined {
  let node: UiElement | undefined = root
  for (const segment of path) {
    node = node?.children.filter((child) => child.role === segment.role)[segment.index]
    if (!node) return undefined
  }
  return node
}

export function formatPath(path: PathSegment[]): string {
  return path.map((segment) => `${segment.role}[${segment.index}]`).join(' > ')
}

/**
 * Inside a submenu folded away until hovered: a list the browser snapshot marks collapsed
 * (src/agent/drivers/browser/ax-tree.ts, `foldedMenu`).
 */
export function inFoldedMenu(index: TreeIndex, element: UiElement): boolean {
  return ancestors(index, element).some((a) => a.role === 'list' && a.states.includes('collapsed'))
}

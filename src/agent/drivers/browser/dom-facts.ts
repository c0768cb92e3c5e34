// What the accessibility tree does not say about a node, taken from one DOMSnapshot call instead
// of one DOM round trip per node: its DOM id (our automationId) and its on-screen box.
import type { Protocol } from 'devtools-protocol'
import type { Bounds } from '../../../protocol/elements.ts'

export interface DomFacts {
  id?: string
  bounds?: Bounds
}

/** Facts by backendNodeId for the main document; bounds in viewport pixels, like screenshots. */
export function collectDomFacts(
  snapshot: Protocol.DOMSnapshot.CaptureSnapshotResponse,
): Map<number, DomFacts> {
  const facts = new Map<number, DomFacts>()
  const doc = snapshot.documents[0]
  if (!doc) return facts
  const { strings } = snapshot
  const backendIds = doc.nodes.backendNodeId ?? []
  const attributes = doc.nodes.attributes ?? []
  for (let i = 0; i < backendIds.length; i++) {
    const pairs = attributes[i]
    if (!pairs) continue
    for (let a = 0; a + 1 < pairs.length; a += 2) {
      if (strings[pairs[a]!] !== 'id') continue
      const id = strings[pairs[a + 1]!]
      if (id) facts.set(backendIds[i]!, { id })
    }
  }
  // Layout boxes are in document coordinates; the viewport is scrolled by the offsets.
  const scrollX = doc.scrollOffsetX ?? 0
  const scrollY = doc.scrollOffsetY ?? 0
  const { nodeIndex, bounds } = doc.layout
  for (let l = 0; l < nodeIndex.length; l++) {
    const backendId = backendIds[nodeIndex[l]!]
    const rect = bounds[l]
    if (backendId === undefined || !rect || rect.length < 4) continue
    const [x, y, width, height] = rect as [number, number, number, number]
    if (width <= 0 && height <= 0) continue
    const entry = facts.get(backendId) ?? {}
    // A node can own several layout objects (continuations); keep the union of their boxes.
    entry.bounds = union(entry.bounds, {
      x: Math.round(x - scrollX),
      y: Math.round(y - scrollY),
      width: Math.round(width),
      height: Math.round(height),
    })
    facts.set(backendId, entry)
  }
  return facts
}

function union(a: Bounds | undefined, b: Bounds): Bounds {
  if (!a) return b
  const x = Math.min(a.x, b.x)
  const y = Math.min(a.y, b.y)
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  }
}

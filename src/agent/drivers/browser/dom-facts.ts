// What the accessibility tree does not say about a node, taken from one DOMSnapshot call instead
// of one DOM round trip per node: its DOM id (our automationId), its on-screen box, and what
// the HTML says that the accessibility tree does not (placeholder, input type, link target).
import type { Protocol } from 'devtools-protocol'
import type { Bounds } from '../../../protocol/elements.ts'

export interface DomFacts {
  id?: string
  bounds?: Bounds
  placeholder?: string
  /** The HTML input type of an <input> (`text` when it has none). */
  inputType?: string
  /**
   * An <input> with a suggestion list (`list="…"`, a <datalist>) and no ARIA role of its own: a
   * text box whose suggestions may be taken or not, which Chromium names a combo box.
   */
  suggestsOnly?: boolean
  /** A link's target, absolute. */
  href?: string
  /** A link's text, as the page holds it (read also when the link is not shown). */
  text?: string
  /** The links inside this list item, by backendNodeId, in page order (for folded menus, ax-tree.ts). */
  links?: number[]
  /** How many lists (ul, ol, menu) hold this link or list item. */
  listDepth?: number
}

/**
 * Facts by backendNodeId for the main document and the inner frames' documents; bounds in
 * viewport pixels, like screenshots (an inner frame's boxes moved by where its <iframe> shows it).
 */
export function collectDomFacts(
  snapshot: Protocol.DOMSnapshot.CaptureSnapshotResponse,
): Map<number, DomFacts> {
  const facts = new Map<number, DomFacts>()
  const offsets = new Map<number, { x: number; y: number }>([[0, { x: 0, y: 0 }]])
  snapshot.documents.forEach((doc, d) => {
    const offset = offsets.get(d)
    // A frame whose <iframe> has no box (hidden) is not seen.
    if (offset) documentFacts(snapshot.strings, doc, offset, facts, offsets)
  })
  return facts
}

function documentFacts(
  strings: string[],
  doc: Protocol.DOMSnapshot.DocumentSnapshot,
  offset: { x: number; y: number },
  facts: Map<number, DomFacts>,
  offsets: Map<number, { x: number; y: number }>,
): void {
  const backendIds = doc.nodes.backendNodeId ?? []
  const attributes = doc.nodes.attributes ?? []
  const nodeNames = doc.nodes.nodeName ?? []
  const base = strings[doc.baseURL] || strings[doc.documentURL] || undefined
  for (let i = 0; i < backendIds.length; i++) {
    const pairs = attributes[i]
    const tag = strings[nodeNames[i] ?? -1]
    const entry: DomFacts = tag === 'INPUT' ? { inputType: 'text' } : {}
    let list = false
    let aria = false
    for (let a = 0; pairs && a + 1 < pairs.length; a += 2) {
      const name = strings[pairs[a]!]
      const value = strings[pairs[a + 1]!]
      if (name === 'role') aria = true
      if (!value) continue
      if (name === 'list' && tag === 'INPUT') list = true
      if (name === 'id') entry.id = value
      else if (name === 'placeholder') entry.placeholder = value.replace(/\s+/g, ' ').trim() || undefined
      else if (name === 'type' && tag === 'INPUT') entry.inputType = value.toLowerCase()
      else if (name === 'href' && tag === 'A') entry.href = absolute(value, base)
    }
    if (list && !aria) entry.suggestsOnly = true
    if (Object.keys(entry).length > 0) facts.set(backendIds[i]!, entry)
  }
  linkTexts(strings, doc, facts)
  // Layout boxes are in document coordinates; the viewport is scrolled by the offsets.
  const scrollX = (doc.scrollOffsetX ?? 0) - offset.x
  const scrollY = (doc.scrollOffsetY ?? 0) - offset.y
  const { nodeIndex, bounds } = doc.layout
  const inner = new Map<number, number>()
  const owners = doc.nodes.contentDocumentIndex
  owners?.index.forEach((node, k) => {
    inner.set(node, owners.value[k]!)
  })
  for (let l = 0; l < nodeIndex.length; l++) {
    const backendId = backendIds[nodeIndex[l]!]
    const rect = bounds[l]
    if (backendId === undefined || !rect || rect.length < 4) continue
    const [x, y, width, height] = rect as [number, number, number, number]
    const frameDoc = inner.get(nodeIndex[l]!)
    // An inner frame's document starts inside its <iframe>'s border and padding.
    const client = doc.layout.clientRects?.[l]
    if (frameDoc !== undefined && !offsets.has(frameDoc)) {
      const [padLeft, padTop] = (doc.layout.styles[l] ?? []).map(
        (s) => Number.parseFloat(strings[s] ?? '') || 0,
      )
      // Border and padding are CSS pixels; layout boxes are the screen's (device scale factor).
      const cssWidth = doc.layout.offsetRects?.[l]?.[2]
      const scale = cssWidth ? width / cssWidth : 1
      offsets.set(frameDoc, {
        x: x - scrollX + ((client?.[0] ?? 0) + (padLeft ?? 0)) * scale,
        y: y - scrollY + ((client?.[1] ?? 0) + (padTop ?? 0)) * scale,
      })
    }
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
}

/**
 * Each link's text and, for every list item above a link, the links it holds: what a menu folded away
 * by its style (a submenu shown on hover) offers, which the accessibility tree leaves out.
 */
function linkTexts(
  strings: string[],
  doc: Protocol.DOMSnapshot.DocumentSnapshot,
  facts: Map<number, DomFacts>,
): void {
  const backendIds = doc.nodes.backendNodeId ?? []
  const parents = doc.nodes.parentIndex ?? []
  const names = doc.nodes.nodeName ?? []
  const values = doc.nodes.nodeValue ?? []
  const types = doc.nodes.nodeType ?? []
  const isLink = (i: number) =>
    strings[names[i] ?? -1] === 'A' && facts.get(backendIds[i]!)?.href !== undefined
  const depth: number[] = []
  for (let i = 0; i < backendIds.length; i++) {
    const parent = parents[i] ?? -1
    depth[i] = (parent >= 0 ? depth[parent]! : 0) + (LISTS.has(strings[names[i] ?? -1] ?? '') ? 1 : 0)
  }
  const texts = new Map<number, string[]>()
  for (let i = 0; i < backendIds.length; i++) {
    if (types[i] !== 3) continue
    for (let p = parents[i] ?? -1; p >= 0; p = parents[p] ?? -1)
      if (isLink(p)) {
        texts.set(p, texts.get(p) ?? [])
        texts.get(p)!.push(strings[values[i] ?? -1] ?? '')
        break
      }
  }
  for (const [i, parts] of texts) {
    const text = parts.join('').replace(/\s+/g, ' ').trim()
    const entry = facts.get(backendIds[i]!)
    if (!entry || !text) continue
    entry.text = text
    entry.listDepth = depth[i]
    for (let p = parents[i] ?? -1; p >= 0; p = parents[p] ?? -1) {
      if (strings[names[p] ?? -1] !== 'LI') continue
      const item = facts.get(backendIds[p]!) ?? {}
      item.links ??= []
      item.links.push(backendIds[i]!)
      item.listDepth = depth[p]
      facts.set(backendIds[p]!, item)
    }
  }
}

const LISTS = new Set(['UL', 'OL', 'MENU'])

function absolute(href: string, base: string | undefined): string | undefined {
  try {
    return new URL(href, base).href
  } catch {
    return undefined
  }
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

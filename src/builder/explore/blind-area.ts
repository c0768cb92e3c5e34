// A part of the window the accessibility interface shows nothing of: a spreadsheet's grid, a
// canvas, a chart drawn by the app itself. Its content cannot be read or explored, so the builder
// says so plainly and asks to be shown, rather than exploring around it (docs/builder.md, "What
// the accessibility interface cannot see"; issue 24 §7).
import type { Bounds, UiElement, UiRole } from '../../protocol/elements.ts'

/** Roles whose element is its own content (a text area, a list): never a blind area. */
const CONTENT = new Set<UiRole>([
  'textbox',
  'table',
  'row',
  'cell',
  'columnheader',
  'rowheader',
  'list',
  'listitem',
  'listbox',
  'option',
  'tree',
  'treeitem',
  'image',
  'button',
  'link',
  'menuitem',
  'combobox',
  'text',
  'heading',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'tab',
  'progressbar',
])
/** A blind area takes at least this share of the window. */
const MIN_SHARE = 0.4
/** It holds at most this many readable elements (a spreadsheet's grid: a corner label or two). */
const MAX_READABLE = 3
/** What its descendants show covers less than this share of it. */
const MAX_COVERED = 0.05

const area = (b: Bounds | undefined) => (b ? Math.max(0, b.width) * Math.max(0, b.height) : 0)

function clip(b: Bounds, to: Bounds): Bounds {
  const x = Math.max(b.x, to.x)
  const y = Math.max(b.y, to.y)
  return {
    x,
    y,
    width: Math.min(b.x + b.width, to.x + to.width) - x,
    height: Math.min(b.y + b.height, to.y + to.height) - y,
  }
}

/** The largest part of the window that shows nothing readable, with its box, or undefined. */
export function blindArea(root: UiElement): Bounds | undefined {
  const whole = area(root.bounds)
  if (!whole) return undefined
  let found: { bounds: Bounds; size: number } | undefined
  const visit = (e: UiElement) => {
    for (const child of e.children) {
      const size = area(child.bounds)
      if (child.bounds && size >= MIN_SHARE * whole && !CONTENT.has(child.role)) {
        const readable = readableWithin(child)
        const covered = readable.reduce((sum, e) => sum + area(clip(e.bounds!, child.bounds!)), 0)
        if (readable.length <= MAX_READABLE && covered < MAX_COVERED * size) {
          if (!found || size > found.size) found = { bounds: child.bounds, size }
          continue
        }
      }
      visit(child)
    }
  }
  visit(root)
  return found?.bounds
}

/** The readable elements inside (content roles or named, with a box), not looking inside them. */
function readableWithin(e: UiElement): UiElement[] {
  return e.children.flatMap((child) =>
    child.bounds && (CONTENT.has(child.role) || child.name.trim()) ? [child] : readableWithin(child),
  )
}

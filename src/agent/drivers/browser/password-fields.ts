// Where a tab's password fields are, so pictures taken outside a run (the live preview's frames, a
// demonstration's screenshots) can be blacked out there: one query in the page per picture, in
// the driver's isolated world, instead of a snapshot (which costs far more and would make the
// refs a builder or run holds stale).
import { DriverError } from '../../../protocol/driver.ts'
import type { Bounds } from '../../../protocol/elements.ts'
import { CdpProtocolError } from './cdp-connection.ts'
import type { PageTarget } from './page-target.ts'

/** Frames inside frames looked into; deeper ones are not followed. */
const MAX_FRAME_DEPTH = 4

/**
 * Runs in the page (sent as source, so self-contained): the boxes of its password inputs, the
 * fields secret-fields.ts calls secret (inputType `password`), at least partly in view, as
 * [x, y, width, height] in device pixels of the viewport, the pixels of screenshots and snapshot
 * bounds. Open shadow roots and same-origin frames are looked into: a person sees their fields as
 * part of the page. A field scrolled out of view is left out, so its picture needs no painting.
 */
export function passwordFieldBoxes(maxDepth: number): number[][] {
  const boxes: number[][] = []
  const scale = window.devicePixelRatio || 1
  const visit = (root: Document | ShadowRoot, dx: number, dy: number, depth: number): void => {
    for (const field of Array.from(root.querySelectorAll('input[type="password" i]'))) {
      const r = field.getBoundingClientRect()
      const [x, y] = [dx + r.left, dy + r.top]
      const seen = x < innerWidth && y < innerHeight && x + r.width > 0 && y + r.height > 0
      if (r.width > 0 && r.height > 0 && seen)
        boxes.push([x * scale, y * scale, r.width * scale, r.height * scale])
    }
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (el.shadowRoot) visit(el.shadowRoot, dx, dy, depth)
      const inner =
        depth < maxDepth && 'contentDocument' in el ? (el as HTMLIFrameElement).contentDocument : null
      if (!inner) continue
      // The frame's document starts inside its border and padding.
      const r = el.getBoundingClientRect()
      const style = getComputedStyle(el)
      const left = dx + r.left + el.clientLeft + (Number.parseFloat(style.paddingLeft) || 0)
      const top = dy + r.top + el.clientTop + (Number.parseFloat(style.paddingTop) || 0)
      visit(inner, left, top, depth + 1)
    }
  }
  visit(document, 0, 0, 0)
  return boxes
}

const EXPRESSION = `(${passwordFieldBoxes.toString()})(${MAX_FRAME_DEPTH})`

/** The tab's password fields in view now, in screenshot pixels. */
export async function passwordFieldBounds(page: PageTarget): Promise<Bounds[]> {
  const evaluate = (contextId?: number) =>
    page.call('Runtime.evaluate', {
      expression: EXPRESSION,
      returnByValue: true,
      ...(contextId === undefined ? {} : { contextId }),
    })
  const world = page.worldContextId
  const { result, exceptionDetails } = await evaluate(world).catch((error: unknown) => {
    // Our world went with its document a moment ago: the new document's own world answers.
    if (world !== undefined && error instanceof CdpProtocolError) return evaluate()
    throw error
  })
  if (exceptionDetails || !Array.isArray(result.value))
    throw new DriverError(
      'PROTOCOL_ERROR',
      `Cannot find the password fields: ${exceptionDetails?.text ?? 'no answer'}`,
    )
  return (result.value as number[][]).map(([x = 0, y = 0, width = 0, height = 0]) => ({
    x,
    y,
    width,
    height,
  }))
}

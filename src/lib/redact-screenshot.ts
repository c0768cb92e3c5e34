import jpeg from 'jpeg-js'

/** A box in the screenshot's pixels (as the drivers give element bounds). */
export interface RedactBox {
  x: number
  y: number
  width: number
  height: number
}

/** A few pixels around the box, so an anti-aliased edge or a caret shows nothing either. */
const MARGIN = 2

/**
 * Paints each box solid black in a JPEG and re-encodes it: a secret field's pixels never leave
 * the machine that took the picture. Boxes outside the picture are clipped; with none inside,
 * the original bytes come back untouched.
 */
export function redactScreenshot(image: Uint8Array, boxes: readonly RedactBox[], quality = 75): Uint8Array {
  if (boxes.length === 0) return image
  const decoded = jpeg.decode(image, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 512 })
  const { width, height, data } = decoded
  let painted = false
  for (const box of boxes) {
    const x0 = Math.max(0, Math.floor(box.x) - MARGIN)
    const y0 = Math.max(0, Math.floor(box.y) - MARGIN)
    const x1 = Math.min(width, Math.ceil(box.x + box.width) + MARGIN)
    const y1 = Math.min(height, Math.ceil(box.y + box.height) + MARGIN)
    if (x1 <= x0 || y1 <= y0) continue
    painted = true
    for (let y = y0; y < y1; y++) {
      const row = y * width * 4
      for (let x = x0; x < x1; x++) {
        const i = row + x * 4
        data[i] = 0
        data[i + 1] = 0
        data[i + 2] = 0
        data[i + 3] = 255
      }
    }
  }
  if (!painted) return image
  return new Uint8Array(jpeg.encode({ width, height, data }, quality).data)
}

// Reading pictures in tests: how many pixels of a JPEG (a screenshot, a preview frame) have a
// colour, and how dark a box of it is, to check what a picture does and does not show.
import jpeg from 'jpeg-js'

export type Rgb = [r: number, g: number, b: number]

export function decodeJpeg(bytes: Uint8Array): { width: number; height: number; data: Uint8Array } {
  return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true })
}

/** Pixels whose colour passes `is`. */
export function countPixels(bytes: Uint8Array, is: (rgb: Rgb) => boolean): number {
  const { data } = decodeJpeg(bytes)
  let n = 0
  for (let i = 0; i < data.length; i += 4) if (is([data[i]!, data[i + 1]!, data[i + 2]!])) n++
  return n
}

/** The brightest channel value inside a box (0 for a box painted black). */
export function brightestIn(
  bytes: Uint8Array,
  box: { x: number; y: number; width: number; height: number },
): number {
  const { width, data } = decodeJpeg(bytes)
  let max = 0
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++)
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      const i = (y * width + x) * 4
      max = Math.max(max, data[i]!, data[i + 1]!, data[i + 2]!)
    }
  return max
}

/** Strongly of one primary colour: the fills test pages give fields, which JPEG keeps far from grey. */
export const isRed = ([r, g, b]: Rgb) => r > 180 && g < 90 && b < 90
export const isGreen = ([r, g, b]: Rgb) => g > 140 && r < 90 && b < 90
export const isBlue = ([r, g, b]: Rgb) => b > 180 && r < 90 && g < 90
export const isMagenta = ([r, g, b]: Rgb) => r > 180 && b > 180 && g < 90

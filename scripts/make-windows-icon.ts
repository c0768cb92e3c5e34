/**
 * Writes scripts/windows/deskhook.ico, the Windows exe's icon, from the dashboard's own icon
 * (src/dashboard/assets/icon.svg) drawn by Debian's Chromium at the sizes Windows shows (16 to 256
 * pixels), each stored as PNG in the .ico (Windows Vista and later read those). Run it again after
 * the SVG changes; the build stamps the .ico into the exe (scripts/windows-exe.ts).
 *   bun scripts/make-windows-icon.ts
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { defaultExecutablePath, QUIET_BROWSER_FLAGS } from '../src/agent/drivers/browser/launch-browser.ts'

const SIZES = [16, 24, 32, 48, 64, 256]
const root = join(import.meta.dir, '..')
const svg = readFileSync(join(root, 'src/dashboard/assets/icon.svg'), 'utf8')
const out = join(import.meta.dir, 'windows/deskhook.ico')

const browser = await chromium.launch({
  executablePath: defaultExecutablePath(),
  headless: true,
  args: QUIET_BROWSER_FLAGS,
})
const pngs: Buffer[] = []
try {
  const page = await browser.newPage()
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size })
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    )
    pngs.push(
      await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }),
    )
  }
} finally {
  await browser.close()
}

// ICONDIR, one ICONDIRENTRY per image (a width or height of 256 is written as 0), then the PNGs.
const header = Buffer.alloc(6 + 16 * pngs.length)
header.writeUInt16LE(0, 0)
header.writeUInt16LE(1, 2)
header.writeUInt16LE(pngs.length, 4)
let offset = header.length
pngs.forEach((png, i) => {
  const at = 6 + 16 * i
  const size = SIZES[i]!
  header.writeUInt8(size >= 256 ? 0 : size, at)
  header.writeUInt8(size >= 256 ? 0 : size, at + 1)
  header.writeUInt16LE(1, at + 4) // colour planes
  header.writeUInt16LE(32, at + 6) // bits per pixel
  header.writeUInt32LE(png.length, at + 8)
  header.writeUInt32LE(offset, at + 12)
  offset += png.length
})
writeFileSync(out, Buffer.concat([header, ...pngs]))
console.log(`wrote ${out}: ${SIZES.join(', ')} px, ${offset} bytes`)

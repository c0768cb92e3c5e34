/**
 * The agent's own CPU work on a PC, compiled by bench/windows-runtime.ts once per Bun runtime
 * (with AVX2 and without) and run the same way: a big UI Automation window's snapshot line parsed
 * (JSON), mapped into the element model (UIA role table) and searched by a selector, and a
 * 1280×800 screenshot with a password box blacked out (JPEG decode and re-encode). Prints one JSON
 * line: each part's median of `rounds` rounds, in ms.
 */

import jpeg from 'jpeg-js'
import { mapWindowTree } from '../src/agent/drivers/native/element-mapping.ts'
import { UIA_PROFILE } from '../src/agent/drivers/windows/roles.ts'
import { resolveSelector } from '../src/automation/selectors.ts'
import { redactScreenshot } from '../src/lib/redact-screenshot.ts'
import type { HelperNode } from '../src/protocol/helper.ts'
import recorded from '../test/fixtures/uia/wpf-orders.json' with { type: 'json' }

const rounds = Number(process.argv[2] ?? 15)
const window = (recorded as { snapshot: { root: HelperNode } }).snapshot.root

// The recorded window, its content repeated until it holds some 6,000 elements (a grid-heavy app).
let index = 0
const renumber = (node: HelperNode): HelperNode => ({
  ...node,
  ref: `1:${index++}`,
  children: node.children.map(renumber),
})
const big = renumber({ ...window, children: Array.from({ length: 60 }, () => window.children).flat() })
const line = JSON.stringify({
  id: '7',
  ok: true,
  result: { root: big, truncated: false, elementCount: index },
})

const pixels = new Uint8Array(1280 * 800 * 4)
for (let i = 0; i < pixels.length; i += 4) {
  pixels[i] = (i * 7) & 255
  pixels[i + 1] = (i * 13) & 255
  pixels[i + 2] = (i * 31) & 255
  pixels[i + 3] = 255
}
const screenshot = jpeg.encode({ data: pixels, width: 1280, height: 800 }, 75).data

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const time = (work: () => unknown) => {
  work()
  const samples: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    work()
    samples.push(performance.now() - started)
  }
  return median(samples)
}

const snapshot = time(() => {
  const parsed = JSON.parse(line) as { result: { root: HelperNode } }
  const root = mapWindowTree(parsed.result.root, 'Orders', {
    profile: UIA_PROFILE,
    origin: { x: 0, y: 0 },
    ref: (r) => r,
  })
  resolveSelector(root, { fingerprints: [{ by: 'role', role: 'button', name: 'Save' }] })
})
const redaction = time(() => redactScreenshot(screenshot, [{ x: 100, y: 100, width: 300, height: 30 }]))
console.log(JSON.stringify({ elements: index, snapshotMs: snapshot, redactionMs: redaction }))

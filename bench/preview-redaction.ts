/**
 * `bun bench/preview-redaction.ts [frames] [scale] [rows]`: what blacking out password fields costs
 * a live preview frame. Real Chromium (1280×800 window, device scale factor `scale`, 1 by default)
 * on the tests' page with password fields, below which a table of `rows` rows (0 by default; an
 * app's page is rarely that small) makes the page bigger; each frame is timed as the agent
 * captures it:
 *   before    driver.screenshot() alone (no redaction)
 *   after     redactedScreenshot(): the screenshot and one query of the page for the fields'
 *             boxes side by side, then the boxes painted black (JPEG decode + re-encode)
 *   snapshot  the same with the boxes from a full snapshot instead (the runner's way), for scale
 * and, apart, the query alone and the painting alone. Medians of `frames` frames (50 by default).
 */
import { join } from 'node:path'
import { BrowserDriver } from '../src/agent/drivers/browser/index.ts'
import { redactedScreenshot } from '../src/agent/redacted-screenshot.ts'
import { secretFieldBoxes } from '../src/automation/secret-fields.ts'
import { redactScreenshot } from '../src/lib/redact-screenshot.ts'
import { summarize } from './stats.ts'

const PAGE = join(import.meta.dir, '../test/agent/pages/password.html')

async function time(n: number, frame: () => Promise<unknown>): Promise<number[]> {
  await frame() // the first of each kind warms caches up
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    await frame()
    samples.push(performance.now() - started)
  }
  return samples
}

if (import.meta.main) {
  const n = Number(process.argv[2] ?? 50)
  const scale = Number(process.argv[3] ?? 1)
  const rows = Number(process.argv[4] ?? 0)
  const table = Array.from(
    { length: rows },
    (_, i) => `<tr><td>${i}</td><td><a href="#r${i}">Row ${i}</a></td></tr>`,
  )
  const html = (await Bun.file(PAGE).text()).replace(
    '</body>',
    `<table style="position: absolute; top: 400px">${table.join('')}</table></body>`,
  )
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => new Response(html, { headers: { 'content-type': 'text/html' } }),
  })
  const driver = new BrowserDriver({ extraArgs: [`--force-device-scale-factor=${scale}`] })
  try {
    await driver.start()
    const { id } = await driver.launch({ url: `http://127.0.0.1:${server.port}/` })
    const image = await driver.screenshot(id)
    const boxes = await driver.secretFieldBounds(id)
    const timings: [string, number[]][] = [
      ['before: screenshot only', await time(n, () => driver.screenshot(id))],
      ['after: redacted frame', await time(n, () => redactedScreenshot(driver, id))],
      [
        'with a snapshot instead of the query',
        await time(n, async () => {
          const [shot, snapshot] = await Promise.all([driver.screenshot(id), driver.snapshot(id)])
          return redactScreenshot(shot, secretFieldBoxes(snapshot.root))
        }),
      ],
      ['  the query alone (secretFieldBounds)', await time(n, () => driver.secretFieldBounds(id))],
      ['  a snapshot alone', await time(n, () => driver.snapshot(id))],
      [
        '  the painting alone (decode + re-encode)',
        await time(n, async () => redactScreenshot(image, boxes)),
      ],
    ]
    const page = `${boxes.length} password fields${rows ? ` and a table of ${rows} rows` : ''}`
    console.log(`${n} frames, 1280×800 window at device scale factor ${scale}, ${page}`)
    for (const [label, samples] of timings) {
      const t = summarize(samples)
      console.log(
        `${label.padEnd(44)} median ${t.p50Ms.toFixed(1).padStart(6)} ms   p99 ${t.p99Ms.toFixed(1)} ms`,
      )
    }
  } finally {
    await driver.stop()
    server.stop(true)
  }
}

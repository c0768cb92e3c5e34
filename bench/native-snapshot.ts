/**
 * `bun bench/native-snapshot.ts [count]`: how long the Linux desktop driver takes to snapshot a
 * large native window — gtk3-widget-factory on its biggest page (the one with the most elements),
 * through the real helper on a headless desktop. The time is the driver's snapshot() as the agent
 * sees it: the AT-SPI walk in the helper, the JSON line, the mapping into the element model.
 */
import { startTestDesktop } from '../scripts/test-desktop.ts'
import { createLinuxDesktopDriver } from '../src/agent/drivers/linux/index.ts'
import type { NativeDriver } from '../src/agent/drivers/native/native-driver.ts'
import { createLogger } from '../src/lib/logger.ts'
import type { UiElement } from '../src/protocol/elements.ts'
import { tempDir } from '../test/helpers/temp-dir.ts'
import { type Latency, summarize } from './stats.ts'

export interface SnapshotTiming {
  page: string
  elements: number
  latency: Latency
}

const count = (e: UiElement): number => 1 + e.children.reduce((sum, c) => sum + count(c), 0)

/** Shows each page of the widget factory, keeps the one with the most elements, snapshots it `n` times. */
export async function measureWidgetFactory(driver: NativeDriver, n: number): Promise<SnapshotTiming> {
  const window = await driver.launch({ executable: 'gtk3-widget-factory' })
  let biggest = { page: '', elements: 0 }
  for (const page of ['Page 1', 'Page 2', 'Page 3']) {
    const snapshot = await driver.snapshot(window.id)
    const radio = flat(snapshot.root).find((e) => e.role === 'radio' && e.name === page)
    if (!radio) throw new Error(`no ${page} switch in gtk3-widget-factory`)
    await driver.act(window.id, { kind: 'click', ref: radio.ref })
    const elements = count((await driver.snapshot(window.id)).root)
    if (elements > biggest.elements) biggest = { page, elements }
  }
  const shown = await driver.snapshot(window.id)
  const radio = flat(shown.root).find((e) => e.role === 'radio' && e.name === biggest.page)!
  await driver.act(window.id, { kind: 'click', ref: radio.ref })
  await driver.snapshot(window.id) // the first read of a page fills the toolkit's caches
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    await driver.snapshot(window.id)
    samples.push(performance.now() - started)
  }
  return { ...biggest, latency: summarize(samples) }
}

export function describeTiming(t: SnapshotTiming): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`
  return (
    `gtk3-widget-factory ${t.page} (${t.elements} elements): ${t.latency.n} snapshots, ` +
    `p50 ${ms(t.latency.p50Ms)}, p99 ${ms(t.latency.p99Ms)}, mean ${ms(t.latency.meanMs)}, max ${ms(t.latency.maxMs)}`
  )
}

function flat(e: UiElement): UiElement[] {
  return [e, ...e.children.flatMap(flat)]
}

if (import.meta.main) {
  const n = Number(process.argv[2] ?? 100)
  const desktop = await startTestDesktop()
  const state = tempDir('deskhook-bench-')
  const driver = createLinuxDesktopDriver({
    stateDir: state.path,
    log: createLogger({ level: 'warn', format: 'json', destination: process.stderr }),
    env: desktop.env,
  })
  try {
    await driver.start()
    console.log(describeTiming(await measureWidgetFactory(driver, n)))
  } finally {
    await driver.stop()
    await desktop.stop()
    state.remove()
  }
}

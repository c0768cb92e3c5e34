import { expect, test } from 'bun:test'
import { describeTiming, measureWidgetFactory } from '../../../bench/native-snapshot.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'

/** Snapshot time of a large native window, printed for the record; machines differ, so no bound is asserted. */
const native = useNativeDesktop()

test('100 snapshots of gtk3-widget-factory on its biggest page', async () => {
  const driver = native.driver()
  await driver.start()
  const timing = await measureWidgetFactory(driver, 100)
  console.log(describeTiming(timing))
  expect(timing.latency.n).toBe(100)
  expect(timing.elements).toBeGreaterThan(150)
}, 120_000)

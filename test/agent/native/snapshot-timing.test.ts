import { expect, test } from 'bun:test'
import { describeTiming, measureWidgetFactory } from '../../../bench/native-snapshot.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'

/**
 * Snapshots of a large native window work, and their time is printed for the record (machines
 * differ, so no bound is asserted). The benchmark proper, with more samples, is
 * `bun bench/native-snapshot.ts 100`; 20 here keep CI short.
 */
const native = useNativeDesktop()

test('20 snapshots of gtk3-widget-factory on its biggest page', async () => {
  const driver = native.driver()
  await driver.start()
  const timing = await measureWidgetFactory(driver, 20)
  console.log(describeTiming(timing))
  expect(timing.latency.n).toBe(20)
  expect(timing.elements).toBeGreaterThan(150)
}, 120_000)

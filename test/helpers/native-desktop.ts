// One headless Linux desktop (Xvfb + D-Bus + AT-SPI, scripts/test-desktop.ts) per test file:
// started in beforeAll, ended in afterAll with every app still on it.
import { afterAll, beforeAll } from 'bun:test'
import { startTestDesktop, type TestDesktop } from '../../scripts/test-desktop.ts'
import { createLinuxDesktopDriver, type LinuxDesktopOptions } from '../../src/agent/drivers/linux/index.ts'
import type { NativeDriver } from '../../src/agent/drivers/native/native-driver.ts'
import { createLogger, type Logger } from '../../src/lib/logger.ts'
import { tempDir } from './temp-dir.ts'

export interface NativeDesktop {
  /** The running desktop (after beforeAll). */
  readonly desktop: TestDesktop
  /** A Linux desktop driver on this desktop, with its own state dir; stopped in afterAll. */
  driver(options?: Partial<LinuxDesktopOptions>): NativeDriver
}

/** Logs to stderr when DESKHOOK_TEST_LOGS is set, else nowhere. */
export function testLogger(): Logger {
  return createLogger({
    level: process.env.DESKHOOK_TEST_LOGS ? 'debug' : 'silent',
    format: 'json',
    destination: process.stderr,
  })
}

export function useNativeDesktop(): NativeDesktop {
  let desktop: TestDesktop | undefined
  const drivers: NativeDriver[] = []
  const dirs: { remove(): void }[] = []
  beforeAll(async () => {
    desktop = await startTestDesktop()
  }, 30_000)
  afterAll(async () => {
    for (const driver of drivers) await driver.stop().catch(() => {})
    await desktop?.stop()
    for (const dir of dirs) dir.remove()
  }, 30_000)
  return {
    get desktop() {
      if (!desktop) throw new Error('the test desktop is not started (use it inside tests or beforeAll)')
      return desktop
    },
    driver(options = {}) {
      const state = tempDir('deskhook-native-')
      dirs.push(state)
      const driver = createLinuxDesktopDriver({
        stateDir: state.path,
        log: testLogger(),
        env: this.desktop.env,
        ...options,
      })
      drivers.push(driver)
      return driver
    },
  }
}

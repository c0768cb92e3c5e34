// Pictures that leave the agent outside a run, a demonstration's screenshots and the live
// preview's frames, with the window's secret fields blacked out, as a run's step screenshots are
// (automation/runner.ts): the promise is that no picture the server keeps or shows holds a password.
import { secretFieldBoxes } from '../automation/secret-fields.ts'
import { redactScreenshot } from '../lib/redact-screenshot.ts'
import type { Driver } from '../protocol/driver.ts'

/**
 * A screenshot of the window with its secret fields painted over. Where they are is asked of the
 * driver alongside the picture (its cheap lookup; a snapshot from a driver without one). When that
 * fails, so does the picture: none is better than one that may show a password.
 */
export async function redactedScreenshot(driver: Driver, windowId: string): Promise<Uint8Array> {
  const boxes = driver.secretFieldBounds
    ? driver.secretFieldBounds(windowId)
    : driver.snapshot(windowId).then((snapshot) => secretFieldBoxes(snapshot.root))
  const [image, found] = await Promise.all([driver.screenshot(windowId), boxes])
  return redactScreenshot(image, found)
}

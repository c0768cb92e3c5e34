import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import { redactedScreenshot } from '../../../src/agent/redacted-screenshot.ts'
import { secretFieldBoxes } from '../../../src/automation/secret-fields.ts'
import type { Bounds, Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import { brightestIn } from '../../helpers/jpeg-pixels.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/**
 * Pictures of a native window sent outside a run (a demonstration's screenshots, the live
 * preview's frames) with its password field blacked out: a `yad --form` with a filled password
 * field (AT-SPI "password text") under Xvfb. The driver tells where such fields are from the
 * window's latest snapshot, so a frame costs no walk of the tree and no ref goes stale.
 */
const native = useNativeDesktop()
const dir = tempDir('deskhook-secret-shots-')
let driver: NativeDriver

beforeAll(async () => {
  driver = native.driver()
  await driver.start()
}, 30_000)
afterAll(() => dir.remove())

function signIn() {
  const yad = [
    'yad',
    '--form',
    '--title=Sign in',
    '--field=User',
    '--field=Password:H',
    'ada',
    'hunter2hunter2',
  ]
  return { executable: '/bin/sh', args: ['-c', 'exec "$@" > "$0"', join(dir.path, 'out.txt'), ...yad] }
}

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const field = (snapshot: Snapshot, name: string) =>
  flat(snapshot.root).find((e) => e.role === 'textbox' && e.name === name)!
/** The box without its outer pixels (the frame the toolkit draws around an entry). */
const inner = (b: Bounds): Bounds => ({ x: b.x + 4, y: b.y + 4, width: b.width - 8, height: b.height - 8 })

describe('password fields in pictures of a native window', () => {
  test('found from the latest snapshot (one is taken for a window not yet read), refs kept', async () => {
    const window = await driver.launch(signIn())
    // Nobody has read the window yet: the driver reads it once.
    const first = await driver.secretFieldBounds(window.id)
    const snapshot = await driver.snapshot(window.id)
    const password = field(snapshot, 'Password')
    expect(password.inputType).toBe('password')
    expect(first).toEqual([password.bounds!])
    // From then on it answers from what the latest snapshot found: that snapshot's refs still act.
    expect(await driver.secretFieldBounds(window.id)).toEqual(secretFieldBoxes(snapshot.root))
    await driver.act(window.id, { kind: 'fill', ref: field(snapshot, 'User').ref, value: 'grace' })
  }, 60_000)

  test('a redacted screenshot is black over the password field and shows the rest', async () => {
    const window = await driver.launch(signIn())
    const snapshot = await driver.snapshot(window.id)
    const [password, user] = [field(snapshot, 'Password').bounds!, field(snapshot, 'User').bounds!]
    // What there is to hide: a light entry with dots in a plain screenshot.
    expect(brightestIn(await driver.screenshot(window.id), inner(password))).toBeGreaterThan(150)
    const redacted = await redactedScreenshot(driver, window.id)
    expect(brightestIn(redacted, password)).toBeLessThan(30)
    expect(brightestIn(redacted, inner(user))).toBeGreaterThan(150)
  }, 60_000)
})

import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { InputEvent } from '../../../src/protocol/recording.ts'
import { eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'

/**
 * Recording a click in a Qt 5 menu (test/fixtures/native/qt-menu-app.py, PyQt5 under Xvfb, through
 * the AT-SPI helper). Qt's menu dropped from the menu bar is a 'popup menu' (GTK's is a 'menu'),
 * and it lies over the window's text area: a click on its item is on the item, not on the text
 * area a hit test from the window finds under it. The GTK side is in menus.test.ts.
 */
const native = useNativeDesktop()
let driver: NativeDriver
const APP = {
  executable: '/usr/bin/python3',
  args: [join(import.meta.dir, '../../fixtures/native/qt-menu-app.py')],
}

beforeAll(async () => {
  driver = native.driver()
  await driver.start()
}, 30_000)

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]

describe('menus of a Qt 5 app', () => {
  test('recording: a click on “Search › Replace…” is on that menu item, not on the text area under the open menu', async () => {
    const window = await driver.launch(APP)
    expect(window.title).toBe('Qt Menu App')
    const events: InputEvent[] = []
    const stop = await driver.watchInput(window.id, (event) => events.push(event))
    /** The element named so with bounds on screen, once the window shows it. */
    const shown = (name: string) =>
      eventually(async () => {
        const screen = await driver.snapshot(window.id)
        return flat(screen.root).find((e) => e.name === name && e.bounds && e.bounds.width > 0)
      }, 10_000)
    /** A real click at the element's centre, once the watch has reported it (as whatever it was on). */
    let clicked = 0
    const clickOn = async (name: string) => {
      const b = (await shown(name)).bounds!
      const point = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) }
      await driver.input(window.id, { kind: 'click', ...point })
      await eventually(async () => events.filter((e) => e.kind === 'click').length > clicked, 5_000)
      clicked++
      return point
    }
    let replace: { x: number; y: number }
    try {
      await clickOn('Search')
      // The item shows only while Search's menu is open, over the text area.
      replace = await clickOn('Replace…')
      // The item did its work: the Replace dialog is open, with its box.
      const dialog = await eventually(
        async () => (await driver.listWindows()).find((w) => w.title === 'Replace'),
        10_000,
      )
      const box = flat((await driver.snapshot(dialog.id)).root).filter((e) => e.role === 'textbox')
      expect(box.map((e) => e.name)).toEqual(['Replace:'])
    } finally {
      await stop()
    }
    const clicks = events.filter((e) => e.kind === 'click')
    expect(clicks.map((e) => `${e.target?.role} ${e.target?.name}`)).toEqual([
      'menuitem Search',
      'menuitem Replace…',
    ])
    expect(clicks[1]?.target?.point).toEqual(replace)
  }, 60_000)
})

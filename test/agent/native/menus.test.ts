import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import { Recorder } from '../../../src/agent/recorder.ts'
import type { DesktopPort } from '../../../src/builder/contract.ts'
import { peekMenus } from '../../../src/builder/explore/explore-menus.ts'
import { moveScore } from '../../../src/builder/explore/explore-moves.ts'
import { readPrompt } from '../../../src/builder/locate/prompt.ts'
import { BuildSession } from '../../../src/builder/session.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { InputEvent } from '../../../src/protocol/recording.ts'
import { scriptedIO } from '../../builder/scripted-io.ts'
import { eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'

/**
 * Exploring a real GTK menu bar (test/fixtures/native/menu-app.py) through the Linux desktop
 * driver: an item three levels down ("Business › Customer › New Customer…") is found by opening
 * the submenus whose names share words with the task, and a check item ("View › Toolbar") is
 * known as a setting. The builder's session runs on the driver itself (no server needed).
 */
const native = useNativeDesktop()
let driver: NativeDriver
const APP = {
  executable: '/usr/bin/python3',
  args: [join(import.meta.dir, '../../fixtures/native/menu-app.py')],
}

beforeAll(async () => {
  driver = native.driver()
  await driver.start()
}, 30_000)

/** The builder's desktop port straight on the driver. */
const port = (d: NativeDriver): DesktopPort => ({
  name: 'menu-test',
  listWindows: () => d.listWindows(),
  launch: (app) => d.launch(app),
  navigate: () => Promise.reject(new Error('no addresses')),
  snapshot: (id) => d.snapshot(id),
  act: (id, action) => d.act(id, action),
  waitForChange: (id, ms) => d.waitForChange(id, ms),
  run: () => Promise.reject(new Error('not used')),
})

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]

describe('menus and start-up dialogs of a native app', () => {
  test('a submenu named like the task is opened: “Business › Customer” lists “New Customer…”', async () => {
    const reading = readPrompt('Add a customer in the menu test app')
    const session = new BuildSession(port(driver), scriptedIO().io, {
      prompt: reading.text,
      sample: { id: 's', input: { name: 'Ada' } },
      previous: [],
    })
    await session.launch(APP)
    const screen = await session.snapshot()
    const peeked = await peekMenus(session, screen, new Set(), (name) => moveScore(reading, name))
    const customer = peeked.find((p) => p.menu.label === 'Customer')
    expect(customer?.via?.map((m) => m.label)).toEqual(['Business'])
    expect(customer?.items.map((i) => i.name)).toEqual(['New Customer…', 'Find Customer…'])
    // “Vendor” shares no word with the task: it stays closed.
    expect(peeked.some((p) => p.menu.label === 'Vendor')).toBe(false)
    // Every menu is closed again: the window is as it was.
    const after = await session.snapshot()
    expect(flat(after.root).filter((e) => e.role === 'menuitem' && e.bounds && e.bounds.y > 40)).toEqual([])
    // The way found is one a run can take: the menu, the submenu, the item, each by its selector.
    const item = customer!.items.find((i) => i.name === 'New Customer…')!
    const { designSelector } = await import('../../../src/builder/selector-design.ts')
    for (const move of [...customer!.via!, customer!.menu]) {
      await session.act(move.selector, { kind: 'click' })
      await session.settle((await session.snapshot()).root)
    }
    await session.act(designSelector(customer!.open, item, 'the item'), { kind: 'click' })
    // Its dialog opens as a window of its own.
    await eventually(async () => (await driver.listWindows()).some((w) => w.title === 'New Customer'), 10_000)
  }, 60_000)

  test('a submenu is marked as one, and a check item is a setting (checkable)', async () => {
    const window = await driver.launch(APP)
    const bar = await driver.snapshot(window.id)
    const named = (root: UiElement, name: string) => flat(root).find((e) => e.name === name)!
    await driver.act(window.id, { kind: 'click', ref: named(bar.root, 'Business').ref })
    await driver.waitForChange(window.id, 2_000)
    const business = await driver.snapshot(window.id)
    expect(named(business.root, 'Customer').states).toContain('collapsed')
    await driver.act(window.id, { kind: 'keys', keys: 'Escape' })
    await driver.waitForChange(window.id, 2_000)
    const closed = await driver.snapshot(window.id)
    await driver.act(window.id, { kind: 'click', ref: named(closed.root, 'View').ref })
    await driver.waitForChange(window.id, 2_000)
    const view = await driver.snapshot(window.id)
    expect(named(view.root, 'Toolbar').states).toContain('checkable')
    await driver.act(window.id, { kind: 'keys', keys: 'Escape' })
  }, 60_000)

  test('recording: a click on an item of an open menu is on that item, not on the text area under the menu', async () => {
    const window = await driver.launch(APP)
    const events: InputEvent[] = []
    const stop = await driver.watchInput(window.id, (event) => events.push(event))
    const named = (root: UiElement, name: string) => flat(root).find((e) => e.name === name)!
    const clickOn = async (name: string) => {
      const b = named((await driver.snapshot(window.id)).root, name).bounds!
      await driver.input(window.id, { kind: 'click', x: b.x + b.width / 2, y: b.y + b.height / 2 })
      await eventually(
        async () => events.some((e) => e.kind === 'click' && e.target?.name === name),
        5_000,
      ).catch(() => undefined)
    }
    try {
      await clickOn('Business')
      await clickOn('Customer')
      await clickOn('Find Customer…')
    } finally {
      await stop()
    }
    const clicks = events.filter((e) => e.kind === 'click').map((e) => `${e.target?.role} ${e.target?.name}`)
    expect(clicks).toEqual(['menuitem Business', 'menuitem Customer', 'menuitem Find Customer…'])
  }, 60_000)

  test('an app that opens a sign-in dialog at start is launched at its main window, the dialog inside it', async () => {
    const app = {
      executable: '/usr/bin/python3',
      args: [join(import.meta.dir, '../../fixtures/native/signin-app.py')],
    }
    const window = await driver.launch(app)
    expect(window.title).toBe('Ledger')
    const screen = await driver.snapshot(window.id)
    expect(flat(screen.root).some((e) => e.role === 'dialog' && e.name === 'Sign in')).toBe(true)
  }, 60_000)

  test('an app that shows a splash window while it loads is launched at the main window that follows', async () => {
    const app = {
      executable: '/usr/bin/python3',
      args: [join(import.meta.dir, '../../fixtures/native/signin-app.py'), 'splash'],
    }
    const window = await driver.launch(app)
    expect(window.title).toBe('Ledger')
  }, 60_000)

  test('a sign-in dialog alone at start gives way to the main window: the window held is then the main one', async () => {
    const app = {
      executable: '/usr/bin/python3',
      args: [join(import.meta.dir, '../../fixtures/native/signin-app.py'), 'login'],
    }
    const dialog = await driver.launch(app)
    expect(dialog.title).toBe('Sign in')
    const signIn = await driver.snapshot(dialog.id)
    await driver.act(dialog.id, { kind: 'click', ref: flat(signIn.root).find((e) => e.name === 'OK')!.ref })
    // The dialog closed: that is a change, and the app's main window stands for it from now on.
    expect(await driver.waitForChange(dialog.id, 5_000)).toBe('changed')
    const main = await eventually(async () => {
      const screen = await driver.snapshot(dialog.id).catch(() => undefined)
      return screen?.window.title === 'Ledger' && screen
    }, 10_000)
    expect(flat(main.root).some((e) => e.name === 'Accounts')).toBe(true)
    // A demonstration started on the window held records the main window: the recorder is
    // given the window the build held, which is gone (Tryton's client asked for a demonstration
    // on its closed sign-in dialog, and the recording could not start).
    const recorder = new Recorder(driver, createLogger({ level: 'silent', format: 'json' }))
    expect((await recorder.recordStart(dialog.id)).recording).toBe(true)
    const recording = await recorder.recordStop()
    expect(recording.snapshots[0]!.window.title).toBe('Ledger')
    expect(recording.window.title).toBe('Ledger')
  }, 60_000)
})

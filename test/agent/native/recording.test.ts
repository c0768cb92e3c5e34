import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import type { InputEvent } from '../../../src/protocol/recording.ts'
import { eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/**
 * "Show me" on a native window (Debian's yad under Xvfb, through the AT-SPI helper): the app is
 * driven only through `driver.input()` (real X input at window pixels taken from a snapshot, as
 * the dashboard's live preview sends it) and what `watchInput` reported is checked, down to the
 * names the snapshot gives. A separate X client stands in for a person at the PC.
 */
const native = useNativeDesktop()
const dir = tempDir('deskhook-recording-')
/** Everything the driver and its helper logged: a password must not be in it. */
const logLines: string[] = []
let driver: NativeDriver

beforeAll(async () => {
  const destination = {
    write(chunk: string) {
      logLines.push(chunk)
      return true
    },
  } as unknown as NodeJS.WritableStream
  driver = native.driver({ log: createLogger({ level: 'debug', format: 'json', destination }) })
  await driver.start()
}, 30_000)
afterAll(() => dir.remove())

function form(output: string, fields: string[], values: string[]) {
  const yad = ['yad', '--form', '--title=Sign up', ...fields.map((f) => `--field=${f}`), ...values]
  // The shell only sends yad's answer to a file, then becomes yad (same process).
  return { executable: '/bin/sh', args: ['-c', 'exec "$@" > "$0"', output, ...yad], processName: 'yad' }
}

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
function named(snapshot: Snapshot, role: UiElement['role'], name: string): UiElement {
  const found = flat(snapshot.root).filter((e) => e.role === role && e.name === name)
  if (found.length !== 1) throw new Error(`${found.length} ${role} named "${name}"`)
  return found[0]!
}
function centre(element: UiElement) {
  const b = element.bounds!
  return { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) }
}
async function clickOn(windowId: string, element: UiElement) {
  await driver.input(windowId, { kind: 'click', ...centre(element) })
}
async function answer(output: string): Promise<string> {
  await eventually(async () => existsSync(output) && readFileSync(output, 'utf8').endsWith('\n'), 10_000)
  return readFileSync(output, 'utf8')
}
async function watch(windowId: string) {
  const events: InputEvent[] = []
  const stop = await driver.watchInput(windowId, (event) => events.push(event))
  return { events, stop }
}
const isOn = (role: string, name: string) => (e: InputEvent) =>
  e.target?.role === role && e.target.name === name

describe('recording a demonstration on a native window', () => {
  test('clicks, a corrected typo, a choice, a check and OK are reported in order, named as the snapshot names them', async () => {
    const output = join(dir.path, 'customer.txt')
    const app = form(output, ['Name', 'Country:CB', 'VIP:CHK'], ['', 'France!Germany!Italy', 'FALSE'])
    const window = await driver.launch(app)
    const screen = await driver.snapshot(window.id)
    const { events, stop } = await watch(window.id)
    const nameField = named(screen, 'textbox', 'Name')

    await clickOn(window.id, nameField)
    await driver.input(window.id, { kind: 'type', text: 'Ada Lovelacx' })
    await driver.input(window.id, { kind: 'key', key: 'Backspace' })
    await driver.input(window.id, { kind: 'type', text: 'e' })
    const typed = await eventually(async () =>
      events.findLast((e) => e.kind === 'input' && isOn('textbox', 'Name')(e) && e.value === 'Ada Lovelace'),
    )
    expect(typed.target).toEqual({ role: 'textbox', name: 'Name', point: centre(nameField) })
    // The typo was there, then corrected: Backspace in a field is editing, no key of its own.
    expect(events.some((e) => e.kind === 'input' && e.value === 'Ada Lovelacx')).toBe(true)
    expect(events.some((e) => e.kind === 'key' && e.key === 'Backspace')).toBe(false)

    await clickOn(window.id, named(screen, 'combobox', 'Country'))
    await driver.input(window.id, { kind: 'key', key: 'ArrowDown' })
    await driver.input(window.id, { kind: 'key', key: 'Enter' })
    const chosen = await eventually(async () => events.find((e) => e.kind === 'select'))
    expect(chosen).toMatchObject({ value: 'Germany', target: { role: 'combobox', name: 'Country' } })

    await clickOn(window.id, named(screen, 'checkbox', 'VIP'))
    const checked = await eventually(async () => events.find((e) => e.kind === 'check'))
    expect(checked).toMatchObject({ value: 'true', target: { role: 'checkbox', name: 'VIP' } })

    const ok = named(screen, 'button', 'OK')
    await clickOn(window.id, ok)
    expect(await answer(output)).toBe('Ada Lovelace|Germany|TRUE|\n')
    await stop()

    const clicks = events.filter((e) => e.kind === 'click').map((e) => [e.target?.role, e.target?.name])
    expect(clicks).toEqual([
      ['textbox', 'Name'],
      ['combobox', 'Country'],
      ['checkbox', 'VIP'],
      ['button', 'OK'],
    ])
    expect(events.find(isOn('button', 'OK'))?.target?.point).toEqual(centre(ok))
    // Keys that are no text, on what had the focus: the popup's item, then its choice.
    expect(events.filter((e) => e.kind === 'key').map((e) => e.key)).toEqual(['ArrowDown', 'Enter'])
    const order = [
      events.indexOf(events.find(isOn('textbox', 'Name'))!),
      events.indexOf(typed),
      events.indexOf(chosen),
      events.indexOf(checked),
      events.findIndex(isOn('button', 'OK')),
    ]
    expect(order).toEqual([...order].sort((a, b) => a - b))
  }, 90_000)

  test('a password field reports that it changed, never what it holds', async () => {
    const output = join(dir.path, 'secret.txt')
    const window = await driver.launch(form(output, ['User', 'Password:H'], ['', '']))
    const screen = await driver.snapshot(window.id)
    const { events, stop } = await watch(window.id)
    await clickOn(window.id, named(screen, 'textbox', 'Password'))
    await driver.input(window.id, { kind: 'type', text: 'hunter2' })
    const secret = await eventually(async () => events.find((e) => e.kind === 'input'))
    expect(secret).toMatchObject({
      secret: true,
      target: { role: 'textbox', name: 'Password', inputType: 'password' },
    })
    expect(events.filter((e) => e.kind === 'input').every((e) => e.secret && e.value === undefined)).toBe(
      true,
    )
    await driver.input(window.id, { kind: 'key', key: 'Enter' })
    // The app did get it (yad prints the form); the recording and the logs did not.
    expect(await answer(output)).toBe('|hunter2|\n')
    await stop()
    expect(events.some((e) => e.kind === 'key' && e.key === 'Enter')).toBe(true)
    expect(JSON.stringify(events)).not.toContain('hunter')
    expect(logLines.join('')).not.toContain('hunter')
  }, 60_000)

  test('a spin button reports the number the wheel and typing gave it', async () => {
    const output = join(dir.path, 'age.txt')
    const window = await driver.launch(form(output, ['Age:NUM'], ['30']))
    const screen = await driver.snapshot(window.id)
    const { events, stop } = await watch(window.id)
    const age = named(screen, 'spinbutton', 'Age')
    // Into its entry (the left part; the + and - buttons are on the right), and a notch of the
    // wheel down there (GTK turns a spin button under the wheel once it has the focus): one less.
    const entry = { x: age.bounds!.x + 10, y: centre(age).y }
    await driver.input(window.id, { kind: 'click', ...entry })
    await driver.input(window.id, { kind: 'scroll', ...entry, deltaY: 100 })
    await eventually(async () => events.some((e) => e.kind === 'input' && e.value === '29'))
    // Then the number replaced by typing.
    await driver.input(window.id, { kind: 'key', key: 'End' })
    await driver.input(window.id, { kind: 'key', key: 'Backspace' })
    await driver.input(window.id, { kind: 'key', key: 'Backspace' })
    await driver.input(window.id, { kind: 'type', text: '42' })
    await driver.input(window.id, { kind: 'key', key: 'Tab' })
    await clickOn(window.id, named(screen, 'button', 'OK'))
    expect(await answer(output)).toBe('42|\n')
    await stop()
    expect(events.findLast((e) => e.kind === 'input')).toMatchObject({
      value: '42',
      target: { role: 'spinbutton', name: 'Age' },
    })
    // End and Backspace edit the field: only Tab, which leaves it, is a key of its own.
    expect(events.filter((e) => e.kind === 'key').map((e) => e.key)).toEqual(['Tab'])
  }, 60_000)

  test('gtk3-widget-factory: a radio button and a table row; fields the app fills itself are no input', async () => {
    const window = await driver.launch({ executable: 'gtk3-widget-factory' })
    const { events, stop } = await watch(window.id)
    await clickOn(window.id, named(await driver.snapshot(window.id), 'radio', 'Page 3'))
    await eventually(async () => events.some((e) => e.kind === 'check'))
    // Page 3 shows a table (and fields the app fills as the page appears).
    const page3 = await driver.snapshot(window.id)
    await clickOn(window.id, named(page3, 'cell', 'Begga'))
    await eventually(async () => events.some((e) => e.kind === 'select'))
    await stop()
    expect(events.map((e) => [e.kind, e.target?.role, e.target?.name, e.value ?? null])).toEqual([
      ['click', 'radio', 'Page 3', null],
      ['check', 'radio', 'Page 3', 'true'],
      ['click', 'cell', 'Begga', null],
      ['select', 'table', '', 'Begga'],
    ])
  }, 60_000)

  test('checks, choices and text the app puts in by itself as a form opens are no input; the person’s own click on a box is', async () => {
    const app = {
      executable: '/usr/bin/python3',
      args: [join(import.meta.dir, '../../fixtures/native/defaults-app.py')],
    }
    const window = await driver.launch(app)
    const { events, stop } = await watch(window.id)
    await clickOn(window.id, named(await driver.snapshot(window.id), 'button', 'New entry'))
    // The app ticks its defaults by itself a moment after the form shows.
    const opened = await eventually(async () => {
      const screen = await driver.snapshot(window.id)
      const remember = flat(screen.root).find((e) => e.name === 'Remember')
      return remember?.states.includes('checked') && screen
    }, 10_000)
    await clickOn(window.id, named(opened, 'checkbox', 'Expires'))
    await eventually(async () => events.some((e) => e.kind === 'check'))
    await stop()
    expect(events.filter((e) => e.kind === 'check').map((e) => [e.target?.name, e.value])).toEqual([
      ['Expires', 'true'],
    ])
    expect(events.filter((e) => e.kind === 'select')).toEqual([])
    expect(events.filter((e) => e.kind === 'input')).toEqual([])
  }, 60_000)

  test('an unknown key name is refused', async () => {
    const error = await driver.input('no-window', { kind: 'key', key: 'Hyper' }).catch((e) => e)
    expect(error).toBeInstanceOf(DriverError)
    expect(error.code).toBe('UNSUPPORTED_ACTION')
    const modifier = await driver.input('no-window', { kind: 'key', key: 'Hyper+A' }).catch((e) => e)
    expect(modifier.message).toContain('"Hyper" is no modifier')
  })

  test('keys with modifiers: Ctrl+A selects the text, what is typed next replaces it, and the chord is reported', async () => {
    const window = await driver.launch(form(join(dir.path, 'chord.txt'), ['Name'], ['Old name']))
    const screen = await driver.snapshot(window.id)
    const { events, stop } = await watch(window.id)
    await clickOn(window.id, named(screen, 'textbox', 'Name'))
    await driver.input(window.id, { kind: 'key', key: 'Ctrl+A' })
    await driver.input(window.id, { kind: 'type', text: 'New name' })
    await eventually(async () =>
      events.some((e) => e.kind === 'input' && isOn('textbox', 'Name')(e) && e.value === 'New name'),
    )
    expect(named(await driver.snapshot(window.id), 'textbox', 'Name').value).toBe('New name')
    expect(events.some((e) => e.kind === 'key' && e.key === 'Ctrl+A')).toBe(true)
    await stop()
  }, 60_000)

  test('a person at the PC: clicks and keys of another X client are seen through X RECORD', async () => {
    const output = join(dir.path, 'pc.txt')
    const window = await driver.launch(form(output, ['Note', 'VIP:CHK'], ['', 'FALSE']))
    const screen = await driver.snapshot(window.id)
    const { events, stop } = await watch(window.id)
    const at = (role: UiElement['role'], name: string) => {
      const { x, y } = centre(named(screen, role, name))
      return `${x} ${y}`
    }
    // Each step waits for the last to show, as a person's next move follows what they saw.
    await person('Sign up', [`click ${at('textbox', 'Note')}`])
    await eventually(async () => events.some(isOn('textbox', 'Note')), 10_000)
    await person('Sign up', ['key h', 'key i'])
    await eventually(async () => events.some((e) => e.kind === 'input' && e.value === 'hi'), 10_000)
    await person('Sign up', [`click ${at('checkbox', 'VIP')}`])
    await eventually(async () => events.some((e) => e.kind === 'check'), 10_000)
    await person('Sign up', ['key Tab'])
    await eventually(async () => events.some((e) => e.kind === 'key'), 10_000)
    // OK closes the window when the button is let go: the press is looked up while it is down.
    await person('Sign up', [`press ${at('button', 'OK')}`])
    await eventually(async () => events.some(isOn('button', 'OK')), 10_000)
    await person('Sign up', ['release'])
    expect(await answer(output)).toBe('hi|TRUE|\n')
    await stop()
    const vip = centre(named(screen, 'checkbox', 'VIP'))
    // Typing shows as the field's value (one event per pause in typing), never as keys.
    const shown = events.filter((e) => e.kind !== 'input' || e.value === 'hi')
    expect(shown.map((e) => [e.kind, e.target?.role, e.target?.name, e.value ?? e.key ?? null])).toEqual([
      ['click', 'textbox', 'Note', null],
      ['input', 'textbox', 'Note', 'hi'],
      ['click', 'checkbox', 'VIP', null],
      ['check', 'checkbox', 'VIP', 'true'],
      ['key', 'checkbox', 'VIP', 'Tab'],
      ['click', 'button', 'OK', null],
    ])
    expect(shown[2]?.target?.point).toEqual(vip)
  }, 60_000)

  test('a helper that dies during a recording is restarted and the watch goes on: input after it is still reported', async () => {
    const window = await driver.launch(form(join(dir.path, 'restart.txt'), ['VIP:CHK'], ['FALSE']))
    const { events, stop } = await watch(window.id)
    // The helper is this process's child; killing it is what a crash looks like to the host.
    const helper = () =>
      Bun.spawnSync(['pgrep', '-P', String(process.pid), '-f', 'atspi-helper'])
        .stdout.toString()
        .trim()
    const before = Number(helper())
    expect(before).toBeGreaterThan(0)
    process.kill(before, 'SIGKILL')
    await eventually(async () => {
      const now = Number(helper())
      return now > 0 && now !== before && (await driver.listWindows()).some((w) => w.id === window.id)
    }, 20_000)
    // The watch is taken up again as the host restarts the helper; clicks until it is.
    await eventually(async () => {
      await clickOn(window.id, named(await driver.snapshot(window.id), 'checkbox', 'VIP'))
      return eventually(async () => events.some((e) => e.kind === 'check'), 1_500).catch(() => false)
    }, 15_000)
    await stop()
  }, 60_000)

  test('stop() ends one watch; another on the same window goes on', async () => {
    const window = await driver.launch(form(join(dir.path, 'two.txt'), ['VIP:CHK'], ['FALSE']))
    const screen = await driver.snapshot(window.id)
    const first = await watch(window.id)
    const second = await watch(window.id)
    await first.stop()
    await first.stop()
    await clickOn(window.id, named(screen, 'checkbox', 'VIP'))
    await eventually(async () => second.events.some((e) => e.kind === 'check'))
    await second.stop()
    expect(first.events).toEqual([])
  }, 60_000)
})

/**
 * Input from another X client than the helper, as the X server gets a person's mouse and
 * keyboard: `click x y` / `press x y` / `release` at pixels of the window titled `title`, `key
 * <X keysym name>`.
 */
async function person(title: string, steps: string[]): Promise<void> {
  const script = `
import sys
from Xlib import X, XK, display
from Xlib.ext import xtest
d = display.Display()
root = d.screen().root
def find(w):
    if w.get_wm_name() == sys.argv[1]:
        return w
    for child in w.query_tree().children:
        found = find(child)
        if found:
            return found
origin = root.translate_coords(find(root), 0, 0)
for step in sys.argv[2:]:
    kind, *rest = step.split()
    if kind in ('click', 'press'):
        xtest.fake_input(d, X.MotionNotify, x=origin.x + int(rest[0]), y=origin.y + int(rest[1]))
        xtest.fake_input(d, X.ButtonPress, 1)
    if kind in ('click', 'release'):
        xtest.fake_input(d, X.ButtonRelease, 1)
    if kind == 'key':
        code = d.keysym_to_keycode(XK.string_to_keysym(rest[0]))
        xtest.fake_input(d, X.KeyPress, code)
        xtest.fake_input(d, X.KeyRelease, code)
    d.sync()
`
  const proc = Bun.spawn(['/usr/bin/python3', '-c', script, title, ...steps], {
    env: native.desktop.env,
    stdout: 'ignore',
    stderr: 'pipe',
  })
  if ((await proc.exited) !== 0) throw new Error(await new Response(proc.stderr).text())
}

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import { eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/**
 * A `yad --form` window (Debian's yad): fields labelled through AT-SPI relations, a combo box,
 * a check box and a spin button. yad prints what the form held when OK is pressed, so the test
 * reads the app's own output, not just what the accessibility tree says.
 */
const native = useNativeDesktop()
const dir = tempDir('deskhook-yad-')
let driver: NativeDriver

beforeAll(async () => {
  driver = native.driver()
  await driver.start()
}, 30_000)
afterAll(() => dir.remove())

function formApp(output: string) {
  const yad = [
    'yad',
    '--form',
    '--title=New customer',
    '--field=Name',
    '--field=Email',
    '--field=Country:CB',
    '--field=VIP:CHK',
    '--field=Age:NUM',
    '',
    '',
    'France!Germany!Italy',
    'FALSE',
    '30',
  ]
  // The shell only sends yad's answer to a file, then becomes yad (same process).
  return { executable: '/bin/sh', args: ['-c', 'exec "$@" > "$0"', output, ...yad], processName: 'yad' }
}

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
function named(snapshot: Snapshot, role: UiElement['role'], name: string): UiElement {
  const found = flat(snapshot.root).filter((e) => e.role === role && e.name === name)
  if (found.length !== 1) throw new Error(`${found.length} ${role} named "${name}"`)
  return found[0]!
}

describe('a yad form through the desktop driver', () => {
  test('fields are named by their labels and listed in reading order', async () => {
    const app = formApp(join(dir.path, 'unused.txt'))
    const window = await driver.launch(app)
    expect(window).toMatchObject({ title: 'New customer', app: 'yad' })
    // How to start it afresh: the command line it was launched with.
    expect(window.launchCommand).toEqual({ executable: '/bin/sh', args: app.args })
    const snapshot = await driver.snapshot(window.id)
    const controls = snapshot.root.children.map((e) => [e.role, e.name, e.value ?? null])
    expect(controls).toEqual([
      ['text', 'Name', null],
      ['textbox', 'Name', ''],
      ['text', 'Email', null],
      ['textbox', 'Email', ''],
      ['text', 'Country', null],
      ['combobox', 'Country', 'France'],
      ['checkbox', 'VIP', null],
      ['text', 'Age', null],
      ['spinbutton', 'Age', '30'],
      ['button', 'Cancel', null],
      ['button', 'OK', null],
    ])
    expect(named(snapshot, 'combobox', 'Country').children.map((o) => o.name)).toEqual([
      'France',
      'Germany',
      'Italy',
    ])
  }, 60_000)

  test('filled in and submitted, the app outputs exactly what was entered', async () => {
    const output = join(dir.path, 'customer.txt')
    const window = await driver.launch(formApp(output))
    const form = await driver.snapshot(window.id)
    await driver.act(window.id, {
      kind: 'fill',
      ref: named(form, 'textbox', 'Name').ref,
      value: 'Ada Lovelace',
    })
    await driver.act(window.id, {
      kind: 'fill',
      ref: named(form, 'textbox', 'Email').ref,
      value: 'ada@example.org',
    })
    await driver.act(window.id, {
      kind: 'select',
      ref: named(form, 'combobox', 'Country').ref,
      values: ['germany'],
    })
    expect(
      await driver.act(window.id, { kind: 'check', ref: named(form, 'checkbox', 'VIP').ref, checked: true }),
    ).toEqual({
      checked: true,
    })
    await driver.act(window.id, { kind: 'fill', ref: named(form, 'spinbutton', 'Age').ref, value: '42' })
    const filled = await driver.snapshot(window.id)
    expect(named(filled, 'combobox', 'Country').value).toBe('Germany')
    expect(named(filled, 'spinbutton', 'Age').value).toBe('42')
    await driver.act(window.id, { kind: 'click', ref: named(filled, 'button', 'OK').ref })
    // The window closes; yad writes its answer as it exits.
    expect(await driver.waitForChange(window.id, 10_000)).toBe('changed')
    await eventually(async () => existsSync(output) && readFileSync(output, 'utf8').endsWith('\n'), 10_000)
    expect(readFileSync(output, 'utf8')).toBe('Ada Lovelace|ada@example.org|Germany|TRUE|42|\n')
    expect((await driver.listWindows()).filter((w) => w.app === 'yad')).toEqual([])
  }, 60_000)

  test('a window someone else opened is found, with the command line that started it', async () => {
    const other = Bun.spawn(['yad', '--form', '--title=Opened by hand', '--field=Note', ''], {
      cwd: dir.path,
      env: native.desktop.env,
      stdout: 'ignore',
      stderr: 'ignore',
    })
    try {
      // Started outside the driver: its window shows when yad gets to it.
      await eventually(
        async () => (await driver.listWindows()).some((w) => w.title === 'Opened by hand'),
        10_000,
      )
      const window = await driver.launch({ titleContains: 'by hand' })
      expect(window).toMatchObject({ title: 'Opened by hand', app: 'yad' })
      expect(window.launchCommand).toEqual({
        executable: 'yad',
        args: ['--form', '--title=Opened by hand', '--field=Note', ''],
        cwd: dir.path,
      })
      const snapshot = await driver.snapshot(window.id)
      expect(named(snapshot, 'textbox', 'Note').value).toBe('')
    } finally {
      other.kill()
      await other.exited
    }
  }, 60_000)

  test("a fresh launch gives the app the environment and folder of the person's own instance it replaced", async () => {
    const home = tempDir('deskhook-yad-home-')
    const args = ['--form', '--title=Started by the person', '--field=Note', '']
    // The person's instance: their own HOME, settings backend and folder, not the agent's.
    const theirs = Bun.spawn(['yad', ...args], {
      cwd: home.path,
      env: { ...native.desktop.env, HOME: home.path, GSETTINGS_BACKEND: 'keyfile', LANG: 'C.UTF-8' },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    try {
      await eventually(
        async () => (await driver.listWindows()).some((w) => w.title === 'Started by the person'),
        10_000,
      )
      await driver.launch({ executable: 'yad', args })
      await theirs.exited
      const relaunched = await eventually(async () => {
        const found = Bun.spawnSync(['pgrep', '-n', '-f', 'Started by the person']).stdout.toString().trim()
        return found ? Number(found) : undefined
      }, 10_000)
      const env = Object.fromEntries(
        readFileSync(`/proc/${relaunched}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      )
      expect(env).toMatchObject({ HOME: home.path, GSETTINGS_BACKEND: 'keyfile', LANG: 'C.UTF-8' })
      // The desktop's accessibility switches stay on, so the app still shows its controls.
      expect(env.NO_AT_BRIDGE).toBe(native.desktop.env.NO_AT_BRIDGE)
      expect(realpathSync(`/proc/${relaunched}/cwd`)).toBe(realpathSync(home.path))
      process.kill(relaunched)
    } finally {
      theirs.kill()
      home.remove()
    }
  }, 60_000)

  test('a fresh launch of the same command line replaces the open form', async () => {
    const app = formApp(join(dir.path, 'again.txt'))
    const first = await driver.launch(app)
    const second = await driver.launch(app)
    expect(second.id).not.toBe(first.id)
    expect((await driver.listWindows()).filter((w) => w.app === 'yad').map((w) => w.id)).toEqual([second.id])
  }, 60_000)
})

/**
 * A box that is loaded afresh from the record when it gains the focus, as a spreadsheet's formula
 * bar takes the cell's content when editing starts (Gnumeric's did; a fill set before the focus
 * came was undone, and the value never reached the cell). A fixture app of ours (not yad) stores the box's text on
 * Enter and prints it: the test reads what the app itself stored.
 */
describe('a fill on a box that reloads itself', () => {
  test('a fill lands in a box that reloads itself when it gains the focus', async () => {
    const output = join(dir.path, 'stored.txt')
    const app = {
      executable: '/bin/sh',
      args: [
        '-c',
        'exec "$@" > "$0"',
        output,
        '/usr/bin/python3',
        join(import.meta.dir, '../../fixtures/native/formula-bar-app.py'),
        '30',
      ],
      processName: 'python3',
    }
    const window = await driver.launch(app)
    const box = named(await driver.snapshot(window.id), 'textbox', 'Content')
    expect(box.value).toBe('30')
    await driver.act(window.id, { kind: 'fill', ref: box.ref, value: '17' })
    const filled = named(await driver.snapshot(window.id), 'textbox', 'Content')
    expect(filled.value).toBe('17')
    await driver.act(window.id, { kind: 'keys', ref: filled.ref, keys: 'Enter' })
    const status = await eventually(async () => {
      const s = flat((await driver.snapshot(window.id)).root).find(
        (e) => e.role === 'text' && e.name.startsWith('The cell holds'),
      )
      return s?.name === 'The cell holds 17' ? s.name : undefined
    }, 10_000)
    expect(status).toBe('The cell holds 17')
    expect(readFileSync(output, 'utf8').trim()).toBe('17')
  }, 60_000)
})

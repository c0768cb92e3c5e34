import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import type { Snapshot, UiElement } from '../../../src/protocol/elements.ts'
import { eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/**
 * A box that is loaded afresh from the record when it gains the focus, as a spreadsheet's formula
 * bar takes the cell's content when editing starts (Gnumeric's did; a fill set before the focus
 * came was undone, and the value never reached the cell). The fixture app stores the box's text on
 * Enter and prints it: the test reads what the app itself stored.
 */
const native = useNativeDesktop()
const dir = tempDir('deskhook-formula-')
let driver: NativeDriver

beforeAll(async () => {
  driver = native.driver()
  await driver.start()
}, 30_000)
afterAll(() => dir.remove())

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const find = (s: Snapshot, role: string, name: RegExp) =>
  flat(s.root).find((e) => e.role === role && name.test(e.name))!

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
  const box = find(await driver.snapshot(window.id), 'textbox', /^Content$/)
  expect(box.value).toBe('30')
  await driver.act(window.id, { kind: 'fill', ref: box.ref, value: '17' })
  const filled = find(await driver.snapshot(window.id), 'textbox', /^Content$/)
  expect(filled.value).toBe('17')
  await driver.act(window.id, { kind: 'keys', ref: filled.ref, keys: 'Enter' })
  const status = await eventually(async () => {
    const s = find(await driver.snapshot(window.id), 'text', /^The cell holds/)
    return s?.name === 'The cell holds 17' ? s.name : undefined
  }, 10_000)
  expect(status).toBe('The cell holds 17')
  expect(readFileSync(output, 'utf8').trim()).toBe('17')
}, 60_000)

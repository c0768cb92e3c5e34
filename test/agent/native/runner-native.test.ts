import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import type { StepResult } from '../../../src/automation/run-types.ts'
import { runAutomation } from '../../../src/automation/runner.ts'
import { designSelector } from '../../../src/builder/selector-design.ts'
import type { AppSpec, Automation, Step } from '../../../src/protocol/automation.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/**
 * The automation runner on a native window (Debian's yad under Xvfb, through the AT-SPI helper):
 * the same selectors as the browser, the ambiguity error listing candidates when two fields
 * share a label, a selector the builder designs that tells them apart, and a screenshot after
 * every step. yad prints what the form held, so the test reads the app's own output.
 */
const native = useNativeDesktop()
const dir = tempDir('deskhook-native-run-')
let driver: NativeDriver

beforeAll(async () => {
  driver = native.driver()
  await driver.start()
}, 30_000)
afterAll(() => dir.remove())

/** Two phone fields labelled alike (home and work, as a hurried form has them). */
function phoneForm(output: string): AppSpec {
  const yad = [
    'yad',
    '--form',
    '--title=Phones',
    '--field=Name',
    '--field=Phone',
    '--field=Phone',
    '',
    '',
    '',
  ]
  return { executable: '/bin/sh', args: ['-c', 'exec "$@" > "$0"', output, ...yad], processName: 'yad' }
}

const automation = (app: AppSpec, steps: Step[]): Automation => ({ version: 1, app, steps, scenarios: [] })
const byRole = (role: UiElement['role'], name: string) => ({
  fingerprints: [{ by: 'role' as const, role, name, match: 'exact' as const }],
  description: `the “${name}” ${role}`,
})
const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const isJpeg = (bytes: Uint8Array | undefined) =>
  bytes !== undefined && bytes[0] === 0xff && bytes[1] === 0xd8

describe('the runner on a native window', () => {
  test('a label two fields share is ambiguous: the step fails listing both candidates', async () => {
    const app = phoneForm(join(dir.path, 'unused.txt'))
    const run = await runAutomation(
      driver,
      automation(app, [
        { kind: 'launch', name: 'Open the form', app },
        { kind: 'fill', name: 'Enter the phone', target: byRole('textbox', 'Phone'), value: '{{phone}}' },
      ]),
      { phone: '555-0100' },
    )
    expect(run.status).toBe('failed')
    expect(run.error).toMatchObject({ code: 'AMBIGUOUS_SELECTOR', step: 'Enter the phone' })
    expect(run.error?.message).toContain('matches 2 elements')
    expect(run.error?.candidates?.map((c) => [c.role, c.name])).toEqual([
      ['textbox', 'Phone'],
      ['textbox', 'Phone'],
    ])
  }, 60_000)

  test('a designed selector tells them apart; every step leaves a screenshot; the app got the values', async () => {
    const output = join(dir.path, 'phones.txt')
    const app = phoneForm(output)
    // The builder designs the selector from a snapshot of the window, as it does on a web page.
    const window = await driver.launch(app)
    const snapshot = await driver.snapshot(window.id)
    const phones = flat(snapshot.root).filter((e) => e.role === 'textbox' && e.name === 'Phone')
    expect(phones).toHaveLength(2)
    const work = designSelector(snapshot.root, phones[1]!, 'the second “Phone” box')
    expect(work.fingerprints[0]?.by).not.toBe('role')

    const finished: StepResult[] = []
    const run = await runAutomation(
      driver,
      automation(app, [
        { kind: 'launch', name: 'Open the form', app },
        { kind: 'fill', name: 'Enter the name', target: byRole('textbox', 'Name'), value: '{{name}}' },
        { kind: 'fill', name: 'Enter the work phone', target: work, value: '{{phone}}' },
        { kind: 'click', name: 'Press OK', target: byRole('button', 'OK') },
      ]),
      { name: 'Ada Lovelace', phone: '555-0199' },
      { onStepFinished: (s) => void finished.push(s) },
    )
    expect(run.error).toBeUndefined()
    expect(run.status).toBe('succeeded')
    expect(finished.map((s) => s.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS'])
    // The window is gone after OK; every step before it was photographed from the native window.
    expect(finished.slice(0, 3).every((s) => isJpeg(s.screenshot))).toBe(true)
    await eventually(async () => existsSync(output) && readFileSync(output, 'utf8').endsWith('\n'), 10_000)
    expect(readFileSync(output, 'utf8')).toBe('Ada Lovelace||555-0199|\n')
  }, 60_000)
})

/**
 * `bun test/native-thirdparty/look.ts <app> [steps.json]`: what a person writing an app's jobs
 * needs to see. Starts a headless desktop, seeds the app's home (`start`), launches it through
 * the Linux desktop driver as the agent would, and prints every window of the app as the builder
 * reads it (role, name, value, states, box), then the data files. `steps.json` is a list of
 * `{"click"|"fill"|"key": …}` to act before printing (`{"click": "OK"}` clicks the first
 * element so named; `{"fill": "Title", "value": "x"}`; `{"key": "ctrl+a"}` is sent as keys to the
 * focused control). A step may add `"role"` (only elements of that role) and `"index"` (the nth such
 * match, from 0), for boxes without a name (`{"fill": "", "role": "textbox", "index": 1, "value": "x"}`).
 * `{"wait": 1000}` pauses (ms) for a screen that changes late. DESKHOOK_LOOK_COPY=<dir> copies the data
 * files there at the end (to read them with the app's readers). DESKHOOK_LOOK_KEEP=1 leaves the
 * desktop up until Ctrl-C.
 */
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { startTestDesktop } from '../../scripts/test-desktop.ts'
import { createLinuxDesktopDriver } from '../../src/agent/drivers/linux/index.ts'
import { signInForm } from '../../src/automation/sign-in-form.ts'
import type { UiElement } from '../../src/protocol/elements.ts'
import { appHome } from '../helpers/native-apps.ts'
import { testLogger } from '../helpers/native-desktop.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import type { NativeThirdPartyApp } from './types.ts'

/** One step of steps.json. */
interface Step {
  click?: string
  fill?: string
  value?: string
  key?: string
  role?: string
  index?: number
  wait?: number
}

const [name, stepsFile] = process.argv.slice(2)
if (!name) throw new Error('usage: bun test/native-thirdparty/look.ts <app> [steps.json]')
const { app } = (await import(`./${name}/index.ts`)) as { app: NativeThirdPartyApp }
const desktop = await startTestDesktop()
const home = appHome(`deskhook-look-${name}-`)
const state = tempDir('deskhook-look-state-')
const running = await app.start(home)
const driver = createLinuxDesktopDriver({
  stateDir: state.path,
  log: testLogger(),
  env: { ...desktop.env, ...home.env },
})
try {
  await driver.start()
  const window = await driver.launch(running.spec)
  console.log(`launched: ${JSON.stringify(window)}`)
  const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
  const print = (e: UiElement, depth: number) => {
    const states = e.states?.length ? ` [${e.states.join(',')}]` : ''
    const value =
      (e.value !== undefined ? ` = ${JSON.stringify(e.value)}` : '') +
      (e.inputType ? ` (${e.inputType})` : '')
    const b = e.bounds ? ` @${e.bounds.x},${e.bounds.y} ${e.bounds.width}x${e.bounds.height}` : ''
    console.log(`${'  '.repeat(depth)}${e.role} ${JSON.stringify(e.name)}${value}${states}${b}`)
    for (const c of e.children) print(c, depth + 1)
  }
  const steps = stepsFile ? (JSON.parse(readFileSync(stepsFile, 'utf8')) as Step[]) : []
  for (const step of steps) {
    if (step.wait) {
      await Bun.sleep(step.wait)
      continue
    }
    const windows = (await driver.listWindows()).filter((w) => w.app === window.app)
    const top = windows.at(-1) ?? window
    const snap = await driver.snapshot(top.id)
    const target = flat(snap.root).filter(
      (e) => e.name === (step.click ?? step.fill) && (!step.role || e.role === step.role),
    )[step.index ?? 0]
    if (step.key) await driver.act(top.id, { kind: 'keys', keys: step.key })
    else if (!target)
      console.log(`!! nothing named ${JSON.stringify(step.click ?? step.fill)} in ${top.title}`)
    else if (step.click !== undefined) await driver.act(top.id, { kind: 'click', ref: target.ref })
    else await driver.act(top.id, { kind: 'fill', ref: target.ref, value: step.value ?? '' })
    await driver.waitForChange(top.id, 2_000).catch(() => undefined)
  }
  for (const w of (await driver.listWindows()).filter((x) => x.app === window.app)) {
    console.log(`\n=== window ${JSON.stringify(w.title)} (${w.app})`)
    const { root } = await driver.snapshot(w.id)
    print(root, 0)
    // What the builder and the runner take for a sign-in here (src/automation/sign-in-form.ts).
    const form = signInForm(root)
    if (form)
      console.log(
        `-- a sign-in: password box at ${JSON.stringify(form.password.bounds)}` +
          (form.user ? `, user box “${form.user.name}”` : '') +
          (form.button ? `, button “${form.button.name}”` : ''),
      )
  }
  for (const file of running.dataFiles)
    console.log(`\n=== ${file}: ${existsSync(file) ? `${statSync(file).size} bytes` : 'missing'}`)
  const copy = process.env.DESKHOOK_LOOK_COPY
  if (copy)
    for (const file of running.dataFiles.filter(existsSync)) copyFileSync(file, join(copy, basename(file)))
  if (process.env.DESKHOOK_LOOK_KEEP) {
    console.log(`desktop ${desktop.display} is up; Ctrl-C ends it`)
    await new Promise(() => {})
  }
} finally {
  await driver.stop().catch(() => {})
  await running.stop()
  await desktop.stop()
  home.remove()
  state.remove()
}

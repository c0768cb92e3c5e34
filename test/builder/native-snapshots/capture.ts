// Re-records the native snapshot fixtures of the builder's heuristics from two real GTK apps,
// Osmo (contacts) and HomeBank (accounts, transactions), through the Linux desktop driver on a
// headless test desktop:
//   bun test/builder/native-snapshots/capture.ts [osmo|homebank]
// Each app runs in its own fresh home (test/helpers/native-apps.ts). Volatile parts (window ids,
// capture time, temp paths) are replaced, so a file changes only when the element model or the
// app does.
import { join } from 'node:path'
import { startTestDesktop } from '../../../scripts/test-desktop.ts'
import { createLinuxDesktopDriver } from '../../../src/agent/drivers/linux/index.ts'
import type { NativeDriver } from '../../../src/agent/drivers/native/native-driver.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../../src/protocol/elements.ts'
import { homebankApp, type NativeApp, osmoApp } from '../../helpers/native-apps.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

const desktop = await startTestDesktop()
const state = tempDir('deskhook-capture-')
const log = createLogger({
  level: process.env.DESKHOOK_TEST_LOGS ? 'debug' : 'warn',
  format: 'json',
  destination: process.stderr,
})

/** One app on the desktop, driven like a person would, with a save of each screen worth keeping. */
async function session(app: NativeApp, prefix: string) {
  const driver: NativeDriver = createLinuxDesktopDriver({
    stateDir: join(state.path, prefix),
    log,
    env: { ...desktop.env, ...app.env },
  })
  await driver.start()
  const window = await driver.launch(app.spec)
  const snap = () => driver.snapshot(window.id)
  const all = (root: UiElement): UiElement[] => [root, ...root.children.flatMap(all)]
  /** The element by role and name; `last` picks the last of several (a dialog's button over the window's). */
  const find = async (role: string, name: string, last = false) => {
    const found = all((await snap()).root).filter((e) => e.role === role && e.name === name)
    const element = last ? found.at(-1) : found[0]
    if (!element) throw new Error(`no ${role} "${name}" on the screen`)
    return element
  }
  /** Waits (on UI changes, not time) until the predicate holds for a snapshot. */
  const until = async (predicate: (root: UiElement) => boolean): Promise<Snapshot> => {
    for (;;) {
      const snapshot = await snap()
      if (predicate(snapshot.root)) return snapshot
      if ((await driver.waitForChange(window.id, 5_000)) === 'timeout')
        throw new Error(`${prefix}: the screen did not change as expected`)
    }
  }
  const shows = (role: string, name: string) => (root: UiElement) =>
    all(root).some((e) => e.role === role && e.name === name)
  const gone = (role: string, name: string) => (root: UiElement) => !shows(role, name)(root)
  const act = async (action: Parameters<NativeDriver['act']>[1]) => {
    await driver.act(window.id, action)
  }
  return {
    driver,
    window,
    find,
    until,
    shows,
    gone,
    click: async (role: string, name: string, last = false) =>
      act({ kind: 'click', ref: (await find(role, name, last)).ref }),
    /**
     * Fills a box, then presses End in it: Osmo enables its OK button on key presses only, and
     * the driver fills through the accessibility interface, which sends none.
     */
    fill: async (element: UiElement, value: string) => {
      await act({ kind: 'fill', ref: element.ref, value })
      await act({ kind: 'keys', ref: element.ref, keys: 'End' })
    },
    keys: (keys: string) => act({ kind: 'keys', keys }),
    /**
     * Clicks through X input at the element's place (a person's click). The driver clicks
     * buttons through the accessibility interface, and a GTK button whose handler runs a modal
     * dialog (gtk_dialog_run) then leaves the app unanswering on the accessibility bus.
     */
    clickAsUser: async (role: string, name: string, last = false) => {
      const element = await find(role, name, last)
      const origin = await windowOrigin(window.title)
      const b = element.bounds!
      await xdotool([
        'mousemove',
        String(origin.x + b.x + b.width / 2),
        String(origin.y + b.y + b.height / 2),
        'click',
        '1',
      ])
    },
    /** Types as a person (X input into the box clicked first): the driver refuses input to a dialog over a dialog. */
    typeAsUser: async (element: UiElement, text: string) => {
      const origin = await windowOrigin(window.title)
      const b = element.bounds!
      await xdotool([
        'mousemove',
        String(origin.x + b.x + b.width / 2),
        String(origin.y + b.y + b.height / 2),
        'click',
        '1',
      ])
      await xdotool(['type', '--delay', '20', text])
    },
    async save(name: string, snapshot?: Snapshot) {
      const shot = snapshot ?? (await snap())
      const path = join(import.meta.dir, `${name}.json`)
      await Bun.write(path, `${JSON.stringify(stable(shot, app), null, 1)}\n`)
      console.log(`wrote ${name}.json`)
    },
  }
}

async function xdotool(args: string[]): Promise<string> {
  const proc = Bun.spawn(['xdotool', ...args], { env: desktop.env, stdout: 'pipe', stderr: 'pipe' })
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  if (code !== 0) throw new Error(`xdotool ${args.join(' ')} failed (${code})`)
  return out
}

/** Where the window (by its exact title) is on the screen: element bounds are relative to it. */
async function windowOrigin(title: string): Promise<{ x: number; y: number }> {
  const id = (await xdotool(['search', '--name', `^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`]))
    .trim()
    .split('\n')[0]!
  const geometry = await xdotool(['getwindowgeometry', '--shell', id])
  const value = (key: string) => Number(new RegExp(`^${key}=(\\d+)`, 'm').exec(geometry)?.[1] ?? 0)
  return { x: value('X'), y: value('Y') }
}

/** The snapshot without what changes from capture to capture: ids, time, temp folders. */
function stable(snapshot: Snapshot, app: NativeApp): Snapshot {
  const window: WindowInfo = { ...snapshot.window, id: 'window' }
  if (window.launchCommand)
    window.launchCommand = JSON.parse(JSON.stringify(window.launchCommand).replaceAll(app.home, '/home/test'))
  return { window, root: snapshot.root, capturedAt: '2026-01-01T00:00:00.000Z' }
}

const only = process.argv[2]
try {
  if (only !== 'homebank') await captureOsmo()
  if (only !== 'osmo') await captureHomebank()
  // The files in the repository's own format (what `biome check` expects of JSON).
  const format = Bun.spawn(['bunx', 'biome', 'format', '--write', import.meta.dir], { stdout: 'ignore' })
  if ((await format.exited) !== 0) throw new Error('biome could not format the snapshots')
} finally {
  await desktop.stop()
  state.remove()
}

async function captureOsmo() {
  // Osmo: the contacts tab, its Add contact dialog, a new contact's row, and the search box.
  const osmo = osmoApp()
  const o = await session(osmo, 'osmo')
  await o.save('osmo-calendar', await o.until(o.shows('tab', 'Contacts')))
  await o.click('tab', 'Contacts')
  await o.save('osmo-contacts', await o.until(o.shows('button', 'New contact')))
  await o.click('button', 'New contact')
  const dialog = await o.until(o.shows('dialog', 'Add contact'))
  await o.save('osmo-add-contact', dialog)
  const boxes = (await o.driver.snapshot(o.window.id)).root.children
    .find((c) => c.role === 'dialog')!
    .children.filter((c) => c.role === 'textbox')
  await o.fill(boxes[0]!, 'Ada')
  await o.fill(boxes[1]!, 'Lovelace')
  await o.click('button', 'OK', true)
  await o.save('osmo-contact-added', await o.until(o.gone('dialog', 'Add contact')))
  await o.click('button', 'New contact')
  await o.until(o.shows('dialog', 'Add contact'))
  const more = (await o.driver.snapshot(o.window.id)).root.children
    .find((c) => c.role === 'dialog')!
    .children.filter((c) => c.role === 'textbox')
  await o.fill(more[0]!, 'Grace')
  await o.fill(more[1]!, 'Hopper')
  await o.click('button', 'OK', true)
  await o.until(o.gone('dialog', 'Add contact'))
  const search = all((await o.driver.snapshot(o.window.id)).root).find(
    (e) => e.role === 'textbox' && !e.states.includes('readonly'),
  )!
  await o.fill(search, 'Ada')
  await o.save('osmo-contacts-search', await o.until((root) => !o.shows('cell', 'Grace')(root)))
  await o.driver.stop()
  osmo.remove()
}

async function captureHomebank() {
  // HomeBank: the main window, an open menu, the Add transaction dialog (fields labelled by
  // relations), Manage Accounts, its Account name prompt, a duplicate's error and a new account.
  const homebank = homebankApp()
  const h = await session(homebank, 'homebank')
  await h.save('homebank-main', await h.until(h.shows('menuitem', 'Manage')))
  await h.click('menuitem', 'Manage')
  await h.save('homebank-manage-menu', await h.until(h.shows('menuitem', 'Accounts...')))
  await h.keys('Escape')
  await h.until(h.gone('menuitem', 'Accounts...'))
  await h.clickAsUser('button', 'Add')
  await h.save('homebank-add-transaction', await h.until(h.shows('dialog', 'Add transaction')))
  await h.clickAsUser('button', 'Close', true)
  await h.until(h.gone('dialog', 'Add transaction'))
  await h.clickAsUser('button', 'Account')
  await h.save('homebank-manage-accounts', await h.until(h.shows('dialog', 'Manage Accounts')))
  await h.clickAsUser('button', 'Add', true)
  await h.save('homebank-account-name', await h.until(h.shows('dialog', 'Account name')))
  const name = all((await h.driver.snapshot(h.window.id)).root)
    .filter((e) => e.role === 'textbox' && !e.states.includes('disabled'))
    .at(-1)!
  await h.typeAsUser(name, 'Checking')
  await h.clickAsUser('button', 'OK', true)
  await h.save('homebank-account-exists', await h.until(h.shows('alertdialog', 'Error')))
  await h.clickAsUser('button', 'OK', true)
  await h.until(h.gone('alertdialog', 'Error'))
  await h.clickAsUser('button', 'Add', true)
  await h.until(h.shows('dialog', 'Account name'))
  const again = all((await h.driver.snapshot(h.window.id)).root)
    .filter((e) => e.role === 'textbox' && !e.states.includes('disabled'))
    .at(-1)!
  await h.typeAsUser(again, 'Savings')
  await h.clickAsUser('button', 'OK', true)
  await h.save('homebank-account-added', await h.until(h.gone('dialog', 'Account name')))
  await h.driver.stop()
  homebank.remove()
}

function all(root: UiElement): UiElement[] {
  return [root, ...root.children.flatMap(all)]
}

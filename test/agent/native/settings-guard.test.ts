// A build's exploring leaves the apps' saved settings as it found them
// (src/agent/drivers/native/settings-guard.ts): real files, and a real GTK app on a real X desktop
// that writes its settings file as it quits.
import { describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  belongsTo,
  putBackSettings,
  readSettings,
  settingsRoot,
} from '../../../src/agent/drivers/native/settings-guard.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

const write = (root: string, path: string, text: string | Buffer) => {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), text)
}
const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8')

describe('the settings folder', () => {
  test('the explored app’s files are put back (changed, removed, added); other apps’ are left alone', () => {
    const dir = tempDir('deskhook-settings-')
    try {
      const root = dir.path
      write(root, 'notes/notes.conf', 'toolbar=true\n')
      write(root, 'notes/history', 'a\n')
      write(root, 'Org/Notes.conf', 'preview=on\n')
      write(root, 'browser/Preferences', '{"bookmarks":1}')
      write(root, 'notes/big.cache', Buffer.alloc(2 << 20, 1))
      const before = readSettings(root)
      expect(before.complete).toBe(true)
      expect(before.skipped.has('notes/big.cache')).toBe(true)
      // What exploring did: a toggle saved, a file removed, a first-run folder written...
      write(root, 'notes/notes.conf', 'toolbar=false\n')
      write(root, 'Org/Notes.conf', 'preview=off\n')
      write(root, 'notes/plugins/first-run.conf', 'seen=1\n')
      Bun.spawnSync(['rm', join(root, 'notes/history')])
      write(root, 'notes/big.cache', Buffer.alloc(2 << 20, 2))
      // ...while another app of the person's went on with its own settings.
      write(root, 'browser/Preferences', '{"bookmarks":2}')
      write(root, 'browser/Session', 'tabs')

      const done = putBackSettings(before, belongsTo(new Set(['notes'])))
      expect(done.restored.sort()).toEqual(['Org/Notes.conf', 'notes/history', 'notes/notes.conf'])
      expect(done.removed).toEqual(['notes/plugins/first-run.conf'])
      expect(read(root, 'notes/notes.conf')).toBe('toolbar=true\n')
      expect(read(root, 'Org/Notes.conf')).toBe('preview=on\n')
      expect(read(root, 'notes/history')).toBe('a\n')
      expect(existsSync(join(root, 'notes/plugins'))).toBe(false)
      // Not read (too large to be a setting), so never written: left as the app made it.
      expect(readFileSync(join(root, 'notes/big.cache'))[0]).toBe(2)
      expect(read(root, 'browser/Preferences')).toBe('{"bookmarks":2}')
      expect(read(root, 'browser/Session')).toBe('tabs')
      // Nothing left to put back the second time.
      expect(putBackSettings(readSettings(root), belongsTo(new Set(['notes'])))).toEqual({
        restored: [],
        removed: [],
      })
    } finally {
      dir.remove()
    }
  })

  test('the folder is XDG_CONFIG_HOME, else ~/.config; Windows keeps settings in the registry', () => {
    expect(settingsRoot({ XDG_CONFIG_HOME: '/x/conf', HOME: '/home/a' }, 'linux')).toBe('/x/conf')
    expect(settingsRoot({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config')
    expect(settingsRoot({ HOME: '/home/a' }, 'win32')).toBeUndefined()
  })
})

describe('on a desktop', () => {
  const native = useNativeDesktop()
  const APP = join(import.meta.dir, '../../fixtures/native/close-app.py')

  test('each fresh start in a build, and its end, close the app as a person does (it saves as it quits), then put its settings back', async () => {
    const dir = tempDir('deskhook-settings-home-')
    try {
      const root = join(dir.path, '.config')
      // The fixture writes "saved" to its settings file when its window is closed, as an app does as it quits.
      const file = 'close-app/state.conf'
      write(root, file, 'as the person left it')
      const driver = native.driver({ env: { ...native.desktop.env, XDG_CONFIG_HOME: root } })
      await driver.start()
      // A document the app is opened with is the job's to change, also inside the settings folder.
      write(root, 'close-app/notes.txt', 'first')
      expect(await driver.guardSettings()).toEqual({ guarded: true, files: 2 })
      const spec = {
        executable: '/usr/bin/python3',
        args: [APP, join(root, 'close-app/notes.txt'), 'settings'],
      }
      expect((await driver.launch(spec)).title).toContain('Close test')
      // A fresh start within the build closes the app (it writes "saved") and puts its settings
      // back before starting it again: every try begins where a live run will.
      expect((await driver.launch(spec)).title).toContain('Close test')
      expect(read(root, file)).toBe('as the person left it')
      write(root, 'other-app/settings.ini', 'left alone')
      write(root, 'close-app/notes.txt', 'changed by the job')

      const done = await driver.restoreSettings()
      expect(done).toEqual({ restored: [file], removed: [] })
      expect(read(root, file)).toBe('as the person left it')
      expect(read(root, 'other-app/settings.ini')).toBe('left alone')
      expect(read(root, 'close-app/notes.txt')).toBe('changed by the job')
      // The app was closed by its window (it wrote on the way out), not left running.
      expect((await driver.listWindows()).some((w) => w.title.includes('Close test'))).toBe(false)
      // Outside a build nothing is guarded: a run's fresh start and its changes stay.
      await driver.launch(spec)
      await driver.launch(spec)
      expect(read(root, file)).toBe('saved')
      expect(await driver.restoreSettings()).toEqual({ restored: [], removed: [] })
    } finally {
      dir.remove()
    }
  }, 60_000)
})

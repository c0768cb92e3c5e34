// A build's exploring leaves the apps' saved settings as it found them
// (src/agent/drivers/native/settings-guard.ts): real files, and a real GTK app on a real X desktop
// that writes its settings file as it quits.
import { describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  namesOf,
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
  const NOTES = new Set(['notes'])
  test('the app’s files are put back (changed, removed, added); other apps’ are left alone', () => {
    const dir = tempDir('deskhook-settings-')
    try {
      const root = dir.path
      write(root, 'notes/notes.conf', 'toolbar=true\n')
      write(root, 'notes/history', 'a\n')
      write(root, 'Org/Notes.conf', 'preview=on\n')
      write(root, 'notesrc', 'theme=dark\n')
      write(root, 'other/main/notes-like.conf', 'x')
      write(root, 'browser/Preferences', '{"bookmarks":1}')
      const before = readSettings(root, NOTES)
      expect(before.complete).toBe(true)
      expect([...before.files.keys()].sort()).toEqual(['Org/Notes.conf', 'notes/history', 'notes/notes.conf'])
      // What exploring did: a toggle saved, a file removed, a first-run folder written...
      write(root, 'notes/notes.conf', 'toolbar=false\n')
      write(root, 'Org/Notes.conf', 'preview=off\n')
      write(root, 'notes/plugins/first-run.conf', 'seen=1\n')
      Bun.spawnSync(['rm', join(root, 'notes/history')])
      // ...while another app of the person's went on with its own settings.
      write(root, 'browser/Preferences', '{"bookmarks":2}')
      write(root, 'browser/Session', 'tabs')

      const done = putBackSettings(before, NOTES)
      expect(done.restored.sort()).toEqual(['Org/Notes.conf', 'notes/history', 'notes/notes.conf'])
      expect(done.removed).toEqual(['notes/plugins/first-run.conf'])
      expect(read(root, 'notes/notes.conf')).toBe('toolbar=true\n')
      expect(read(root, 'Org/Notes.conf')).toBe('preview=on\n')
      expect(read(root, 'notes/history')).toBe('a\n')
      expect(existsSync(join(root, 'notes/plugins'))).toBe(false)
      expect(read(root, 'browser/Preferences')).toBe('{"bookmarks":2}')
      expect(read(root, 'browser/Session')).toBe('tabs')
      // Nothing left to put back the second time.
      expect(putBackSettings(readSettings(root, NOTES), NOTES)).toEqual({ restored: [], removed: [] })
    } finally {
      dir.remove()
    }
  })

  test('an app folder holding a file too large to keep (a store, not settings) is left alone', () => {
    const dir = tempDir('deskhook-settings-')
    try {
      const root = dir.path
      write(root, 'notes/notes.conf', 'a')
      write(root, 'notes/store.db', Buffer.alloc(2 << 20, 1))
      const before = readSettings(root, NOTES)
      expect(before.complete).toBe(false)
      write(root, 'notes/notes.conf', 'b')
      write(root, 'notes/store.db-wal', 'committed')
      expect(putBackSettings(before, NOTES)).toEqual({ restored: [], removed: [] })
      expect(read(root, 'notes/notes.conf')).toBe('b')
      expect(read(root, 'notes/store.db-wal')).toBe('committed')
    } finally {
      dir.remove()
    }
  })

  test('a folder turned into a link is not written through', () => {
    const dir = tempDir('deskhook-settings-')
    const outside = tempDir('deskhook-outside-')
    try {
      const root = dir.path
      write(root, 'notes/sub/notes.conf', 'a')
      const before = readSettings(root, NOTES)
      Bun.spawnSync(['rm', '-r', join(root, 'notes/sub')])
      symlinkSync(outside.path, join(root, 'notes/sub'))
      putBackSettings(before, NOTES)
      expect(existsSync(join(outside.path, 'notes.conf'))).toBe(false)
    } finally {
      dir.remove()
      outside.remove()
    }
  })

  test('an app is known by its program or script, never by an interpreter or a generic name', () => {
    expect(namesOf({ executable: '/usr/bin/featherpad' })).toEqual(['featherpad'])
    expect(namesOf({ executable: '/usr/bin/python3', args: ['/opt/x/notes.py'] })).toEqual(['notes'])
    expect(namesOf({ executable: '/usr/bin/python3', args: ['/opt/tool/main.py'] })).toEqual([])
    expect(namesOf({ executable: 'node', args: ['index.js'] })).toEqual([])
    expect(namesOf({ executable: 'AppRun' })).toEqual([])
  })

  test('the folder is XDG_CONFIG_HOME, else ~/.config; Windows keeps settings in the registry', () => {
    expect(settingsRoot({ XDG_CONFIG_HOME: '/x/conf', HOME: '/home/a' }, 'linux')).toBe('/x/conf')
    expect(settingsRoot({ XDG_CONFIG_HOME: 'rel/conf', HOME: '/home/a' }, 'linux')).toBe('/home/a/.config')
    expect(settingsRoot({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config')
    expect(settingsRoot({ HOME: '/home/a' }, 'win32')).toBeUndefined()
  })
})

describe('on a desktop', () => {
  const native = useNativeDesktop()
  const APP = join(import.meta.dir, '../../fixtures/native/close-app.py')

  test('each fresh start in a build, and its end, close the app as a person does (it saves as it quits), then put its settings back', async () => {
    const dir = tempDir('deskhook-settings-home-')
    const driver = native.driver({
      env: { ...native.desktop.env, XDG_CONFIG_HOME: join(dir.path, '.config') },
    })
    try {
      const root = join(dir.path, '.config')
      // The fixture adds a line "saved" to its settings file as its window is closed, as an app saves as it quits.
      const file = 'close-app/state.conf'
      write(root, file, 'as the person left it\n')
      // A document the app is opened with is the job's to change, also inside the settings folder.
      write(root, 'close-app/notes.txt', 'first')
      const spec = {
        executable: '/usr/bin/python3',
        args: [APP, join(root, 'close-app/notes.txt'), 'settings'],
      }
      await driver.start()
      // The person's own instance is open when the build starts.
      expect((await driver.launch(spec)).title).toContain('Close test')
      expect(await driver.guardSettings()).toEqual({ guarded: true })
      // The build's first start closes it: what it saved as it quit is the person's, and kept.
      await driver.launch(spec)
      const persons = 'as the person left it\nsaved\n'
      expect(read(root, file)).toBe(persons)
      // A later fresh start closes the build's instance (it saves again) and puts the settings back
      // before starting it: every try begins where a live run will.
      await driver.launch(spec)
      expect(read(root, file)).toBe(persons)
      write(root, 'other-app/settings.ini', 'left alone')
      write(root, 'close-app/notes.txt', 'changed by the job')

      const done = await driver.restoreSettings()
      // The build's instance was closed by its window (it wrote on the way out, then was put back),
      // and the person's app, open before the build, is open again.
      expect(done).toEqual({
        restored: [file],
        removed: [],
        reopened: [expect.stringContaining('Close test')],
      })
      expect(read(root, file)).toBe(persons)
      expect(read(root, 'other-app/settings.ini')).toBe('left alone')
      expect(read(root, 'close-app/notes.txt')).toBe('changed by the job')
      expect((await driver.listWindows()).filter((w) => w.title.includes('Close test'))).toHaveLength(1)
      // Outside a build nothing is guarded: a run's fresh starts and their changes stay.
      await driver.launch(spec)
      await driver.launch(spec)
      expect(read(root, file)).toBe(`${persons}saved\nsaved\n`)
      expect(await driver.restoreSettings()).toEqual({ restored: [], removed: [], reopened: [] })
      await driver.stop()
      await driver.start()

      // A build that found the app closed leaves it closed.
      const before = read(root, file)
      expect(await driver.guardSettings()).toEqual({ guarded: true })
      await driver.launch(spec)
      await driver.launch(spec)
      expect(await driver.restoreSettings()).toEqual({ restored: [file], removed: [], reopened: [] })
      expect(read(root, file)).toBe(before)
      expect((await driver.listWindows()).some((w) => w.title.includes('Close test'))).toBe(false)
    } finally {
      await driver.stop()
      dir.remove()
    }
  }, 60_000)
})

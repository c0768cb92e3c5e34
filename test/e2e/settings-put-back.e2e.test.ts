import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eventually } from '../helpers/cli.ts'
import { type NativeRig, startNativeRig } from '../helpers/native-apps.ts'
import { useNativeDesktop } from '../helpers/native-desktop.ts'
import { type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * A build leaves the app's saved settings as it found them (docs/builder.md, "Do no harm"): the
 * real server, a real `deskhook agent --driver desktop` on a headless desktop, and a GTK app
 * (test/fixtures/native/close-app.py) that adds a line to its settings file as its window is closed.
 * The build's first start closes the person's instance (its save is the person's, kept); the build
 * is cancelled while it waits to be shown how; its end closes the build's instance as a person
 * would, and the line it wrote on the way out is taken back.
 */
const native = useNativeDesktop()
const APP = join(import.meta.dir, '../fixtures/native/close-app.py')
let rig: NativeRig
let s: TestServer
let settings: string

beforeAll(async () => {
  rig = await startNativeRig(native.desktop, (home) => {
    settings = join(home.env.XDG_CONFIG_HOME!, 'close-app', 'state.conf')
    mkdirSync(join(settings, '..'), { recursive: true })
    writeFileSync(settings, 'as the person left it\n')
    return [
      {
        spec: { executable: '/usr/bin/python3', args: [APP, join(home.path, 'notes.txt'), 'settings'] },
        env: home.env,
        home: home.path,
        dataFile: settings,
        remove: home.remove,
      },
    ]
  })
  s = rig.server
}, 90_000)

afterAll(() => rig?.stop(), 30_000)

interface BuildView {
  status: string
  question: { kind: string } | null
  progress: { stage: string; message: string }[]
}

describe('settings put back', () => {
  test('a cancelled build closes the app it started and puts back the settings file it wrote', async () => {
    const taught = await s.call('/close-test-notes', {
      method: 'POST',
      json: teachBody(
        { prompt: 'Save the work in the Close test window', demonstrate: true, expect: {} },
        {},
      ),
    })
    expect(taught.status).toBe(202)
    const { buildId } = (await taught.json()) as { buildId: string }
    const view = async () => (await (await s.call(`/_builds/${buildId}`)).json()) as BuildView
    const asked = await eventually(async () => {
      const b = await view()
      return (b.status === 'waiting_for_answer' || b.status === 'failed') && b
    }, 120_000)
    expect(asked.question?.kind, asked.progress.map((p) => p.message).join('\n')).toBe('demonstrate')
    expect((await s.call(`/_builds/${buildId}/cancel`, { method: 'POST' })).status).toBe(200)
    // The app is closed by its window (it writes "saved" then), and the file is put back after.
    await eventually(async () => {
      const windows = await s.hub.rpc<{ title: string }[]>(rig.desktopId, 'listWindows', [], 10_000)
      return !windows.some((w) => w.title.includes('Close test'))
    }, 30_000)
    // The person's own instance, closed by the build's first start, saved as it quit: that is kept.
    await eventually(async () => readFileSync(settings, 'utf8') === 'as the person left it\nsaved\n', 10_000)
  }, 180_000)
})

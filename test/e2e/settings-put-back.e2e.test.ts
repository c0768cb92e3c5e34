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
 * would, takes back the line it wrote on the way out, and starts the person's app again, all
 * before the next build takes the desktop.
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
  test('a cancelled build closes the app it started, puts back the settings file it wrote and starts the person’s app again before the next build takes the desktop', async () => {
    const teach = async (path: string) => {
      const taught = await s.call(path, {
        method: 'POST',
        json: teachBody(
          { prompt: 'Save the work in the Close test window', demonstrate: true, expect: {} },
          {},
        ),
      })
      expect(taught.status).toBe(202)
      return ((await taught.json()) as { buildId: string }).buildId
    }
    const view = async (id: string) => (await (await s.call(`/_builds/${id}`)).json()) as BuildView
    const asked = async (id: string) => {
      const b = await eventually(async () => {
        const b = await view(id)
        return (b.status === 'waiting_for_answer' || b.status === 'failed') && b
      }, 120_000)
      expect(b.question?.kind, b.progress.map((p) => p.message).join('\n')).toBe('demonstrate')
      return b
    }
    const first = await teach('/close-test-notes')
    await asked(first)
    // Cancelled, and another teaching call at once: the second build may take the desktop only
    // once the first has closed its app, put its settings back and started the person's again.
    expect((await s.call(`/_builds/${first}/cancel`, { method: 'POST' })).status).toBe(200)
    const second = await teach('/close-test-other-notes')
    const seen = await asked(second)
    const windows = seen.progress.find((p) => p.stage === 'locate' && p.message.startsWith('Open windows:'))
    expect(windows?.message).toContain('Close test')
    // The person's own instance, closed by the first build's first start, saved as it quit: that
    // is kept; the line the first build's instance wrote was taken back before the second began.
    const persons = 'as the person left it\nsaved\n'
    expect((await s.call(`/_builds/${second}/cancel`, { method: 'POST' })).status).toBe(200)
    // The app started again for the person was closed by the second build's first start (it
    // saved once more, as the person's), and is open again once the second build wound down.
    await eventually(async () => {
      const windows = await s.hub.rpc<{ title: string }[]>(rig.desktopId, 'listWindows', [], 10_000)
      return (
        windows.some((w) => w.title.includes('Close test')) &&
        readFileSync(settings, 'utf8') === `${persons}saved\n`
      )
    }, 30_000)
  }, 240_000)
})

// The agent's Recorder over the real browser driver and Chromium: actions are numbered in order,
// each names the screen (snapshot) it was made on, bursts get a screenshot once the window
// settles, the last screen closes the recording, and a password never reaches it (nor do the
// pixels of a password field: its screenshots show those blacked out).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { BrowserDriver } from '../../../src/agent/drivers/browser/index.ts'
import { describeAction, RECORDING_BUDGET, Recorder, withinFrame } from '../../../src/agent/recorder.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import type { Recording } from '../../../src/protocol/recording.ts'
import { eventually } from '../../helpers/cli.ts'
import { countPixels, isBlue, isGreen, isMagenta, isRed } from '../../helpers/jpeg-pixels.ts'

const PAGES = join(import.meta.dir, 'pages')
/** Password fields filled red, blue (in a shadow root) and magenta (in a frame); the user name green. */
const PASSWORD_PAGE = join(import.meta.dir, '..', 'pages', 'password.html')
const PASSWORD = 'Zr8#pLq2Wd'

/** A window that never goes quiet (a clock ticking every 150 ms, also in the modal form, since a modal leaves the rest of the page out of the accessibility tree) and a modal form opened by a button. */
const TICKING = `<!doctype html><meta charset="utf-8"><title>Contacts</title>
<p class="clock">0</p>
<button type="button" id="new">New contact</button>
<dialog id="form"><p class="clock">0</p><label for="first">First name</label><input id="first"></dialog>
<script>
  let n = 0
  setInterval(() => { n++; for (const c of document.querySelectorAll('.clock')) c.textContent = String(n) }, 150)
  document.getElementById('new').onclick = () => document.getElementById('form').showModal()
</script>`

let server: ReturnType<typeof Bun.serve>
let driver: BrowserDriver
let base: string
const logged: string[] = []

const html = (body: string) => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })

beforeAll(async () => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const { pathname } = new URL(request.url)
      if (pathname === '/sign-in') return html(await Bun.file(join(PAGES, 'sign-in.html')).text())
      if (pathname === '/password') return html(await Bun.file(PASSWORD_PAGE).text())
      if (pathname === '/ticking') return html(TICKING)
      if (pathname === '/welcome') {
        if (request.method === 'POST') await request.text()
        return html('<!doctype html><title>Welcome</title><h1>Welcome</h1>')
      }
      return new Response(null, { status: 404 })
    },
  })
  base = `http://127.0.0.1:${server.port}`
  driver = new BrowserDriver()
  await driver.start()
})

afterAll(async () => {
  await driver?.stop()
  await server?.stop(true)
})

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]

describe('the agent recorder', () => {
  test('a sign-in shown once: ordered actions, their screens, screenshots, and no password anywhere', async () => {
    const log = createLogger({
      level: 'debug',
      format: 'json',
      destination: { write: (line: string) => void logged.push(line) } as unknown as NodeJS.WritableStream,
    })
    const recorder = new Recorder(driver, log)
    const { id } = await driver.launch({ url: `${base}/sign-in` })
    const status = await recorder.recordStart(id)
    expect(status).toMatchObject({ recording: true, windowId: id, actions: 0 })

    const at = async (role: string, name: string) => {
      const e = flat((await driver.snapshot(id)).root).find((x) => x.role === role && x.name === name)
      if (!e?.bounds) throw new Error(`no ${role} “${name}”`)
      return { x: e.bounds.x + e.bounds.width / 2, y: e.bounds.y + e.bounds.height / 2 }
    }
    const boxes = flat((await driver.snapshot(id)).root).filter((e) => e.role === 'textbox')
    const [user, password] = [boxes[0]!, boxes[1]!]
    await recorder.input(id, { kind: 'click', x: user.bounds!.x + 5, y: user.bounds!.y + 5 })
    await recorder.input(id, { kind: 'type', text: 'ada' })
    await recorder.input(id, { kind: 'click', x: password.bounds!.x + 5, y: password.bounds!.y + 5 })
    await recorder.input(id, { kind: 'type', text: PASSWORD })
    await recorder.input(id, { kind: 'click', ...(await at('button', 'Sign in')) })
    await eventually(async () => (await driver.listWindows()).find((w) => w.id === id)?.title === 'Welcome')
    await eventually(async () =>
      recorder.recordStatus().recent.some((r) => r.startsWith('Clicked the “Sign in”')),
    )

    const recording = await recorder.recordStop()
    expect(recorder.recordStatus()).toEqual({ recording: false, actions: 0, recent: [] })
    expect(recording.actions.map((a) => a.seq)).toEqual(recording.actions.map((_, i) => i + 1))
    expect(recording.actions.map((a) => a.kind)).toContain('input')
    const secret = recording.actions.filter((a) => a.secret)
    expect(secret.length).toBeGreaterThan(0)
    expect(secret.every((a) => a.value === undefined)).toBe(true)
    // Each action names a screen that exists; the one after the click is the last, "Welcome".
    for (const a of recording.actions) expect(a.before).toBeLessThan(recording.snapshots.length)
    expect(recording.snapshots[0]!.window.title).not.toBe('Welcome')
    expect(recording.snapshots.at(-1)!.window.title).toBe('Welcome')
    const signIn = recording.actions.find((a) => a.kind === 'click' && a.target?.name === 'Sign in')!
    expect(recording.snapshots[signIn.before]!.window.title).not.toBe('Welcome')
    // Bursts end with a screenshot (JPEG).
    const shots = recording.actions.filter((a) => a.screenshot)
    expect(shots.length).toBeGreaterThan(0)
    expect(Buffer.from(shots.at(-1)!.screenshot!, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]))
    // The password is nowhere: not in the recording, not in the words, not in the log.
    const everything =
      JSON.stringify(recording) + recording.actions.map(describeAction).join('\n') + logged.join('')
    expect(everything).not.toContain(PASSWORD)
    expect(everything).not.toContain(PASSWORD.slice(0, 4))
    expect(recording.actions.map(describeAction)).toContain('Typed a secret into the “Password” textbox')
  }, 60_000)

  test('its screenshots show every password field blacked out, and the rest of the window as it is', async () => {
    const recorder = new Recorder(driver, createLogger({ level: 'silent', format: 'json' }))
    const { id } = await driver.launch({ url: `${base}/password` })
    await recorder.recordStart(id)
    let recording: Recording
    try {
      const user = flat((await driver.snapshot(id)).root).find((e) => e.automationId === 'user')!
      await recorder.input(id, { kind: 'click', x: user.bounds!.x + 5, y: user.bounds!.y + 5 })
      await recorder.input(id, { kind: 'type', text: 'x' })
      await eventually(async () => recorder.recordStatus().recent.some((r) => r.startsWith('Typed')))
      recording = await recorder.recordStop()
    } finally {
      await recorder.discard()
    }
    const shots = recording.actions.flatMap((a) =>
      a.screenshot ? [Buffer.from(a.screenshot, 'base64')] : [],
    )
    expect(shots.length).toBeGreaterThan(0)
    for (const shot of shots) {
      for (const secret of [isRed, isBlue, isMagenta]) expect(countPixels(shot, secret)).toBe(0)
      expect(countPixels(shot, isGreen)).toBeGreaterThan(5_000) // the user name field: 240×40
    }
  }, 60_000)

  test('a window that never settles: the screen a person acts on is read when they act, not after the longest wait for quiet', async () => {
    const recorder = new Recorder(driver, createLogger({ level: 'silent', format: 'json' }))
    const { id } = await driver.launch({ url: `${base}/ticking` })
    await recorder.recordStart(id)
    let recording: Recording
    /** The page's clock: ticks of 150 ms in the page's own time, however busy the machine is. */
    const clock = (root: UiElement) => Number(flat(root).find((e) => /^\d+$/.test(e.name))?.name)
    let clickedAt = 0
    try {
      const find = (pick: (e: UiElement) => boolean) =>
        eventually(async () => flat((await driver.snapshot(id)).root).find((e) => pick(e) && !!e.bounds))
      const centre = (e: UiElement) => ({
        x: e.bounds!.x + e.bounds!.width / 2,
        y: e.bounds!.y + e.bounds!.height / 2,
      })
      await recorder.input(id, { kind: 'click', ...centre(await find((e) => e.name === 'New contact')) })
      const box = await find((e) => e.role === 'textbox')
      clickedAt = clock((await driver.snapshot(id)).root)
      await recorder.input(id, { kind: 'click', ...centre(box) })
      await recorder.input(id, { kind: 'type', text: 'Ada' })
      await eventually(async () => recorder.recordStatus().recent.some((r) => r.startsWith('Typed')))
      // A person looks at the screen before going on: here, until it has been read twice more.
      await eventually(async () => (recorder.recordStatus().screens ?? 0) >= 3, 15_000)
      recording = await recorder.recordStop()
    } finally {
      await recorder.discard()
    }
    // The first screen showing the form was read within a few ticks of the click in it; waiting
    // for quiet would have read it only after the longest wait (3 s, 20 ticks).
    const shown = recording.snapshots.find((s) => flat(s.root).some((e) => e.role === 'textbox'))!
    expect(shown).toBeTruthy()
    expect(clock(shown.root) - clickedAt).toBeLessThan(20)
  }, 60_000)

  test('stopping with nothing recorded is an error; a second start replaces the first', async () => {
    const recorder = new Recorder(driver, createLogger({ level: 'silent', format: 'json' }))
    await expect(recorder.recordStop()).rejects.toThrow('nothing is being recorded')
    const { id } = await driver.launch({ url: `${base}/sign-in` })
    await recorder.recordStart(id)
    await recorder.recordStart(id)
    expect((await recorder.recordStop()).actions).toEqual([])
  }, 30_000)
})

test('a long demonstration gives up its oldest screenshots to fit one hub frame, never its actions', () => {
  const shot = 'A'.repeat(1024 * 1024)
  const recording = {
    window: { id: 'w', title: 'App', app: 'x', kind: 'tab' as const },
    startedAt: '2026-11-23T00:00:00.000Z',
    endedAt: '2026-11-23T00:01:00.000Z',
    snapshots: [],
    actions: Array.from({ length: 10 }, (_, i) => ({
      kind: 'click' as const,
      seq: i + 1,
      atMs: i,
      before: 0,
      screenshot: shot,
    })),
  }
  const fitted = withinFrame(recording)
  expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(RECORDING_BUDGET)
  expect(fitted.actions).toHaveLength(10)
  // The newest keep theirs.
  expect(fitted.actions.at(-1)!.screenshot).toBe(shot)
  expect(fitted.actions[0]!.screenshot).toBeUndefined()
})

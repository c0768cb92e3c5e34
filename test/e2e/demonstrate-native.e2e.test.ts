import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Snapshot, UiElement, WindowInfo } from '../../src/protocol/elements.ts'
import type { RemoteInput } from '../../src/protocol/recording.ts'
import { cli, eventually } from '../helpers/cli.ts'
import {
  type NativeApp,
  type NativeRig,
  osmoApp,
  osmoContacts,
  startNativeRig,
} from '../helpers/native-apps.ts'
import { useNativeDesktop } from '../helpers/native-desktop.ts'
import { type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * "Show me" on a real native app: Osmo (GTK, Debian's package) on a headless Linux desktop, the
 * real server and a real `deskhook agent --driver desktop`. The teach call asks to be shown; the
 * demonstration is made over HTTP the way the dashboard's preview makes it — clicks at window
 * coordinates and typing, performed by the agent as X input — and the job it yields adds a
 * contact on a live call.
 */
const native = useNativeDesktop()
let rig: NativeRig
let s: TestServer
let desktopId: string
let osmo: NativeApp

beforeAll(async () => {
  rig = await startNativeRig(native.desktop, (home) => {
    osmo = osmoApp(home)
    return [osmo]
  })
  ;({ server: s, desktopId } = rig)
}, 90_000)

afterAll(() => rig?.stop(), 30_000)

interface BuildView {
  status: string
  question: { id: string; kind: string; text: string; windowId?: string } | null
  progress: { stage: string; message: string }[]
  error: { code: string; message: string } | null
}

const build = async (id: string) => (await (await s.call(`/_builds/${id}`)).json()) as BuildView
const explain = (b: BuildView) =>
  `${b.status}: ${b.error?.message ?? b.question?.text ?? ''}\n${b.progress.map((p) => `  [${p.stage}] ${p.message}`).join('\n')}`

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const centre = (e: UiElement) => ({
  x: e.bounds!.x + e.bounds!.width / 2,
  y: e.bounds!.y + e.bounds!.height / 2,
})

describe('a demonstration on Osmo', () => {
  test('asked up front, shown once by clicks and typing over HTTP; the job adds a contact on a live call', async () => {
    const taught = await s.call('/shown-contacts', {
      method: 'POST',
      json: teachBody(
        { prompt: 'Add a contact in Osmo', demonstrate: true, expect: {} },
        { firstName: 'Ada', lastName: 'Byron' },
      ),
    })
    expect(taught.status).toBe(202)
    const { buildId } = (await taught.json()) as { buildId: string }
    const asked = await eventually(async () => {
      const b = await build(buildId)
      return (b.status === 'waiting_for_answer' || b.status === 'failed') && b
    }, 120_000)
    expect(asked.question?.kind, explain(asked)).toBe('demonstrate')
    const windowId = asked.question!.windowId!
    expect(windowId).toBeTruthy()

    const started = await s.call(`/_builds/${buildId}/recordings`, { method: 'POST' })
    expect(started.status).toBe(201)
    const { recordingId } = (await started.json()) as { recordingId: string }
    const rec = `/_builds/${buildId}/recordings/${recordingId}`
    const send = async (input: RemoteInput) => {
      const res = await s.call(`${rec}/input`, { method: 'POST', json: input })
      expect(res.status, await res.clone().text()).toBe(204)
    }
    const screen = () => s.hub.rpc<Snapshot>(desktopId, 'snapshot', [windowId], 30_000)
    /** The element once it shows: the window is read again until it does. */
    const find = (pick: (all: UiElement[]) => UiElement | undefined) =>
      eventually(async () => pick(flat((await screen()).root)), 20_000)
    /** The text box right of a caption in the Add contact dialog (Osmo's boxes have no names). */
    const boxAfter = (caption: string) => (all: UiElement[]) => {
      const label = all.find((e) => e.role === 'text' && e.name === caption)
      return all.find(
        (e) =>
          e.role === 'textbox' &&
          label &&
          Math.abs(e.bounds!.y - label.bounds!.y) < 5 &&
          e.bounds!.x > label.bounds!.x,
      )
    }

    await send({
      kind: 'click',
      ...centre(await find((all) => all.find((e) => e.role === 'tab' && e.name === 'Contacts'))),
    })
    await send({
      kind: 'click',
      ...centre(await find((all) => all.find((e) => e.role === 'button' && e.name === 'New contact'))),
    })
    await send({ kind: 'click', ...centre(await find(boxAfter('First name:'))) })
    await send({ kind: 'type', text: 'Adda' })
    await send({ kind: 'key', key: 'Backspace' })
    await send({ kind: 'key', key: 'Backspace' })
    await send({ kind: 'type', text: 'a' })
    await send({ kind: 'click', ...centre(await find(boxAfter('Last name:'))) })
    await send({ kind: 'type', text: 'Byron' })
    await send({
      kind: 'click',
      ...centre(await find((all) => all.find((e) => e.role === 'button' && e.name === 'OK'))),
    })
    await find((all) => (all.some((e) => e.role === 'dialog') ? undefined : all[0]))

    const stopped = await s.call(`${rec}/stop`, { method: 'POST' })
    expect(stopped.status).toBe(200)
    const recording = (await stopped.json()) as {
      actions: { kind: string; value?: string; screenshotUrl?: string }[]
    }
    if (process.env.DESKHOOK_TRANSCRIPT)
      console.log(JSON.stringify(recording.actions.map(({ screenshotUrl: _, ...a }) => a)))
    // The typo and its correction are there as the person made them; the builder keeps the last value.
    expect(recording.actions.filter((a) => a.kind === 'input').at(-1)?.value).toBe('Byron')

    const answered = await s.call(`/_builds/${buildId}/answers`, {
      method: 'POST',
      json: { questionId: asked.question!.id, answer: { recordingId } },
    })
    expect(answered.status, await answered.clone().text()).toBeLessThan(300)
    const done = await eventually(async () => {
      const b = await build(buildId)
      return (
        ['succeeded', 'failed', 'waiting_for_answer'].includes(b.status) &&
        b.question?.kind !== 'demonstrate' &&
        b
      )
    }, 240_000)
    expect(done.status, explain(done)).toBe('succeeded')
    if (process.env.DESKHOOK_TRANSCRIPT) console.log(explain(done))

    const promoted = await cli(['jobs', 'promote', 'POST', '/shown-contacts', '--data', s.dataDir])
    expect(promoted.code).toBe(0)
    const live = await eventually(async () => {
      const r = await s.call('/shown-contacts', {
        method: 'POST',
        json: { firstName: 'Alan', lastName: 'Turing' },
      })
      return r.status !== 409 && r
    }, 30_000)
    expect(live.status, await live.clone().text()).toBe(200)
    // Osmo writes its records when it is started afresh (the next launch) or quits.
    await s.hub.rpc<WindowInfo>(desktopId, 'launch', [osmo.spec], 60_000)
    expect(osmoContacts(osmo)).toEqual(
      expect.arrayContaining([
        { firstName: 'Ada', lastName: 'Byron' },
        { firstName: 'Alan', lastName: 'Turing' },
      ]),
    )
  }, 480_000)
})

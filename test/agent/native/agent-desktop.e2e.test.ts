import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ATSPI_HELPER_FILES } from '../../../src/agent/drivers/linux/index.ts'
import { createEnrollmentToken, listDesktops } from '../../../src/modules/desktops/service.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../../src/protocol/elements.ts'
import { type AgentProcess, startAgent } from '../../helpers/agent-process.ts'
import { cli, eventually } from '../../helpers/cli.ts'
import { useNativeDesktop } from '../../helpers/native-desktop.ts'
import { startTestServer, type TestServer } from '../../helpers/test-server.ts'

/** Real server, real `deskhook agent --driver desktop` process, a real GTK app on a headless desktop. */
const native = useNativeDesktop()
let s: TestServer
let agent: AgentProcess
let desktopId: string

beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 1000 })
  const { token } = createEnrollmentToken(s.ctx)
  agent = startAgent({
    server: s.url,
    token,
    name: 'linux-desk-1',
    driver: 'desktop',
    env: native.desktop.vars,
  })
  const online = await agent.waitForLog((l) => l.msg === 'online', 30_000)
  desktopId = String(online.desktopId)
}, 60_000)

afterAll(async () => {
  await agent?.cleanup()
  await s?.close()
}, 30_000)

const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
const FORM = ['--form', '--title=Ticket', '--field=Subject', '--field=Priority:CB', '', 'Low!Normal!High']

describe('an agent with the desktop driver, over the hub', () => {
  test('it enrolls and reports the desktop driver; its helper was written to its state dir', async () => {
    await eventually(async () => listDesktops(s.ctx).find((d) => d.id === desktopId)?.status === 'online')
    expect(listDesktops(s.ctx).find((d) => d.id === desktopId)).toMatchObject({
      name: 'linux-desk-1',
      platform: 'linux',
      driver: 'desktop',
    })
    expect(readdirSync(join(agent.stateDir, 'helpers', 'atspi')).sort()).toEqual(
      Object.keys(ATSPI_HELPER_FILES).sort(),
    )
    expect(agent.lines.some((l) => l.includes('native helper ready'))).toBe(true)
    // `deskhook desktops list` says what the desktop's driver drives.
    const listed = await cli(['desktops', 'list', '--data', s.dataDir])
    expect(listed.stdout).toMatch(/DRIVER\s+DRIVES/)
    expect(listed.stdout).toMatch(/linux-desk-1\s+linux\s+desktop\s+native Linux apps \(AT-SPI\)/)
  }, 30_000)

  test('launch, listWindows, snapshot, act and screenshot answer over the hub', async () => {
    const window = await s.hub.rpc<WindowInfo>(
      desktopId,
      'launch',
      [{ executable: 'yad', args: FORM }],
      60_000,
    )
    expect(window).toMatchObject({ title: 'Ticket', app: 'yad', kind: 'window' })
    const windows = await s.hub.rpc<WindowInfo[]>(desktopId, 'listWindows', [])
    expect(windows.map((w) => w.id)).toContain(window.id)
    const snapshot = await s.hub.rpc<Snapshot>(desktopId, 'snapshot', [window.id])
    expect(snapshot.window.id).toBe(window.id)
    const subject = flat(snapshot.root).find((e) => e.role === 'textbox' && e.name === 'Subject')!
    const priority = flat(snapshot.root).find((e) => e.role === 'combobox' && e.name === 'Priority')!
    expect(priority.value).toBe('Low')
    await s.hub.rpc(desktopId, 'act', [
      window.id,
      { kind: 'fill', ref: subject.ref, value: 'Printer on fire' },
    ])
    await s.hub.rpc(desktopId, 'act', [window.id, { kind: 'select', ref: priority.ref, values: ['High'] }])
    const after = await s.hub.rpc<Snapshot>(desktopId, 'snapshot', [window.id])
    const fields = flat(after.root).filter((e) => e.role === 'textbox' || e.role === 'combobox')
    expect(fields.map((e) => [e.name, e.value])).toEqual([
      ['Subject', 'Printer on fire'],
      ['Priority', 'High'],
    ])
    const jpeg = Buffer.from(await s.hub.rpc<string>(desktopId, 'screenshot', [window.id]), 'base64')
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
    expect(jpeg.length).toBeGreaterThan(1000)
  }, 60_000)

  test('driver errors reach the server with their codes', async () => {
    const error = await s.hub
      .rpc(desktopId, 'snapshot', [':1.999/org/a11y/atspi/accessible/1'])
      .catch((e) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe(
      'snapshot failed on the desktop: WINDOW_NOT_FOUND: No window :1.999/org/a11y/atspi/accessible/1 (it was closed, or its app quit)',
    )
  }, 30_000)

  test('stopping the agent closes the app it launched and ends its helper', async () => {
    const helperPid = Number(
      agent.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'native helper ready')?.pid,
    )
    const launched = agent.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'app launched')
    expect(helperPid).toBeGreaterThan(0)
    await agent.kill('SIGTERM')
    expect(alive(helperPid)).toBe(false)
    expect(alive(Number(launched?.pid))).toBe(false)
  }, 30_000)
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

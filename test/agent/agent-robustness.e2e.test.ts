// The agent stays up when its apps are down, its browser dies with it (even on kill -9), a
// browser left by a crash is cleaned up on the next start, and a kept profile keeps sign-ins.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { defaultExecutablePath } from '../../src/agent/drivers/browser/launch-browser.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import type { Snapshot, UiElement, WindowInfo } from '../../src/protocol/elements.ts'
import { hubDesktop } from '../../src/runtime/build-worker/hub-desktop.ts'
import { type AgentProcess, startAgent } from '../helpers/agent-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

setDefaultTimeout(90_000)
let s: TestServer
let app: ReturnType<typeof Bun.serve>
let deadUrl: string
const data = tempDir()
const agents: AgentProcess[] = []
const dirs: { remove(): void }[] = []

beforeAll(async () => {
  s = await startTestServer(
    { watchIntervalMs: 20, heartbeatIntervalMs: 1000, agentGraceMs: 5000 },
    { dataDir: data.path },
  )
  // An app that signs the user in with a long-lived cookie and says who is signed in.
  app = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url)
      const html = (body: string, headers: Record<string, string> = {}) =>
        new Response(`<!doctype html><title>Intranet</title>${body}`, {
          headers: { 'content-type': 'text/html', ...headers },
        })
      if (url.pathname === '/login')
        return html('<p id="who">Welcome</p>', { 'set-cookie': 'user=ada; Path=/; Max-Age=86400; HttpOnly' })
      const user = /(?:^|; )user=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1]
      return html(`<p id="who">${user ? `Signed in as ${user}` : 'Please sign in'}</p>`)
    },
  })
  const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
  deadUrl = `http://127.0.0.1:${closed.port}/`
  await closed.stop(true)
})

afterAll(async () => {
  for (const agent of agents) await agent.cleanup()
  await s?.stop()
  await app?.stop(true)
  for (const dir of dirs) dir.remove()
  data.remove()
})

async function online(extra: { startUrl?: string; stateDir?: string; extraArgs?: string[] } = {}) {
  const { token } = createEnrollmentToken(s.ctx)
  const agent = startAgent({ server: s.url, token, name: `robust-${agents.length}`, ...extra })
  agents.push(agent)
  const line = await agent.waitForLog((l) => l.msg === 'online', 30_000)
  const desktopId = String(line.desktopId)
  // The server registers the session as it welcomes it; wait until the hub shows it.
  expect(await eventually(() => s.hub.isOnline(desktopId), 5_000)).toBe(true)
  return { agent, desktopId }
}

function browserPid(stateDir: string): number {
  return (JSON.parse(readFileSync(join(stateDir, 'browser.pid'), 'utf8')) as { pid: number }).pid
}

/** Live (not zombie) processes in the browser's session: setsid makes the browser its leader. */
function sessionMembers(sessionId: number): number[] {
  const members: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z' && Number(fields[3]) === sessionId) members.push(Number(entry))
    } catch {}
  }
  return members
}

/** Polls a condition with a deadline (process exit by signal gives no event to wait on here). */
async function eventually(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs
  while (!condition()) {
    if (performance.now() > deadline) return false
    await Bun.sleep(50)
  }
  return true
}

const flatten = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flatten)]

describe('an app that is down', () => {
  test('a dead --start-url leaves the agent online; a run and an rpc launching it fail with LAUNCH_FAILED', async () => {
    const { agent, desktopId } = await online({ startUrl: deadUrl })
    expect(agent.lines.join('\n')).toContain('start page not opened')
    const automation: Automation = {
      version: 1,
      app: { url: deadUrl },
      steps: [{ kind: 'launch', name: 'Open the app' }],
      scenarios: [],
    }
    const outcome = await s.hub.run(desktopId, {
      runId: crypto.randomUUID(),
      automation,
      input: {},
      timeoutMs: 30_000,
    })
    expect(outcome.status).toBe('failed')
    expect(outcome.error).toMatchObject({ code: 'LAUNCH_FAILED', step: 'Open the app' })
    expect(outcome.error?.message).toContain('ERR_CONNECTION_REFUSED')
    const rpc = await s.hub
      .rpc(desktopId, 'launch', [{ url: 'http://nowhere.invalid/' }])
      .catch((e: Error) => e)
    expect(String(rpc)).toContain('LAUNCH_FAILED')
    // Still the same process, still answering.
    expect(agent.proc.exitCode).toBeNull()
    const window = await s.hub.rpc<WindowInfo>(desktopId, 'launch', [
      { url: `http://127.0.0.1:${app.port}/` },
    ])
    expect(window.title).toBe('Intranet')
  })
})

describe('navigate over the agent connection (the builder’s DesktopPort)', () => {
  test('opens a URL of the app in its window; another site is NAVIGATION_BLOCKED', async () => {
    const { desktopId } = await online()
    const desktop = hubDesktop(s.hub, desktopId, 'robust')
    const base = `http://127.0.0.1:${app.port}`
    const window = await desktop.launch({ url: `${base}/` })
    const moved = await desktop.navigate(window.id, `${base}/login`)
    expect(moved).toMatchObject({ id: window.id, url: `${base}/login` })
    const outside = await desktop.navigate(window.id, 'http://partner.example/').catch((e: Error) => e)
    expect(String(outside)).toContain('NAVIGATION_BLOCKED')
    expect((await desktop.listWindows()).find((w) => w.id === window.id)?.url).toBe(`${base}/login`)
  })

  test('clearSession reaches the agent’s own browser (the back-office flow shows its effect)', async () => {
    const { desktopId } = await online()
    const desktop = hubDesktop(s.hub, desktopId, 'robust')
    const window = await desktop.launch({ url: `http://127.0.0.1:${app.port}/` })
    expect(await desktop.clearSession!(window.id)).toBe(true)
    expect((await desktop.snapshot(window.id)).window.id).toBe(window.id)
  })
})

describe('the browser dies with the agent', () => {
  test('kill -9 of the agent takes its Chromium (and its helpers) down within seconds', async () => {
    const { agent } = await online()
    const pid = browserPid(agent.stateDir)
    expect(sessionMembers(pid).length).toBeGreaterThan(1)
    agent.proc.kill('SIGKILL')
    await agent.exited
    expect(await eventually(() => sessionMembers(pid).length === 0, 5_000)).toBe(true)
  })

  test('SIGTERM and SIGHUP stop the agent and its browser', async () => {
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      const { agent } = await online()
      const pid = browserPid(agent.stateDir)
      expect(await agent.kill(signal)).toBe(0)
      expect(sessionMembers(pid)).toEqual([])
    }
  })

  test('a browser left running by a crashed agent is ended when an agent starts on the same state dir', async () => {
    const state = tempDir('deskhook-agent-')
    dirs.push(state)
    const profile = tempDir('deskhook-leftover-')
    // A browser that outlived its agent: not our child's child, no parent-death signal.
    const leftover = Bun.spawn(
      [
        defaultExecutablePath(),
        '--headless',
        '--no-sandbox',
        `--user-data-dir=${profile.path}`,
        'about:blank',
      ],
      { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' },
    )
    writeFileSync(
      join(state.path, 'browser.pid'),
      JSON.stringify({ pid: leftover.pid, userDataDir: profile.path, temporary: true }),
    )
    const { agent } = await online({ stateDir: state.path })
    const ended = await Promise.race([leftover.exited.then(() => true), Bun.sleep(10_000).then(() => false)])
    expect(ended).toBe(true)
    expect(leftover.signalCode).toBe('SIGKILL')
    // The new browser is the one recorded now.
    expect(browserPid(agent.stateDir)).not.toBe(leftover.pid)
  })

  test('a PID file naming some other process kills nothing', async () => {
    const state = tempDir('deskhook-agent-')
    dirs.push(state)
    const bystander = Bun.spawn(['sleep', '30'], { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' })
    writeFileSync(
      join(state.path, 'browser.pid'),
      JSON.stringify({ pid: bystander.pid, userDataDir: '/tmp/x' }),
    )
    await online({ stateDir: state.path })
    expect(bystander.exitCode).toBeNull()
    expect(bystander.killed).toBe(false)
    bystander.kill()
    await bystander.exited
  })
})

describe('--profile-dir', () => {
  test('is refused with --devtools-url (that browser keeps its own profile), as is a start URL that is not http(s)', async () => {
    const both = startAgent({
      server: s.url,
      extraArgs: ['--profile-dir', '/tmp/x', '--devtools-url', 'http://127.0.0.1:9222', '--start-url', 'crm'],
    })
    agents.push(both)
    expect(await both.exited).toBe(2)
    const said = both.lines.join('\n')
    expect(said).toContain('--profile-dir is for a browser the agent launches')
    expect(said).toContain('--start-url must be an http(s) URL')
  })

  test('a sign-in (cookie) survives an agent restart on the same profile', async () => {
    const profile = tempDir('deskhook-profile-')
    dirs.push(profile)
    const base = `http://127.0.0.1:${app.port}`
    const who = async (desktopId: string, url: string) => {
      const window = await s.hub.rpc<WindowInfo>(desktopId, 'launch', [{ url }])
      const snap = await s.hub.rpc<Snapshot>(desktopId, 'snapshot', [window.id])
      return flatten(snap.root).find((e) => e.automationId === 'who')?.name
    }
    const first = await online({ extraArgs: ['--profile-dir', profile.path] })
    expect(await who(first.desktopId, `${base}/login`)).toBe('Welcome')
    expect(await who(first.desktopId, `${base}/`)).toBe('Signed in as ada')
    await first.agent.kill('SIGTERM')
    // Restart once the server has seen the old connection go (same desktop, same credential).
    expect(await eventually(() => !s.hub.isOnline(first.desktopId), 10_000)).toBe(true)
    const second = await online({
      stateDir: first.agent.stateDir,
      extraArgs: ['--profile-dir', profile.path],
    })
    expect(await who(second.desktopId, `${base}/`)).toBe('Signed in as ada')
    // Without the profile, a fresh browser is not signed in.
    const fresh = await online()
    expect(await who(fresh.desktopId, `${base}/`)).toBe('Please sign in')
  })
})

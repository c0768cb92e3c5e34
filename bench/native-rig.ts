/**
 * The native half of `bun run bench:builder` (bench/native-split.md): one headless desktop
 * (Xvfb, D-Bus, AT-SPI), the real server and a real `deskhook agent --driver desktop` per app,
 * the app's home seeded by its module (test/native-thirdparty/<name>/), each job taught over HTTP
 * as for web apps (test/gauntlet/run-job.ts). Around every job the home's files are compared:
 * the data files change only by the job's effect (the job's own checks), and **every other file
 * must be as it was** (a setting toggled, a file created or deleted by exploring is harm done).
 * What the app itself rewrites on a plain open and close (window sizes, a last-opened time) is
 * measured first, by launching the app twice (the second launch closes the first as a person
 * does), and not counted: for text files by the lines' keys that changed then, for other files
 * as a whole. Neither is where windows were and how big (`LAYOUT`): a person using the app changes
 * that too.
 */
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { startTestDesktop } from '../scripts/test-desktop.ts'
import { createEnrollmentToken } from '../src/modules/desktops/service.ts'
import type { WindowInfo } from '../src/protocol/elements.ts'
import { type JobOutcome, runJob } from '../test/gauntlet/run-job.ts'
import type { GauntletJob } from '../test/gauntlet/types.ts'
import { startAgent } from '../test/helpers/agent-process.ts'
import { appHome } from '../test/helpers/native-apps.ts'
import { startTestServer } from '../test/helpers/test-server.ts'
import type { NativeRunningApp, NativeThirdPartyApp } from '../test/native-thirdparty/types.ts'

/** A file as compared: its hash, and for text its lines by key (`key=value` lines by their key). */
interface FileState {
  hash: string
  lines?: Map<string, string>
}
type HomeState = Map<string, FileState>

const MAX_TEXT = 1 << 20
/**
 * Where windows were and how big, which columns and panes: what a person changes by using the app
 * at all, not a setting of what it does (a dialog's last size is saved when it closes).
 */
const LAYOUT =
  /geometry|window|size|position|maximi[sz]ed|width|height|pane|splitter|column|header.?state|sort/i

function readHome(root: string, skip: Set<string>): HomeState {
  const state: HomeState = new Map()
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const stat = lstatSync(path, { throwIfNoEntry: false })
      if (!stat || skip.has(path)) continue
      if (stat.isDirectory()) walk(path)
      else if (stat.isFile()) state.set(relative(root, path), fileState(path, stat.size))
      else if (stat.isSymbolicLink()) state.set(relative(root, path), { hash: 'symlink' })
    }
  }
  if (existsSync(root)) walk(root)
  return state
}

function fileState(path: string, size: number): FileState {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch {
    return { hash: 'unreadable' }
  }
  const hash = createHash('sha256').update(bytes).digest('hex')
  if (size > MAX_TEXT || bytes.includes(0)) return { hash }
  const lines = new Map<string, string>()
  let section = ''
  for (const [i, line] of bytes.toString('utf8').split('\n').entries()) {
    // Settings files: a key is known by its section and name, so a section written in another
    // place (a dialog's new group) moves nothing else; a section header alone says nothing.
    const header = /^\s*\[([^\]]*)\]\s*$/.exec(line)
    if (header) {
      section = header[1]!
      continue
    }
    // A blank line holds no setting: one that moved because a section was added is no change.
    if (!line.trim()) continue
    const eq = /^\s*([^=#;\s][^=]*?)\s*=/.exec(line)
    lines.set(eq ? `key:${section ? `[${section}] ` : ''}${eq[1]}` : `line:${i}`, line)
  }
  return { hash, lines }
}

/** What differs between two states: files, or for text files the keys whose lines differ. */
function differences(before: HomeState, after: HomeState): Map<string, Set<string> | 'whole'> {
  const out = new Map<string, Set<string> | 'whole'>()
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(path)
    const b = after.get(path)
    if (a?.hash === b?.hash) continue
    if (!a?.lines || !b?.lines) {
      out.set(path, 'whole')
      continue
    }
    const keys = new Set<string>()
    for (const key of new Set([...a.lines.keys(), ...b.lines.keys()]))
      if (a.lines.get(key) !== b.lines.get(key)) keys.add(key)
    out.set(path, keys)
  }
  return out
}

/** Harm done between two states, minus what the app rewrites on its own open and close. */
function harm(before: HomeState, after: HomeState, own: Map<string, Set<string> | 'whole'>): string[] {
  const found: string[] = []
  for (const [path, diff] of differences(before, after)) {
    const allowed = own.get(path)
    if (allowed === 'whole') continue
    const what = !before.has(path) ? 'appeared' : !after.has(path) ? 'deleted' : 'changed'
    if (diff === 'whole') {
      found.push(`${path} ${what}`)
      continue
    }
    const keys = [...diff].filter((k) => !allowed?.has(k) && !LAYOUT.test(k))
    if (keys.length)
      found.push(
        `${path} ${what}${
          what === 'changed'
            ? ` (${keys
                .slice(0, 3)
                .map((k) => k.replace(/^(key|line):/, ''))
                .join(', ')})`
            : ''
        }`,
      )
  }
  return found
}

export interface NativeEntryResult {
  outcomes: JobOutcome[]
  /** Seconds for one launch + snapshot of the app through the agent (the build times' baseline). */
  baseline?: number
}

/** Runs the picked jobs of one native app; an app that cannot start is reported on every job. */
export async function runNativeApp(
  app: NativeThirdPartyApp,
  jobs: GauntletJob<NativeRunningApp>[],
  onOutcome: (o: JobOutcome) => void,
  running: Set<{ stop(): Promise<void> }>,
): Promise<NativeEntryResult> {
  const desktop = await startTestDesktop()
  const home = appHome(`deskhook-bench-${app.name}-`)
  const parts: { stop(): Promise<void> }[] = [{ stop: desktop.stop }, { stop: async () => home.remove() }]
  const stopAll = async () => {
    for (const part of parts.reverse()) await part.stop().catch(() => {})
  }
  const handle = { stop: stopAll }
  running.add(handle)
  const result: NativeEntryResult = { outcomes: [] }
  try {
    const started = await app.start(home)
    parts.push(started)
    const server = await startTestServer({ watchIntervalMs: 20 })
    parts.push({ stop: () => server.close() })
    const agent = startAgent({
      server: server.url,
      token: createEnrollmentToken(server.ctx).token,
      name: 'linux-desk',
      driver: 'desktop',
      // GSettings in a key file under the home (not the machine's dconf database), so the settings
      // an app keeps there are compared with the rest of its home.
      env: { ...desktop.vars, ...home.env, GSETTINGS_BACKEND: 'keyfile' },
    })
    parts.push({ stop: () => agent.cleanup() })
    const desktopId = String((await agent.waitForLog((l) => l.msg === 'online', 60_000)).desktopId)
    const data = new Set(started.dataFiles)
    const before = readHome(home.path, data)
    const t0 = performance.now()
    const first = await server.hub.rpc<WindowInfo>(desktopId, 'launch', [started.spec], 90_000)
    await server.hub.rpc(desktopId, 'snapshot', [first.id])
    result.baseline = (performance.now() - t0) / 1000
    // The app's own churn: a second launch closes the first as a person closes it.
    await server.hub.rpc<WindowInfo>(desktopId, 'launch', [started.spec], 90_000)
    const own = differences(before, readHome(home.path, data))
    for (const job of jobs) {
      const start = readHome(home.path, data)
      const outcome = await runJob(server, started as never, job as GauntletJob<never>)
      const done = harm(start, readHome(home.path, data), own).filter(
        (h) => !started.ownState?.some((o) => o.path.test(h.split(' ')[0]!)),
      )
      if (done.length) outcome.harm = done
      result.outcomes.push(outcome)
      onOutcome(outcome)
    }
  } catch (err) {
    const why = (err as Error).message.split('\n')[0]
    for (const job of jobs.slice(result.outcomes.length)) {
      const outcome: JobOutcome = {
        app: app.name,
        job: job.name,
        outcome: `app did not start: ${why}`,
        questions: [],
        buildSeconds: 0,
        liveCorrect: 0,
        built: false,
        trail: [],
      }
      result.outcomes.push(outcome)
      onOutcome(outcome)
    }
  } finally {
    await stopAll()
    running.delete(handle)
  }
  return result
}

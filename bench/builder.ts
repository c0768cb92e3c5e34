/**
 * `bun run bench:builder`: teaches jobs end to end over HTTP — real server, real agent, Debian's
 * Chromium — answering from each job's answer sheet, then promotes each and makes two live calls
 * with new inputs, checked against the app's own state. A job behind a sign-in has its app's
 * sessions cleared before the live calls (the job must sign in again by itself).
 *
 * Three tables: the **development** and **held-out** third-party sets of bench/builder-split.md
 * (the held-out one is the figure that counts) and the gauntlet the builder was tuned on earlier.
 * Each reports jobs working live, built-but-wrong (a build that succeeded and answers a live call
 * wrongly with a 200: the worst outcome), built jobs whose live calls fail saying so, answers (questions answered and pointing actions) per job, and
 * build time, also as a ratio to a baseline measured in the same run on the same app: one
 * launch + snapshot of the app through the agent.
 *
 * The native sets of bench/native-split.md (`native-development`, `native-heldout`, or `native`
 * for both) teach native apps on a headless desktop through `deskhook agent --driver desktop`
 * and also report harm: files in the app's home changed beyond the job's effect
 * (bench/native-rig.ts).
 *
 * Arguments pick sets, apps or jobs: `bun run bench:builder development`, `… heldout`,
 * `… gauntlet`, `… native`, `… redmine "fossil:look"` (then the tables are written only to stdout).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { WindowInfo } from '../src/protocol/elements.ts'
import { GAUNTLET } from '../test/gauntlet/all-jobs.ts'
import { startRig } from '../test/gauntlet/harness.ts'
import { type JobOutcome, row, runJob, verdict } from '../test/gauntlet/run-job.ts'
import type { GauntletJob, RunningApp } from '../test/gauntlet/types.ts'
import type { NativeThirdPartyApp } from '../test/native-thirdparty/types.ts'
import type { ThirdPartyApp } from '../test/thirdparty/types.ts'
import { runNativeApp } from './native-rig.ts'

type SetName = 'development' | 'heldOut' | 'gauntlet' | 'nativeDevelopment' | 'nativeHeldOut'
interface Entry {
  set: SetName
  name: string
  start(): Promise<RunningApp>
  jobs: GauntletJob<never>[]
  /** A native app: run by bench/native-rig.ts on a desktop of its own. */
  native?: NativeThirdPartyApp
}
const HELD_OUT: SetName[] = ['heldOut', 'nativeHeldOut']

const split = JSON.parse(
  /```json\n([\s\S]*?)```/.exec(readFileSync(join(import.meta.dir, 'builder-split.md'), 'utf8'))![1]!,
) as { development: string[]; heldOut: string[] }

async function thirdParty(set: SetName, name: string): Promise<Entry> {
  try {
    const { app } = (await import(`../test/thirdparty/${name}/index.ts`)) as { app: ThirdPartyApp<never> }
    return { set, name, start: app.start, jobs: app.jobs as GauntletJob<never>[] }
  } catch (err) {
    // Listed in the split but not loadable: counted as a job that did not build, never skipped.
    const why = (err as Error).message.split('\n')[0]
    const missing = { name: 'app', prompt: '', method: 'POST', path: '/', samples: () => [], live: () => [] }
    return { set, name, start: () => Promise.reject(new Error(why)), jobs: [missing as never] }
  }
}

const nativeSplit = JSON.parse(
  /```json\n([\s\S]*?)```/.exec(readFileSync(join(import.meta.dir, 'native-split.md'), 'utf8'))![1]!,
) as { development: string[]; heldOut: string[] }

async function nativeApp(set: SetName, name: string): Promise<Entry> {
  try {
    const { app } = (await import(`../test/native-thirdparty/${name}/index.ts`)) as {
      app: NativeThirdPartyApp
    }
    const start = () => Promise.reject(new Error('a native app is started by bench/native-rig.ts'))
    return { set, name, start, jobs: app.jobs as GauntletJob<never>[], native: app }
  } catch (err) {
    const why = (err as Error).message.split('\n')[0]
    const missing = { name: 'app', prompt: '', method: 'POST', path: '/', samples: () => [], live: () => [] }
    return { set, name, start: () => Promise.reject(new Error(why)), jobs: [missing as never] }
  }
}

const picks = process.argv
  .slice(2)
  .map((a) => a.toLowerCase().replace('held-out', 'heldout'))
  .flatMap((a) => (a === 'native' ? ['native-development', 'native-heldout'] : [a]))
const SETS = ['development', 'heldout', 'gauntlet', 'native-development', 'native-heldout']
const setPicks = picks.filter((p) => SETS.includes(p))
const namePicks = picks.filter((p) => !setPicks.includes(p))
const wantSet = (set: SetName) =>
  !setPicks.length || setPicks.includes(set.replace('native', 'native-').toLowerCase())
const picked = (app: string, job: string) =>
  !namePicks.length || namePicks.some((p) => `${app}:${job}`.toLowerCase().includes(p))

// The native sets' apps come from Debian's packages (installed here when this process may).
if (wantSet('nativeDevelopment') || wantSet('nativeHeldOut')) await import('../scripts/ensure-native-apps.ts')

const entries: Entry[] = []
for (const name of split.development)
  if (wantSet('development')) entries.push(await thirdParty('development', name))
for (const name of split.heldOut) if (wantSet('heldOut')) entries.push(await thirdParty('heldOut', name))
if (wantSet('gauntlet'))
  for (const g of GAUNTLET) entries.push({ set: 'gauntlet', name: g.name, start: g.start, jobs: g.jobs })
for (const name of nativeSplit.development)
  if (wantSet('nativeDevelopment')) entries.push(await nativeApp('nativeDevelopment', name))
for (const name of nativeSplit.heldOut)
  if (wantSet('nativeHeldOut')) entries.push(await nativeApp('nativeHeldOut', name))

// The apps run in process groups of their own: a bench stopped with Ctrl-C or by a timeout stops
// the app and rig it has up, so nothing is left running.
const running = new Set<{ stop(): Promise<void> }>()
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    await Promise.allSettled([...running].map((r) => r.stop()))
    process.exit(130)
  })

const outcomes = new Map<SetName, JobOutcome[]>()
const baselines = new Map<SetName, number[]>()
for (const entry of entries) {
  const jobs = entry.jobs.filter((j) => picked(entry.name, j.name))
  if (!jobs.length) continue
  if (entry.native) {
    const result = await runNativeApp(entry.native, jobs as never, (o) => report(entry.set, o), running)
    if (result.baseline !== undefined) push(baselines, entry.set, result.baseline)
    continue
  }
  let app: RunningApp
  try {
    app = await entry.start()
  } catch (err) {
    // An app that cannot start here is reported, not silently dropped from the figures.
    for (const job of jobs)
      push(outcomes, entry.set, {
        app: entry.name,
        job: job.name,
        outcome: `app did not start: ${(err as Error).message.split('\n')[0]}`,
        questions: [],
        buildSeconds: 0,
        liveCorrect: 0,
        built: false,
        trail: [],
      })
    continue
  }
  running.add(app)
  const rig = await startRig(app.url)
  running.add(rig)
  try {
    const desktopId = String((await rig.agent.waitForLog((l) => l.msg === 'online')).desktopId)
    const t0 = performance.now()
    const window = await rig.server.hub.rpc<WindowInfo>(desktopId, 'launch', [{ url: app.url }])
    await rig.server.hub.rpc(desktopId, 'snapshot', [window.id])
    push(baselines, entry.set, (performance.now() - t0) / 1000)
    for (const job of jobs) {
      report(entry.set, await runJob(rig.server, app as never, job))
    }
  } finally {
    await rig.stop()
    await app.stop()
    running.delete(rig)
    running.delete(app)
  }
}

function report(set: SetName, outcome: JobOutcome): void {
  push(outcomes, set, outcome)
  console.error(`[${set}] ${row(outcome, !HELD_OUT.includes(set))}`)
  // The held-out sets are measured, not read for ideas: their trails stay out of the log.
  if (!HELD_OUT.includes(set)) for (const line of outcome.trail) console.error(`    ${line}`)
}

function push<T>(map: Map<SetName, T[]>, set: SetName, value: T): void {
  map.set(set, [...(map.get(set) ?? []), value])
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length
    ? s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
    : 0
}
const TITLES: Record<SetName, string> = {
  development: 'Development set (third-party apps; rules may come from these)',
  heldOut: 'Held-out set (third-party apps; measured only — the figure that counts)',
  gauntlet: 'Gauntlet (apps tuned on in earlier work; a regression check)',
  nativeDevelopment: 'Native development set (desktop apps; rules may come from these)',
  nativeHeldOut: 'Native held-out set (desktop apps; measured only — the figure that counts)',
}
const lines: string[] = []
let allWorked = true
for (const set of ['development', 'heldOut', 'gauntlet', 'nativeDevelopment', 'nativeHeldOut'] as SetName[]) {
  const list = outcomes.get(set)
  if (!list?.length) continue
  const works = list.filter((o) => verdict(o) === 'works').length
  const wrong = list.filter((o) => verdict(o) === 'built-but-wrong').length
  const loud = list.filter((o) => verdict(o) === 'built, fails live').length
  const harmed = list.filter((o) => o.harm?.length).length
  const answers = list.reduce((n, o) => n + o.questions.length, 0) / list.length
  const build = median(list.filter((o) => o.built).map((o) => o.buildSeconds))
  const base = median(baselines.get(set) ?? [])
  if (works !== list.length) allWorked = false
  lines.push(
    `### ${TITLES[set]}`,
    '',
    '| app | job | verdict | outcome | answers | build s | live correct |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...list.map((o) => row(o, !HELD_OUT.includes(set))),
    '',
    `Jobs working live: **${works}/${list.length}** (${Math.round((100 * works) / list.length)}%) · ` +
      `built but wrong: **${wrong}** · built, failing live with an error: **${loud}** · ${set.startsWith('native') ? `harm done: **${harmed}** · ` : ''}answers and pointing per job: **${answers.toFixed(2)}** · ` +
      `median build (built jobs): **${build.toFixed(1)} s** (baseline launch+snapshot ${base.toFixed(2)} s; ` +
      `ratio ${(build / Math.max(base, 0.001)).toFixed(1)}×)`,
    '',
  )
}
console.log(lines.join('\n'))
const dir = join(import.meta.dir, 'results')
mkdirSync(dir, { recursive: true })
if (!picks.length)
  writeFileSync(join(dir, `builder-${new Date().toISOString().slice(0, 10)}.md`), `${lines.join('\n')}\n`)
process.exit(allWorked ? 0 : 1)

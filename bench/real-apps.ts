/**
 * Real-apps bench: teaches every job in test/real-apps (third-party apps the gauntlet does not
 * cover yet) end to end over HTTP — real server, real agent, Debian's Chromium — then promotes it
 * and calls it live twice. Prints one markdown table plus totals, with the median build time as a
 * ratio to a baseline measured in the same run (one launch + snapshot of each app through the
 * agent), and writes it to bench/results/real-apps-<date>.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { WindowInfo } from '../src/protocol/elements.ts'
import { startRig } from '../test/gauntlet/harness.ts'
import type { GauntletJob, RunningApp } from '../test/gauntlet/types.ts'
import { startDokuWiki } from '../test/real-apps/apps.ts'
import { dokuWikiJobs } from '../test/real-apps/jobs.ts'
import { type JobOutcome, row, runJob } from '../test/real-apps/run-job.ts'

const APPS: { start(): Promise<RunningApp>; jobs: GauntletJob<never>[] }[] = [
  { start: startDokuWiki, jobs: dokuWikiJobs as GauntletJob<never>[] },
]

const outcomes: JobOutcome[] = []
const baselines: number[] = []
for (const entry of APPS) {
  const app = await entry.start()
  const rig = await startRig(app.url)
  try {
    const desktopId = String((await rig.agent.waitForLog((l) => l.msg === 'online')).desktopId)
    const t0 = performance.now()
    const window = await rig.server.hub.rpc<WindowInfo>(desktopId, 'launch', [{ url: app.url }])
    await rig.server.hub.rpc(desktopId, 'snapshot', [window.id])
    baselines.push((performance.now() - t0) / 1000)
    for (const job of entry.jobs) {
      const t = performance.now()
      // A build that never settles throws from the poll; it is a row of the table, not a crash.
      const outcome = await runJob(rig.server, app as never, job).catch(
        (err: Error): JobOutcome => ({
          app: job.app,
          job: job.name,
          outcome: `build: ${err.message}`,
          questions: [],
          buildSeconds: (performance.now() - t) / 1000,
          liveCorrect: 0,
          trail: [],
        }),
      )
      outcomes.push(outcome)
      console.error(row(outcome))
      for (const line of outcome.trail) console.error(`    ${line}`)
    }
  } finally {
    await rig.stop()
    await app.stop()
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  if (!s.length) return 0
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const passed = outcomes.filter((o) => o.outcome === 'passed').length
const questions = outcomes.reduce((n, o) => n + o.questions.length, 0) / Math.max(1, outcomes.length)
const build = median(outcomes.map((o) => o.buildSeconds))
const base = median(baselines)
const lines = [
  '| app | job | outcome | questions | build s | live correct |',
  '| --- | --- | --- | --- | --- | --- |',
  ...outcomes.map(row),
  '',
  `Passed: **${passed}/${outcomes.length}** · mean questions per job: **${questions.toFixed(2)}** · ` +
    `median build: **${build.toFixed(1)} s** (baseline launch+snapshot ${base.toFixed(2)} s; ratio ${(build / Math.max(base, 0.001)).toFixed(1)}×)`,
]
console.log(lines.join('\n'))
const dir = join(import.meta.dir, 'results')
mkdirSync(dir, { recursive: true })
writeFileSync(join(dir, `real-apps-${new Date().toISOString().slice(0, 10)}.md`), `${lines.join('\n')}\n`)
process.exit(passed === outcomes.length ? 0 : 1)

/**
 * `bun run bench:builder`: teaches every gauntlet job (third-party apps, test/gauntlet/) end to
 * end over HTTP — real server, real agent, Debian's Chromium — answering from each job's answer
 * sheet, then promotes it and makes two live calls with new inputs, checked against the app's
 * own state. Prints one table and writes it to bench/results/builder-<date>.md.
 *
 * Build time is also given as a ratio to a baseline measured in the same run on the same app:
 * one launch + snapshot of the app through the agent (what the cheapest possible build costs).
 *
 * Arguments pick apps or jobs: `bun run bench:builder dokuwiki "fossil:look"` runs the jobs whose
 * "app:job name" contains one of them (the table is then written only to stdout).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { WindowInfo } from '../src/protocol/elements.ts'
import { GAUNTLET } from '../test/gauntlet/all-jobs.ts'
import { startRig } from '../test/gauntlet/harness.ts'
import { type JobOutcome, row, runJob } from '../test/gauntlet/run-job.ts'

const picks = process.argv.slice(2).map((a) => a.toLowerCase())
const picked = (app: string, job: string) =>
  !picks.length || picks.some((p) => `${app}:${job}`.toLowerCase().includes(p))
const outcomes: JobOutcome[] = []
const baselines: number[] = []
for (const entry of GAUNTLET) {
  const jobs = entry.jobs.filter((j) => picked(entry.name, j.name))
  if (!jobs.length) continue
  const app = await entry.start()
  const rig = await startRig(app.url)
  try {
    const desktopId = String((await rig.agent.waitForLog((l) => l.msg === 'online')).desktopId)
    const t0 = performance.now()
    const window = await rig.server.hub.rpc<WindowInfo>(desktopId, 'launch', [{ url: app.url }])
    await rig.server.hub.rpc(desktopId, 'snapshot', [window.id])
    baselines.push((performance.now() - t0) / 1000)
    for (const job of jobs) {
      const outcome = await runJob(rig.server, app as never, job)
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
  return s.length
    ? s.length % 2
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
    : 0
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
  `Jobs passed: **${passed}/${outcomes.length}** · mean questions per job: **${questions.toFixed(2)}** · ` +
    `median build: **${build.toFixed(1)} s** (baseline launch+snapshot ${base.toFixed(2)} s; ratio ${(build / Math.max(base, 0.001)).toFixed(1)}×)`,
]
console.log(lines.join('\n'))
const dir = join(import.meta.dir, 'results')
mkdirSync(dir, { recursive: true })
if (!picks.length)
  writeFileSync(join(dir, `builder-${new Date().toISOString().slice(0, 10)}.md`), `${lines.join('\n')}\n`)
process.exit(passed === outcomes.length ? 0 : 1)

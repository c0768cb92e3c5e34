// Teaches one gauntlet job end to end over HTTP only, as a person would: teaching call(s), poll
// the build, answer its questions from the owner's answer sheet, promote, then two live calls
// with new inputs whose answers and effects on the app are checked.
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { DB_FILE } from '../../src/db/client.ts'
import { NONE_OF_THESE } from '../../src/protocol/questions.ts'
import { cli, eventually } from '../helpers/cli.ts'
import type { TestServer } from '../helpers/test-server.ts'
import { teachBody } from '../helpers/test-server.ts'
import { demonstrate, readScreen } from './demonstrate.ts'
import type { GauntletJob, RunningApp } from './types.ts'

/** How long a build may take before the job counts as failed (a person would give up too). */
const BUILD_WAIT_MS = 120_000
/** Progress lines kept from a failed build (GAUNTLET_TRAIL=40 shows more; GAUNTLET_KEEP_TRAIL=1 keeps them for passing jobs too). */
const TRAIL = Number(process.env.GAUNTLET_TRAIL ?? 8)

export interface JobOutcome {
  app: string
  job: string
  /** 'passed', or where it failed: "build: CODE message", "live 2: …". */
  outcome: string
  questions: string[]
  buildSeconds: number
  liveCorrect: number
  /** The build succeeded and the job was promoted (its live calls then decide the verdict). */
  built: boolean
  /** The last progress lines of a failed build (what it tried). */
  trail: string[]
  /** Native apps: files in the app's home changed beyond the job's effect (bench/native-rig.ts). */
  harm?: string[]
  /** Live calls answered 200 with a wrong answer or effect: wrong while looking right. */
  answeredWrong?: number
}

interface BuildView {
  status: string
  question: { id: string; kind: string; text: string; options: { value: string; label: string }[] } | null
  progress: { stage: string; message: string }[]
  error: { code: string; message: string } | null
}

export async function runJob<A extends RunningApp>(
  s: TestServer,
  app: A,
  job: GauntletJob<A>,
): Promise<JobOutcome> {
  const taught: { jobId?: string } = {}
  const outcome = await teachAndCall(s, app, job, taught)
  if (outcome.liveCorrect === 0 && outcome.outcome !== 'passed') await giveUp(s, taught.jobId)
  return outcome
}

async function teachAndCall<A extends RunningApp>(
  s: TestServer,
  app: A,
  job: GauntletJob<A>,
  taught: { jobId?: string },
): Promise<JobOutcome> {
  const out: JobOutcome = {
    app: job.app,
    job: job.name,
    outcome: 'passed',
    questions: [],
    buildSeconds: 0,
    liveCorrect: 0,
    built: false,
    trail: [],
  }
  const started = performance.now()
  let first = true
  let secretsSet = false
  for (const sample of job.samples(app)) {
    const envelope: Record<string, unknown> = first ? { prompt: job.prompt } : {}
    // GAUNTLET_DEMONSTRATE=1: every teaching call asks to be shown (the owner's `show` answers it).
    if (first && (job.demonstrate || process.env.GAUNTLET_DEMONSTRATE)) envelope.demonstrate = true
    if (sample.expect) envelope.expect = sample.expect
    if (job.method !== 'POST') envelope.method = job.method
    const at = onPath(job.path, sample.input)
    if (at.path !== job.path) envelope.path = job.path
    first = false
    const res = await s.call(at.path, { method: 'POST', json: teachBody(envelope, at.rest) })
    if (res.status !== 202) return fail(out, started, `teach: HTTP ${res.status} ${await res.text()}`)
    let { buildId, jobId, sampleId } = (await res.json()) as {
      buildId: string
      jobId: string
      sampleId: string
    }
    taught.jobId = jobId
    if (job.secrets && !secretsSet) {
      // As a person would: the first call created the job; its credentials are stored right away,
      // and if that build already met the sign-in screen, the sample is sent again.
      for (const [name, value] of Object.entries(job.secrets)) {
        const set = await cliWithStdin(
          ['jobs', 'secret', 'set', job.method, job.path, name, '--data', s.dataDir],
          value,
        )
        if (set !== 0) return fail(out, started, `jobs secret set ${name} failed`)
      }
      secretsSet = true
      const first = await settled(s, buildId)
      if (first.status === 'failed' && first.error?.code === 'SIGN_IN_REQUIRED') {
        await s.call(`/_jobs/${jobId}/samples/${sampleId}`, { method: 'DELETE' })
        const again = await s.call(at.path, { method: 'POST', json: teachBody(envelope, at.rest) })
        ;({ buildId, jobId, sampleId } = (await again.json()) as {
          buildId: string
          jobId: string
          sampleId: string
        })
      }
    }
    for (;;) {
      let last: BuildView | undefined
      const build = await eventually(async () => {
        last = (await (await s.call(`/_builds/${buildId}`)).json()) as BuildView
        return ['succeeded', 'failed', 'waiting_for_answer'].includes(last.status) && last
      }, BUILD_WAIT_MS).catch(() => undefined)
      if (!build) {
        out.trail = (last?.progress ?? []).slice(-TRAIL).map((p) => `[${p.stage}] ${p.message}`)
        return fail(
          out,
          started,
          `build: not finished after ${BUILD_WAIT_MS / 1000} s (status ${last?.status})`,
        )
      }
      if (build.status === 'succeeded') {
        // Kept in case its live calls go wrong: what the build decided, step by step.
        out.trail = build.progress.slice(-TRAIL).map((p) => `[${p.stage}] ${p.message}`)
        break
      }
      if (build.status === 'failed') {
        out.trail = build.progress.slice(-TRAIL).map((p) => `[${p.stage}] ${p.message}`)
        return fail(out, started, `build: ${build.error?.code} ${build.error?.message}`)
      }
      const question = build.question!
      out.questions.push(question.kind)
      const answer = job.answer?.(question as never)
      if (answer === undefined) {
        out.trail = build.progress.slice(-TRAIL).map((p) => `[${p.stage}] ${p.message}`)
        return fail(
          out,
          started,
          `question the owner did not expect: ${question.kind} “${question.text}” [${question.options.map((o) => o.label).join(' | ')}]`,
        )
      }
      let body: unknown = answer
      if (typeof answer === 'object' && 'show' in answer) {
        const shown = await demonstrate(s, buildId, answer)
        if (typeof shown === 'string') return fail(out, started, `the owner could not show it: ${shown}`)
        body = { recordingId: shown.recordingId }
        out.questions[out.questions.length - 1] = `${question.kind}+shown`
      } else if (typeof answer === 'object' && 'pointAt' in answer) {
        // The owner points at the thing on the screen, as a click on the live preview would.
        const screen = await readScreen(s, buildId)
        const all = screen.elements ?? []
        const target = all.find((e) => answer.pointAt(e, all))
        if (target) {
          body = { point: { ref: target.ref } }
          out.questions[out.questions.length - 1] = `${question.kind}+point`
        } else if (answer.elseNotHere) body = NONE_OF_THESE
        else return fail(out, started, `the owner found nothing to point at for “${question.text}”`)
      }
      const answered = await s.call(`/_builds/${buildId}/answers`, {
        method: 'POST',
        json: { questionId: question.id, answer: body },
      })
      if (answered.status !== 200)
        return fail(out, started, `answer: HTTP ${answered.status} ${await answered.text()}`)
    }
  }
  out.buildSeconds = (performance.now() - started) / 1000
  const promoted = await cli(['jobs', 'promote', job.method, job.path, '--data', s.dataDir])
  if (promoted.code !== 0) return { ...out, outcome: `promote: ${promoted.stderr.trim()}` }
  await eventually(async () => {
    const { jobs } = (await (await s.call('/_jobs')).json()) as { jobs: { path: string; mode: string }[] }
    return jobs.some((j) => j.path === job.path && j.mode === 'live')
  }, 10_000)
  out.built = true
  // A signed-in job must sign in again by itself once the app has forgotten the agent's session.
  if (job.secrets && app.clearSessions) await app.clearSessions()
  const problems: string[] = []
  for (const [i, call] of job.live(app).entries()) {
    const at = onPath(job.path, call.input)
    const res =
      job.method === 'GET'
        ? await s.call(`${at.path}?${new URLSearchParams(at.rest as Record<string, string>)}`, {
            method: 'GET',
          })
        : await s.call(at.path, { method: job.method, json: at.rest })
    const body = (await res.json()) as Record<string, unknown>
    const wrong =
      res.status !== 200 ? `HTTP ${res.status} ${JSON.stringify(body).slice(0, 300)}` : call.check(body)
    if (wrong) problems.push(`live ${i + 1}: ${wrong}`)
    else out.liveCorrect++
    if (wrong && res.status === 200) out.answeredWrong = (out.answeredWrong ?? 0) + 1
  }
  if (problems.length) out.outcome = problems.join('; ')
  else if (!process.env.GAUNTLET_KEEP_TRAIL) out.trail = []
  if (problems.length && process.env.GAUNTLET_EXPORT) {
    const exported = await cli(['jobs', 'export', job.method, job.path, '--data', s.dataDir])
    await Bun.write(process.env.GAUNTLET_EXPORT, exported.stdout)
  }
  // GAUNTLET_RUNS=file: the live runs' steps (name, status, result, error), to see what a wrong run did.
  if (problems.length && process.env.GAUNTLET_RUNS) {
    const db = new Database(join(s.dataDir, DB_FILE), { readonly: true })
    const steps = db
      .query(
        'SELECT execution_seq, execution_order, flow_name, status, result, error FROM execution_steps ORDER BY 1, 2',
      )
      .all()
    db.close()
    await Bun.write(process.env.GAUNTLET_RUNS, JSON.stringify(steps, null, 1))
  }
  return out
}

/**
 * A job path with parameters (`/issues/:number`) is called on the concrete path: each `:name` is
 * filled from the input of that name, and the rest of the input is the body (or the query).
 */
function onPath(
  pattern: string,
  input: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input }
  const path = pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
    if (!(name in rest)) return whole
    const value = encodeURIComponent(String(rest[name]))
    delete rest[name]
    return value
  })
  return { path, rest }
}

function fail(out: JobOutcome, started: number, why: string): JobOutcome {
  return { ...out, outcome: why, buildSeconds: (performance.now() - started) / 1000 }
}

/** A job given up on is deleted, so its build (maybe waiting for an answer) frees the desktop. */
async function giveUp(s: TestServer, jobId: string | undefined): Promise<void> {
  // GAUNTLET_KEEP=1 keeps it, to read what was built (`deskhook jobs export`) while debugging.
  if (jobId && !process.env.GAUNTLET_KEEP) await s.call(`/_jobs/${jobId}`, { method: 'DELETE' })
}

/**
 * What a person would call the outcome: it works live; it built and answers a live call wrongly
 * with a 200 (the worst outcome: it looks right); it built and its live calls fail, saying so (an
 * error the caller sees); or it did not build (failed, gave up, or asked something its owner could
 * not answer).
 */
export function verdict(
  o: JobOutcome,
): 'works' | 'built-but-wrong' | 'built, fails live' | 'not built' | 'did harm' {
  if (o.harm?.length) return 'did harm'
  if (o.outcome === 'passed') return 'works'
  if (!o.built) return 'not built'
  return o.answeredWrong ? 'built-but-wrong' : 'built, fails live'
}

/** The outcome as one table row (for the bench and for failing tests' messages). */
export function row(o: JobOutcome, detail = true): string {
  // Where the owner's own demonstration went wrong is about the answer sheet, not the builder: it
  // is shown in full even where the builder's failures are not.
  const owner = o.outcome.startsWith('the owner could not show it')
  const full = detail || owner ? o.outcome : verdict(o) === 'works' ? 'passed' : o.outcome.split(':')[0]!
  // Harm first: a long outcome would cut it off.
  const harmed = !o.harm?.length
    ? full
    : `harm: ${detail ? o.harm.join(', ') : `${o.harm.length} file(s)`}; ${full}`
  const outcome = harmed.length > 120 && !process.env.GAUNTLET_FULL ? `${harmed.slice(0, 117)}…` : harmed
  return `| ${o.app} | ${o.job} | ${verdict(o)} | ${outcome.replaceAll('|', '\\|')} | ${o.questions.length}${o.questions.length ? ` (${o.questions.join(', ')})` : ''} | ${o.buildSeconds.toFixed(1)} | ${o.liveCorrect}/2 |`
}

async function settled(s: TestServer, buildId: string): Promise<BuildView> {
  return eventually(async () => {
    const b = (await (await s.call(`/_builds/${buildId}`)).json()) as BuildView
    return ['succeeded', 'failed', 'waiting_for_answer'].includes(b.status) && b
  }, 180_000)
}

/** Runs the CLI with a value on stdin (how secrets are given: never on the command line). */
async function cliWithStdin(args: string[], input: string): Promise<number> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, '../../src/main.ts'), ...args], {
    stdin: new Blob([input]),
    stdout: 'ignore',
    stderr: 'ignore',
  })
  return proc.exited
}

import { eq } from 'drizzle-orm'
import type { BuildIO, BuildRequest, BuildResult, DesktopPort } from '../../builder/contract.ts'
import type { AppContext } from '../../context.ts'
import { samples } from '../../db/schema/index.ts'
import { coalesced } from '../../lib/coalesce.ts'
import { AppError } from '../../lib/errors.ts'
import { cancelBuild } from '../../modules/builds/cancel.ts'
import {
  completeBuild,
  draftAutomation,
  failBuild,
  passingSamples,
  queuedBuilds,
  requeueInterruptedBuilds,
  setBuildDesktop,
} from '../../modules/builds/lifecycle.ts'
import { askQuestion, type Build, findBuild, getBuild, recordProgress } from '../../modules/builds/service.ts'
import { submittedBefore } from '../../modules/builds/submitted.ts'
import { getJob } from '../../modules/jobs/service.ts'
import { markSecretInputs } from '../../modules/secrets/protect-secret-inputs.ts'
import { openSampleInput, SampleSecretsUnreadable } from '../../modules/secrets/sample-secrets.ts'
import { templateSecrets } from '../../modules/secrets/scrub.ts'
import { secretInputTexts, splitSecretInputs } from '../../modules/secrets/secret-inputs.ts'
import { scrubJobSecrets } from '../../modules/secrets/service.ts'
import type { Automation } from '../../protocol/automation.ts'
import { isDecline } from '../../protocol/questions.ts'
import type { AgentHub } from '../agent-hub/index.ts'
import type { Service } from '../service.ts'
import { abortablePort } from './abortable-port.ts'
import { BuildCancelled, buildIO, withJobSecrets } from './build-io.ts'
import { hubDesktop } from './hub-desktop.ts'
import { liveJobSecrets, missingSecrets } from './live-secrets.ts'
import { watchSecretFills } from './secret-fills.ts'
import { guardSettings, type SettingsGuard } from './settings-guard.ts'

export { submittedBefore }

export type BuildFn = (port: DesktopPort, io: BuildIO, req: BuildRequest) => Promise<BuildResult>

/**
 * Runs queued builds, one per desktop and one per job at a time, on the desktop the teaching call
 * named, the job's own desktop, the only one online, or the one the person picks. A build holds
 * its desktop (no live runs meanwhile) and releases it when done.
 */
export class BuildWorker implements Service {
  readonly name = 'build worker'
  #running = new Map<string, { abort: AbortController; desktopId: string }>()
  #busyJobs = new Set<string>()
  #noted = new Map<string, string>()
  #choosing = new Set<string>()
  #pass = coalesced(
    () => this.#pump(),
    (err) => this.ctx.log.error({ err }, 'build worker pump failed'),
  )
  #listeners: [string, (...a: never[]) => void][] = []
  /** Builds under way: stop() waits for them to wind down after aborting them. */
  #inFlight = new Set<Promise<void>>()

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: AgentHub,
    private readonly build: BuildFn,
  ) {}

  start(): void {
    requeueInterruptedBuilds(this.ctx)
    const pump = () => this.notify()
    const answered = (id: string) => this.#desktopChosen(id)
    // A job change may end a build (its sample removed, the build cancelled) or unblock one (a
    // secret it waits for was set).
    const changed = () => {
      this.#cancelVanished()
      this.notify()
    }
    this.#on('build.queued', pump)
    this.#on('desktop.online', pump)
    this.#on('build.answered', answered)
    this.#on('jobs.changed', changed)
    this.#on('db.external-change', changed)
    this.notify()
  }

  async stop(): Promise<void> {
    this.#pass.stop()
    for (const [event, fn] of this.#listeners) this.ctx.events.off(event as 'build.queued', fn as () => void)
    for (const { abort } of this.#running.values()) abort.abort()
    // An aborted build returns at its next step and releases its desktop. One stuck in an agent
    // call (the hub stops after this) is not waited for past the shutdown timeout: an interrupted
    // build is queued again at the next start.
    let timer: ReturnType<typeof setTimeout> | undefined
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.ctx.config.shutdownTimeoutMs)
    })
    await Promise.race([Promise.allSettled([...this.#inFlight]), grace])
    clearTimeout(timer)
  }

  /** Asks for a pass over the queued builds (at most one per event-loop turn). */
  notify(): void {
    this.#pass.request()
  }

  /**
   * A build that was cancelled, or whose job or sample was deleted (here or by the CLI), stops:
   * the builder's own calls fail from then on (abortablePort). Its desktop is freed once it has
   * wound down (#run's `finally`), after the apps it started are closed, their settings put back
   * and the apps open before it started again: a build or run that took the desktop earlier would
   * find the app missing, or see it closed and started under it.
   */
  #cancelVanished(): void {
    for (const buildId of this.#choosing)
      if (!isUnderWay(findBuild(this.ctx, buildId))) this.#choosing.delete(buildId)
    for (const [buildId, { abort }] of this.#running) {
      if (abort.signal.aborted) continue
      const build = findBuild(this.ctx, buildId)
      if (isUnderWay(build)) continue
      this.ctx.log.info(
        { buildId },
        build ? 'build cancelled' : 'build cancelled: its job or sample was deleted',
      )
      abort.abort()
    }
  }

  #on(
    event: 'build.queued' | 'desktop.online' | 'build.answered' | 'jobs.changed' | 'db.external-change',
    fn: (id: string) => void,
  ): void {
    this.ctx.events.on(event as 'build.queued', fn)
    this.#listeners.push([event, fn as (...a: never[]) => void])
  }

  #pump(): void {
    for (const build of queuedBuilds(this.ctx)) {
      if (this.#busyJobs.has(build.jobId) || this.#choosing.has(build.id)) continue
      // Named in the teaching call but not set yet: the build waits, holding no desktop.
      const missing = missingSecrets(this.ctx, build.jobId)
      if (missing) {
        this.#note(build, missing)
        continue
      }
      const desktop = this.#pickDesktop(build)
      if (!desktop) continue
      if (!this.hub.reserve(desktop.id, build.id)) {
        this.#note(build, `Waiting for desktop ${desktop.name}: it is busy`)
        continue
      }
      const run = this.#run(build, desktop)
      this.#inFlight.add(run)
      void run.finally(() => this.#inFlight.delete(run))
    }
  }

  #pickDesktop(build: Build): { id: string; name: string } | null {
    const online = this.hub.onlineDesktops()
    const job = getJob(this.ctx, build.jobId)
    const wanted = build.desktop ?? job?.desktopId ?? null
    if (wanted) {
      const d = online.find((x) => x.id === wanted || x.name === wanted)
      if (!d) this.#note(build, `Waiting for desktop ${wanted} to come online`)
      return d ?? null
    }
    if (online.length === 0) {
      this.#note(
        build,
        'Waiting for a desktop: none is online. Start the deskhook agent on the PC that has the app.',
      )
      return null
    }
    if (online.length === 1) return online[0]!
    this.#choosing.add(build.id)
    askQuestion(this.ctx, build.id, {
      kind: 'choose_window',
      text: 'Several desktops are online. Which one has the app this job should work in?',
      options: online.map((d) => ({ value: d.id, label: d.name })),
      multiple: false,
    })
    return null
  }

  #desktopChosen(buildId: string): void {
    if (!this.#choosing.delete(buildId)) return
    const build = getBuild(this.ctx, buildId)
    const answer = build.answers.at(-1)?.answer
    if (answer !== undefined && isDecline(answer)) {
      cancelBuild(
        this.ctx,
        buildId,
        'none of the online desktops has the app (answered "none of these"); start the agent on the PC that has it and teach again',
      )
      return
    }
    if (typeof answer === 'string') setBuildDesktop(this.ctx, buildId, answer)
    recordProgress(
      this.ctx,
      buildId,
      { stage: 'queued', message: 'Desktop chosen; the build starts when it is free' },
      'queued',
    )
    this.notify()
  }

  /** Progress lines about waiting are written once per reason, not on every pump. */
  #note(build: Build, message: string): void {
    if (this.#noted.get(build.id) === message) return
    this.#noted.set(build.id, message)
    recordProgress(this.ctx, build.id, { stage: 'queued', message })
  }

  async #run(build: Build, desktop: { id: string; name: string }): Promise<void> {
    const abort = new AbortController()
    this.#running.set(build.id, { abort, desktopId: desktop.id })
    let stopWatching = () => {}
    let settings: SettingsGuard | undefined
    this.#busyJobs.add(build.jobId)
    this.#noted.delete(build.id)
    try {
      recordProgress(
        this.ctx,
        build.id,
        { stage: 'start', message: `Building on desktop ${desktop.name}` },
        'exploring',
      )
      const job = getJob(this.ctx, build.jobId)
      const sample = this.ctx.db.select().from(samples).where(eq(samples.id, build.sampleId)).get()
      if (!job || !sample) return // deleted meanwhile (the build row went with them)
      // Live: a secret set while the build runs or waits is seen from then on (see live-secrets.ts).
      const live = liveJobSecrets(this.ctx, job.id)
      stopWatching = live.stop
      const secrets = live.secrets
      // The samples as taught: their sealed secret inputs opened, for this build's memory only.
      let input: Record<string, unknown>
      let previous: BuildRequest['previous']
      try {
        input = openSampleInput(this.ctx, sample)
        previous = passingSamples(this.ctx, job.id, sample.id).map((s) => ({
          id: s.id,
          input: openSampleInput(this.ctx, s),
          expect: s.expect,
          scenario: s.scenario ?? 'main',
        }))
      } catch (err) {
        if (!(err instanceof SampleSecretsUnreadable)) throw err
        // Nothing was done on the desktop yet: the build fails before the app is touched.
        return failBuild(this.ctx, build.id, { code: 'SECRETS_UNREADABLE', message: err.message })
      }
      const req: BuildRequest = {
        prompt: job.prompt,
        sample: {
          id: sample.id,
          input,
          expect: sample.expect,
          scenarioName: sample.scenario,
          submittedBefore: submittedBefore(this.ctx, job.id, build.id, input),
        },
        resettable: job.resettable,
        previous,
        automation: draftAutomation(this.ctx, job.id) as Automation | null,
        secretNames: live.names,
        secrets,
        route: { method: job.method, path: job.path },
        ...(build.demonstrate ? { demonstrate: true } : {}),
      }
      // What the build writes masks the job's secrets, the samples' secret inputs, and any value it
      // types into a password field from the moment it does (that member becomes a secret input).
      const taughtValues = [input, ...previous.map((p) => p.input)].flatMap((taught, i) =>
        Object.entries(splitSecretInputs(taught, job.secretInputs).values).map(([path, v]) => [
          `${i}:${path}`,
          v,
        ]),
      )
      const masking: Record<string, string> = {
        ...secretInputTexts(Object.fromEntries(taughtValues)),
      }
      live.maskInto(masking)
      const fills = watchSecretFills(
        withJobSecrets(abortablePort(hubDesktop(this.hub, desktop.id, desktop.name), abort.signal), secrets),
        input,
        masking,
      )
      const port = fills.port
      const io = buildIO(this.ctx, build.id, abort.signal, masking)
      settings = await guardSettings(this.ctx, this.hub, desktop.id)
      let result: BuildResult
      try {
        result = await this.build(port, io, req)
      } catch (err) {
        if (err instanceof BuildCancelled || abort.signal.aborted) return
        result = { ok: false, code: 'DESKTOP_ERROR', message: (err as Error).message }
      }
      await settings.putBack((message, data) => io.progress('explore', message, data))
      // Cancelled (here or by another process) while the builder finished: nothing of it is kept.
      if (abort.signal.aborted || !isUnderWay(findBuild(this.ctx, build.id))) return
      result = result.ok
        ? {
            ...scrubJobSecrets(masking, result),
            // The steps a job keeps: exact values only (a case variant is the app's own text).
            automation: scrubJobSecrets(masking, templateSecrets(result.automation, secrets), 'exact'),
          }
        : scrubJobSecrets(masking, result)
      if (result.ok) {
        markSecretInputs(this.ctx, job.id, fills.found())
        completeBuild(this.ctx, build.id, desktop.id, result)
      } else failBuild(this.ctx, build.id, { code: result.code, message: result.message })
    } catch (err) {
      if (abort.signal.aborted || isGone(err)) return
      this.ctx.log.error({ err, buildId: build.id }, 'build crashed')
      try {
        failBuild(this.ctx, build.id, { code: 'INTERNAL', message: (err as Error).message })
      } catch (again) {
        if (!isGone(again))
          this.ctx.log.error({ err: again, buildId: build.id }, 'could not record a build failure')
      }
    } finally {
      // A build cancelled or crashed half-way puts the settings back too, silently.
      await settings?.putBack()
      stopWatching()
      this.#running.delete(build.id)
      this.#busyJobs.delete(build.jobId)
      this.hub.release(desktop.id, build.id)
      this.notify()
    }
  }
}

/** Not finished, not cancelled, not gone with its job or sample. */
const isUnderWay = (b: Build | undefined) =>
  b !== undefined && b.status !== 'succeeded' && b.status !== 'failed'

/** The build's record went with its deleted job or sample. */
const isGone = (err: unknown) => err instanceof AppError && err.code === 'BUILD_NOT_FOUND'

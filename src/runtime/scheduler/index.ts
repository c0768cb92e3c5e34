import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { executions } from '../../db/schema/index.ts'
import { coalesced } from '../../lib/coalesce.ts'
import { newId } from '../../lib/ids.ts'
import { dispatchAutomation } from '../../modules/executions/dispatch-audit.ts'
import type { Completion, ExecutionRow } from '../../modules/executions/model.ts'
import { completionFromFailure, completionFromOutcome } from '../../modules/executions/response.ts'
import {
  claimExecutions,
  completeExecution,
  findExecution,
  listSteps,
  queuedExecutions,
  recordStep,
} from '../../modules/executions/service.ts'
import { getJobCached as getJob, getJob as getJobFresh, type Job } from '../../modules/jobs/service.ts'
import { recomputeStability } from '../../modules/jobs/stability.ts'
import { observeDispatch, observeRunEnd } from '../../modules/metrics/service.ts'
import { callSecretPaths, withCallHeaders } from '../../modules/secrets/kept-headers.ts'
import {
  forgetSecretInputs,
  hasMaskedSecretInput,
  heldSecretInputs,
  restoreSecretInputs,
  secretInputTexts,
} from '../../modules/secrets/secret-inputs.ts'
import { jobSecretValues, scrubJobSecrets } from '../../modules/secrets/service.ts'
import type { RunOutcome } from '../../protocol/messages.ts'
import { type AgentHub, AgentLostError } from '../agent-hub/index.ts'
import type { ExecutionWaiters } from '../execution-waiters.ts'
import type { Service } from '../service.ts'
import { isStorageError, noteStorageFailure, STORAGE_RETRY_AFTER_S } from '../storage-guard.ts'
import type { WebhookDeliverer } from '../webhook-deliverer.ts'
import { describePool, mayRun } from './eligibility.ts'
import { JobQueues } from './job-queues.ts'
import { RunRecovery } from './recovery.ts'

/** Extra time for the agent's own timeout report before the server ends the run itself. */
const TIMEOUT_MARGIN_MS = 5_000
/** A run's end that could not be written is tried again after 1 s, 2 s, 4 s… at most every 30 s. */
const END_RETRY_BASE_MS = 1_000
const END_RETRY_CAP_MS = STORAGE_RETRY_AFTER_S * 1_000

/**
 * Hands queued executions to idle desktops: one run per desktop, FIFO per job, oldest job first.
 * A run that reached an agent is never dispatched again: it ends with the agent's report, or as
 * timed_out, AGENT_LOST (agent gone past the grace period) or INTERRUPTED (server restarted).
 */
export class Scheduler implements Service {
  readonly name = 'scheduler'
  #queues = new JobQueues()
  /** Per running execution: its timeout, or the next try of an end that could not be written. */
  #timers = new Map<string, ReturnType<typeof setTimeout>>()
  /** Ends that could not be written (a full disk), by execution id: each is tried again. */
  #unwritten = new Map<string, () => void>()
  #recovery: RunRecovery
  #pass = coalesced(
    () => this.#pump(),
    (err) => this.ctx.log.error({ err }, 'scheduler pump failed'),
  )
  #stopped = false
  /** Run ends being written: stop() waits for them, so a reported result is never dropped. */
  #recording = new Set<Promise<unknown>>()
  #rescoring = new Set<string>()
  /** Desktops promised to calls being accepted right now (see claimForCall). */
  #setAside = new Set<string>()
  #unsubscribe: () => void

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: AgentHub,
    private readonly webhooks: WebhookDeliverer,
    private readonly waiters: ExecutionWaiters,
  ) {
    this.#recovery = new RunRecovery(ctx, hub, (row, outcome, fallback) =>
      this.#finish(row, () =>
        outcome ? completionFromOutcome(row, this.#scrub(row, outcome), listSteps(ctx, row.seq)) : fallback!,
      ),
    )
    const pump = () => this.notify()
    const jobChanged = (jobId: string) => this.#dropIfDeleted(jobId)
    const externalChange = () => {
      for (const jobId of this.#queues.jobsByAge()) this.#dropIfDeleted(jobId)
    }
    ctx.events.on('desktop.online', pump)
    ctx.events.on('jobs.changed', jobChanged)
    ctx.events.on('db.external-change', externalChange)
    this.#unsubscribe = () => {
      ctx.events.off('desktop.online', pump)
      ctx.events.off('jobs.changed', jobChanged)
      ctx.events.off('db.external-change', externalChange)
    }
  }

  start(): void {
    for (const row of queuedExecutions(this.ctx)) this.#queues.push(row.jobId, { seq: row.seq, id: row.id })
    // Jobs deleted (by the CLI) while the server was down: their runs end now, not when a desktop frees.
    for (const jobId of this.#queues.jobsByAge()) this.#dropIfDeleted(jobId)
    this.#recovery.start()
    // The agent sent a report again whose first copy could not be written: try now, not at the timer.
    this.hub.setResendHandler((runId) => this.#unwritten.get(runId)?.())
    this.notify()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#pass.stop()
    this.#unsubscribe()
    this.#recovery.stop()
    for (const t of this.#timers.values()) clearTimeout(t)
    this.#timers.clear()
    this.#unwritten.clear()
    await Promise.allSettled([...this.#recording])
  }

  /**
   * The fast path for a call that finds the system idle: with nothing queued and an idle desktop
   * that may run the job, that desktop is set aside so the call's execution is written already
   * claimed (one commit for acceptance and claim). Null when the call must queue.
   */
  claimForCall(job: Job): { desktopId: string; lease: string } | null {
    if (this.#stopped || this.#queues.size > 0) return null
    const desktop = this.hub
      .onlineDesktops()
      .find((d) => !d.busy && !this.#setAside.has(d.id) && mayRun(job, d))
    if (!desktop) return null
    this.#setAside.add(desktop.id)
    return { desktopId: desktop.id, lease: newId() }
  }

  /** The call did not use its desktop after all (an error, or an idempotent replay). */
  releaseClaim(desktopId: string): void {
    if (this.#setAside.delete(desktopId)) this.notify()
  }

  /** The execution was written already claimed: send it to its desktop now. */
  dispatchClaimed(row: ExecutionRow): void {
    this.#setAside.delete(row.desktopId!)
    this.#dispatch(row)
  }

  /** A new execution is durable: queue it and try to dispatch at once. */
  enqueued(row: Pick<ExecutionRow, 'seq' | 'id' | 'jobId'>): void {
    this.#queues.push(row.jobId, { seq: row.seq, id: row.id })
    // Accepted just as its job was deleted: it must not wait for a desktop that will never take it.
    if (!getJob(this.ctx, row.jobId)) this.#dropIfDeleted(row.jobId)
    this.notify()
  }

  /** Asks for a dispatch pass (at most one per event-loop turn). */
  notify(): void {
    this.#pass.request()
  }

  queuePosition(seq: number): number {
    return this.#queues.position(seq)
  }

  /** Why a queued execution is still waiting, in words for the poller and the dashboard. */
  waitReason(row: ExecutionRow): string {
    const job = getJob(this.ctx, row.jobId)
    if (!job) return 'The job no longer exists'
    const eligible = this.hub.onlineDesktops().filter((d) => mayRun(job, d))
    if (!eligible.length) return `No desktop that may run this job is online (${describePool(job)})`
    return `Waiting for a free desktop (${eligible.length} eligible, all busy)`
  }

  #pump(): void {
    const idle = this.hub.onlineDesktops().filter((d) => !d.busy && !this.#setAside.has(d.id))
    const picked: { jobId: string; seq: number; desktopId: string; lease: string }[] = []
    let progress = true
    while (progress && idle.length && this.#queues.size) {
      progress = false
      for (const jobId of this.#queues.jobsByAge()) {
        if (!idle.length) break
        const job = getJob(this.ctx, jobId)
        if (!job) {
          this.#dropIfDeleted(jobId)
          continue
        }
        const i = idle.findIndex((d) => mayRun(job, d))
        if (i < 0) continue
        const desktop = idle.splice(i, 1)[0]!
        const item = this.#queues.shift(jobId)!
        picked.push({ jobId, seq: item.seq, desktopId: desktop.id, lease: newId() })
        progress = true
      }
    }
    if (!picked.length) return
    // One durable transaction claims the whole pass, with each run's audit row; only then do runs go out.
    for (const row of claimExecutions(this.ctx, picked)) this.#dispatch(row)
  }

  #dispatch(row: ExecutionRow): void {
    const desktopId = row.desktopId!
    const lease = row.lease!
    this.webhooks.notify()
    observeDispatch(this.ctx, row)
    // The same cached object whose digest the claim's audit row holds.
    const automation = dispatchAutomation(this.ctx, row.jobId, row.jobVersion)
    if (!automation)
      return this.#finish(row, () =>
        completionFromFailure(row, 'failed', {
          code: 'VERSION_MISSING',
          message: `Version ${row.jobVersion} of the job is missing`,
        }),
      )
    // The job's secrets ride in the run's input (`{{$secrets.NAME}}`) and nowhere else: never
    // stored with the execution, and masked in everything the agent sends back.
    let secrets: Readonly<Record<string, string>>
    try {
      secrets = jobSecretValues(this.ctx, row.jobId)
    } catch (err) {
      this.ctx.log.error({ err, jobId: row.jobId }, 'the job secrets cannot be read')
      return this.#finish(row, () =>
        completionFromFailure(row, 'failed', {
          code: 'SECRETS_UNREADABLE',
          message: `The job's secrets cannot be decrypted (${(err as Error).message}); set them again with deskhook jobs secret set`,
        }),
      )
    }
    // The call's secret inputs were held in memory when it was accepted: after a restart they are
    // gone, and the run cannot be made without them.
    const held = heldSecretInputs(this.ctx, row.id)
    const job = getJob(this.ctx, row.jobId)
    if (!held && hasMaskedSecretInput(row.input, job ? callSecretPaths(job) : []))
      return this.#finish(row, () =>
        completionFromFailure(row, 'failed', {
          code: 'SECRET_INPUT_LOST',
          message:
            "The call's secret inputs were kept only in the server's memory, and the server restarted before the run started; call the job again",
        }),
      )
    // A kept header is the call's own (kept-headers.ts), never one another call left behind.
    secrets = withCallHeaders(secrets, job, held)
    const masked = held ? { ...secrets, ...secretInputTexts(held) } : secrets
    let outcome: Promise<RunOutcome>
    try {
      // `$secretInputs` names them for the agent, which masks them in what it keeps and sends.
      const input = runInput(
        held ? { ...restoreSecretInputs(row.input, held), $secretInputs: Object.keys(held) } : row.input,
        secrets,
      )
      outcome = this.hub.run(
        desktopId,
        {
          runId: row.id,
          lease,
          automation: automation.automation,
          automationSha256: automation.sha256,
          input,
          timeoutMs: row.timeoutMs,
        },
        (event, step) => {
          recordStep(this.ctx, row, event, scrubJobSecrets(masked, step))
        },
      )
    } catch (err) {
      // Never reached the agent: safe to put back in the queue.
      this.ctx.db
        .update(executions)
        .set({ status: 'queued', desktopId: null, lease: null, startedAt: null })
        .where(and(eq(executions.id, row.id), eq(executions.lease, lease)))
        .run()
      this.#queues.unshift(row.jobId, { seq: row.seq, id: row.id })
      this.ctx.log.warn(
        { err, jobExecutionId: row.id, desktopId },
        'dispatch failed before reaching the agent; requeued',
      )
      return
    }
    this.#timers.set(
      row.id,
      setTimeout(() => {
        this.hub.cancel(desktopId, row.id, 'run timed out')
        this.#finish(row, () =>
          completionFromFailure(row, 'timed_out', {
            code: 'RUN_TIMED_OUT',
            message: `The run did not finish within ${row.timeoutMs} ms`,
          }),
        )
      }, row.timeoutMs + TIMEOUT_MARGIN_MS),
    )
    outcome.then(
      (o) =>
        this.#finish(row, () =>
          completionFromOutcome(row, this.#scrub(row, this.#nameRoute(row, o)), listSteps(this.ctx, row.seq)),
        ),
      (err: Error) =>
        this.#finish(row, () =>
          completionFromFailure(row, 'failed', {
            code: err instanceof AgentLostError ? 'AGENT_LOST' : 'DISPATCH_FAILED',
            message: this.#scrub(row, err.message),
          }),
        ),
    )
  }

  #finish(row: ExecutionRow, completion: () => Completion, attempt = 0): void {
    // After stop() (shutdown), outcomes like "agent lost" are artefacts of the shutdown itself:
    // the execution stays running and the next start recovers it.
    if (this.#stopped) return
    clearTimeout(this.#timers.get(row.id))
    this.#timers.delete(row.id)
    this.#unwritten.delete(row.id)
    const recording = completeExecution(this.ctx, row.id, completion).then(
      (done) => {
        // The completion (masked with them) is written: the secret inputs are no longer needed.
        forgetSecretInputs(this.ctx, row.id)
        // Durable now: the agent may forget the result.
        if (row.desktopId) this.hub.acknowledge(row.desktopId, row.id)
        this.#recovery.ended(row.id)
        if (done) {
          observeRunEnd(this.ctx, done)
          this.ctx.log.info(
            { jobExecutionId: row.id, executionId: row.seq, status: done.status, desktopId: row.desktopId },
            'execution finished',
          )
          this.waiters.settle(row.id)
          this.#rescore(row.jobId)
        }
        this.notify()
      },
      (err) => this.#retryLater(row, completion, attempt, err),
    )
    this.#recording.add(recording)
    void recording.finally(() => this.#recording.delete(recording))
  }

  /**
   * The end could not be written (a full disk): nothing is acknowledged, so the agent keeps its
   * report, and the execution stays `running` with a timer that writes the same end again, as
   * does the agent's re-send of the report (docs/reliability.md, P22). The run's secret inputs
   * stay held: the retry masks with them.
   */
  #retryLater(row: ExecutionRow, completion: () => Completion, attempt: number, err: unknown): void {
    if (isStorageError(err)) noteStorageFailure(this.ctx, err)
    const retryInMs = Math.min(END_RETRY_BASE_MS * 2 ** attempt, END_RETRY_CAP_MS)
    this.ctx.log.error(
      { err, jobExecutionId: row.id, attempt: attempt + 1, retryInMs },
      'could not record the end of an execution; it stays running and is written again',
    )
    // Stopping: the next start finds it running and recovers it (recovery.ts).
    if (this.#stopped) return
    const retry = () => this.#finish(row, completion, attempt + 1)
    this.#unwritten.set(row.id, retry)
    this.#timers.set(row.id, setTimeout(retry, retryInMs))
  }

  /** Live results move the stability score; recomputed once per job per moment, not per run. */
  #rescore(jobId: string): void {
    if (this.#rescoring.has(jobId)) return
    this.#rescoring.add(jobId)
    this.ctx.writes.defer(
      () => {
        this.#rescoring.delete(jobId)
        recomputeStability(this.ctx, jobId)
      },
      (err) => this.ctx.log.error({ err, jobId }, 'could not recompute the stability score'),
    )
  }

  /** What the agent reports, with the job's secret values masked before anything stores or logs it. */
  /** The agent does not know the job's route: a remedy that needs it (`jobs secret set <METHOD> <path>`) gets it here. */
  #nameRoute(row: ExecutionRow, outcome: RunOutcome): RunOutcome {
    const job = outcome.error?.code === 'SIGN_IN_REQUIRED' ? getJob(this.ctx, row.jobId) : undefined
    if (!job || !outcome.error) return outcome
    const message = outcome.error.message.replaceAll('<METHOD> <path>', `${job.method} ${job.path}`)
    return { ...outcome, error: { ...outcome.error, message } }
  }

  #scrub<T>(row: ExecutionRow, value: T): T {
    const jobId = row.jobId
    const held = heldSecretInputs(this.ctx, row.id)
    if (held) value = scrubJobSecrets(secretInputTexts(held), value)
    try {
      return scrubJobSecrets(jobSecretValues(this.ctx, jobId), value)
    } catch (err) {
      // The job (and its secrets) may be gone by the time its run reports.
      this.ctx.log.warn({ err, jobId }, 'could not read the job secrets to mask a run report')
      return value
    }
  }

  /** A deleted job's queued runs end `cancelled`, each answering its waiting caller at once. */
  #dropIfDeleted(jobId: string): void {
    if (!this.#queues.has(jobId) || getJobFresh(this.ctx, jobId)) return
    for (const item of this.#queues.drop(jobId)) {
      const row = findExecution(this.ctx, item.id)
      if (row)
        this.#finish(row, () =>
          completionFromFailure(row, 'cancelled', {
            code: 'JOB_DELETED',
            message: 'The job was deleted before this run started',
          }),
        )
    }
  }
}

/**
 * What the agent gets as the run's input: the caller's input plus the job's secrets as `$secrets`.
 * A caller cannot supply `$secrets` of its own; a job without secrets sends the input untouched.
 */
function runInput(input: Record<string, unknown>, secrets: Readonly<Record<string, string>>) {
  if (Object.keys(secrets).length) return { ...input, $secrets: secrets }
  if (!('$secrets' in input)) return input
  const { $secrets: _, ...rest } = input
  return rest
}

import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppContext } from '../context.ts'
import { pruneAudit } from '../modules/audit/prune.ts'
import { removeOrphanRecordingFiles } from '../modules/recordings/files.ts'
import { effectiveRetention, listJobRetention } from '../modules/retention/job-overrides.ts'
import {
  getRetention,
  type RetentionPolicy,
  type RetentionReport,
  recordRetentionRun,
} from '../modules/retention/service.ts'
import {
  clearScreenshots,
  deleteRuns,
  type ExpiredRun,
  expiredRuns,
  firstActiveSeq,
  lastSeqQueuedBefore,
  type RunScope,
  runsWithExpiredScreenshots,
} from '../modules/retention/sweep.ts'
import { SerialPasses } from './serial-passes.ts'
import type { Service } from './service.ts'

export interface RetentionOptions {
  intervalMs: number
  /** The first pass, shortly after start (not at once: start-up recovery and first calls go first). */
  firstRunDelayMs: number
  /** Runs per transaction. */
  batchSize: number
}

export const RETENTION_TASK_DEFAULTS: RetentionOptions = {
  intervalMs: 60 * 60 * 1000,
  firstRunDelayMs: 30_000,
  batchSize: 200,
}

const DAY_MS = 24 * 60 * 60 * 1000
/** Each statement looks at most this many `seq` values per batch row wanted. */
const WINDOW_PER_ROW = 5
/**
 * The screenshot scan resumes past runs it has seen, but not right up to the cutoff: a run accepted
 * before it may still be finishing (its age counts from its end). A day covers any job's timeout.
 */
const CURSOR_SLACK_MS = DAY_MS

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Run ids are UUIDs; anything else never names a folder to remove. */
const SAFE_FOLDER = /^[A-Za-z0-9-]{1,64}$/

/** The running task of each server, so the settings page can ask for a pass after a change. */
const tasks = new WeakMap<AppContext, RetentionTask>()
export const retentionTaskFor = (ctx: AppContext) => tasks.get(ctx)

/**
 * Removes step screenshots and finished runs past the retention the settings page sets: hourly,
 * and once shortly after start. Works in small batches (one short transaction each, the event loop
 * free in between) so calls never wait behind it. Queued and running executions are never touched.
 * Files go before rows, so a pass cut short leaves rows that the next pass finds and finishes.
 */
export class RetentionTask implements Service {
  readonly name = 'retention'
  readonly #ctx: AppContext
  readonly #opts: RetentionOptions
  readonly #passes = new SerialPasses(() => this.#pass())
  /**
   * Per scope ('' for the workspace policy, else a job id with its own retention): runs at or below
   * this `seq` have been looked at for screenshots (in memory: a restart rescans).
   */
  #screenshotCursors = new Map<string, number>()
  /** The jobs with their own retention at the last pass: a change resets the cursors. */
  #overridden = ''

  constructor(ctx: AppContext, options: Partial<RetentionOptions> = {}) {
    this.#ctx = ctx
    this.#opts = { ...RETENTION_TASK_DEFAULTS, ...options }
  }

  start(): void {
    tasks.set(this.#ctx, this)
    this.#schedule(this.#opts.firstRunDelayMs)
  }

  /** A pass now (after the one running, if any): the policy changed or an admin asked. */
  runSoon(): void {
    this.#schedule(0)
  }

  /** One pass; never rejects (a failure is in the report and the log). */
  runOnce(): Promise<RetentionReport> {
    return this.#passes.runOnce()
  }

  /** Stops between batches and waits for the pass in progress. */
  async stop(): Promise<void> {
    if (tasks.get(this.#ctx) === this) tasks.delete(this.#ctx)
    await this.#passes.stop()
  }

  #schedule(delayMs: number): void {
    this.#passes.schedule(delayMs, async () => {
      await this.runOnce()
      // Unless runSoon() asked for another pass meanwhile, the next comes after the interval.
      if (!this.#passes.scheduled) this.#schedule(this.#opts.intervalMs)
    })
  }

  async #pass(): Promise<RetentionReport> {
    const { log, clock } = this.#ctx
    const policy = getRetention(this.#ctx)
    const now = clock.now().getTime()
    const report: RetentionReport = {
      startedAt: new Date(now).toISOString(),
      finishedAt: '',
      screenshots: 0,
      runs: 0,
      batches: 0,
      policy,
    }
    try {
      // Jobs with their own ages are swept on their own (each scan uses the job's index); the
      // workspace pass leaves them out.
      const overrides = listJobRetention(this.#ctx)
      const overridden = JSON.stringify([...overrides.keys()].sort())
      if (overridden !== this.#overridden) {
        this.#overridden = overridden
        this.#screenshotCursors.clear()
      }
      await this.#sweep(policy, { excludeJobs: [...overrides.keys()] }, '', now, report)
      for (const [jobId, own] of overrides) {
        if (this.#passes.stopped) break
        await this.#sweep(effectiveRetention(policy, own), { jobId }, jobId, now, report)
      }
      // Recording screenshots go with their build; a deletion elsewhere (the CLI) leaves folders behind.
      if (!this.#passes.stopped) report.recordings = await removeOrphanRecordingFiles(this.#ctx)
      if (!this.#passes.stopped && this.#ctx.config.auditDays > 0) await this.#pruneAudit(now, report)
    } catch (err) {
      report.error = err instanceof Error ? err.message : String(err)
      log.error({ err }, 'retention pass failed; the next pass tries again')
    }
    report.finishedAt = clock.now().toISOString()
    try {
      recordRetentionRun(this.#ctx, report)
    } catch (err) {
      log.error({ err }, 'could not record the retention pass')
    }
    if (report.runs || report.screenshots || report.auditRows)
      log.info(
        {
          runs: report.runs,
          screenshots: report.screenshots,
          auditRows: report.auditRows,
          batches: report.batches,
        },
        'retention: removed old runs and screenshots',
      )
    return report
  }

  /** Audit rows past `--audit-days`, oldest first, a batch per transaction (the chain keeps its anchor). */
  async #pruneAudit(now: number, report: RetentionReport): Promise<void> {
    const cutoff = new Date(now - this.#ctx.config.auditDays * DAY_MS).toISOString()
    report.auditRows = 0
    while (!this.#passes.stopped) {
      const removed = pruneAudit(this.#ctx, cutoff, this.#opts.batchSize * WINDOW_PER_ROW)
      if (!removed) break
      report.auditRows += removed
      report.batches++
      await yieldToEventLoop()
    }
  }

  async #sweep(
    policy: RetentionPolicy,
    scope: RunScope,
    cursorKey: string,
    now: number,
    report: RetentionReport,
  ): Promise<void> {
    await this.#removeRuns(new Date(now - policy.runDays * DAY_MS).toISOString(), scope, report)
    await this.#removeScreenshots(now - policy.screenshotDays * DAY_MS, scope, cursorKey, report)
  }

  async #removeRuns(cutoff: string, scope: RunScope, report: RetentionReport): Promise<void> {
    const { db } = this.#ctx
    const upTo = lastSeqQueuedBefore(db, cutoff)
    for await (const runs of this.#batches(0, upTo, scope, (after, to, n) =>
      expiredRuns(db, after, to, cutoff, n, scope),
    )) {
      await this.#removeFolders(runs)
      report.runs += deleteRuns(db, runs)
      report.batches++
    }
  }

  async #removeScreenshots(
    cutoffMs: number,
    scope: RunScope,
    cursorKey: string,
    report: RetentionReport,
  ): Promise<void> {
    const { db } = this.#ctx
    const cutoff = new Date(cutoffMs).toISOString()
    const upTo = lastSeqQueuedBefore(db, cutoff)
    const select = (after: number, to: number, n: number) =>
      runsWithExpiredScreenshots(db, after, to, cutoff, n, scope)
    const cursor = this.#screenshotCursors.get(cursorKey) ?? 0
    for await (const runs of this.#batches(cursor, upTo, scope, select)) {
      await this.#removeFolders(runs)
      report.screenshots += clearScreenshots(db, runs)
      report.batches++
    }
    if (this.#passes.stopped) return
    const settled = lastSeqQueuedBefore(db, new Date(cutoffMs - CURSOR_SLACK_MS).toISOString())
    const active = firstActiveSeq(db)
    const next = Math.min(settled, active === undefined ? settled : active - 1)
    this.#screenshotCursors.set(cursorKey, Math.max(cursor, next))
  }

  /**
   * Batches of at most batchSize runs in `(from, upTo]`, each statement over a bounded window (one
   * job's scan walks its index instead, so it needs no window).
   */
  async *#batches(
    from: number,
    upTo: number,
    scope: RunScope,
    select: (after: number, to: number, limit: number) => ExpiredRun[],
  ): AsyncGenerator<ExpiredRun[]> {
    const { batchSize } = this.#opts
    let after = from
    while (after < upTo && !this.#passes.stopped) {
      const to = 'jobId' in scope ? upTo : Math.min(after + batchSize * WINDOW_PER_ROW, upTo)
      const runs = select(after, to, batchSize)
      if (runs.length) yield runs
      after = runs.length === batchSize ? runs.at(-1)!.seq : to
      await yieldToEventLoop()
    }
  }

  async #removeFolders(runs: ExpiredRun[]): Promise<void> {
    const root = join(this.#ctx.config.dataDir, 'screenshots')
    await Promise.all(
      runs
        .filter((r) => SAFE_FOLDER.test(r.id))
        .map((r) => rm(join(root, r.id), { recursive: true, force: true })),
    )
  }
}

export function startRetention(ctx: AppContext, options: Partial<RetentionOptions> = {}): RetentionTask {
  const task = new RetentionTask(ctx, options)
  task.start()
  return task
}

import type { AppContext } from '../context.ts'
import { countWebhookAttempt } from '../modules/metrics/service.ts'
import { type Lookup, systemLookup } from '../modules/webhooks/callback-url.ts'
import {
  claimDue,
  dropOverflow,
  markDelivered,
  markFailed,
  nextDueAfter,
  type OutboxRow,
  releaseInFlight,
  scheduleRetry,
} from '../modules/webhooks/outbox.ts'
import { type AttemptOutcome, sendAttempt } from '../modules/webhooks/send-attempt.ts'
import type { Service } from './service.ts'

/** The RELIABILITY defaults; tests shrink the times. */
export interface DelivererOptions {
  /** Total deadline of one attempt. */
  timeoutMs: number
  /** Delay before the retry, give or take `jitter` (a fraction), so failures don't retry in lockstep. */
  retryDelayMs: number
  jitter: number
  /** Initial attempt plus one retry. */
  maxAttempts: number
  /** A longer `Retry-After` skips the retry rather than holding the event (and its successors). */
  retryAfterCapMs: number
  /** Attempts in flight at once; a slow receiver holds one slot, never the loop. */
  concurrency: number
  /** Beyond this many waiting events the oldest are dropped (counted in `droppedCount`). */
  maxPending: number
  /** Longest sleep between looks at the table (catches rows other processes queued or resent). */
  pollIntervalMs: number
  lookup: Lookup
}

export const DELIVERER_DEFAULTS: DelivererOptions = {
  timeoutMs: 15_000,
  retryDelayMs: 5_000,
  jitter: 0.2,
  maxAttempts: 2,
  retryAfterCapMs: 60_000,
  concurrency: 16,
  maxPending: 10_000,
  pollIntervalMs: 1_000,
  lookup: systemLookup,
}

/**
 * Sends queued status events to their `callback_url`s in the background. Runs and HTTP handlers
 * never wait on it: they commit the outbox row and call `notify()`. Events of one execution go out
 * in order; different executions proceed in parallel up to `concurrency`. The loop never throws.
 */
export class WebhookDeliverer implements Service {
  readonly name = 'webhook deliverer'
  /** Events dropped because the queue was full, since this process started. */
  droppedCount = 0
  readonly #ctx: AppContext
  readonly #opts: DelivererOptions
  readonly #stop = new AbortController()
  readonly #inFlight = new Set<Promise<void>>()
  #timer: ReturnType<typeof setTimeout> | undefined
  #timerAt = 0
  #started = false
  #overflowCheckedAt = 0
  readonly #onExternalChange = () => this.notify()

  constructor(ctx: AppContext, options: Partial<DelivererOptions> = {}) {
    this.#ctx = ctx
    this.#opts = { ...DELIVERER_DEFAULTS, ...options }
  }

  start(): void {
    if (this.#started) return
    this.#started = true
    const released = releaseInFlight(this.#ctx.db)
    if (released)
      this.#ctx.log.warn({ released }, 'webhook deliveries interrupted by a stop will be sent again')
    this.#ctx.events.on('db.external-change', this.#onExternalChange)
    this.#wake(0)
  }

  /** Look for due events now (call after committing one). Cheap and safe to call often. */
  notify(): void {
    this.#wake(0)
  }

  /** Stops taking events, cuts attempts in flight short (they are sent again after a restart). */
  async stop(): Promise<void> {
    if (this.#stop.signal.aborted) return
    this.#stop.abort()
    clearTimeout(this.#timer)
    this.#ctx.events.off('db.external-change', this.#onExternalChange)
    await Promise.allSettled([...this.#inFlight])
  }

  #wake(delayMs: number): void {
    if (!this.#started || this.#stop.signal.aborted) return
    const at = Date.now() + delayMs
    if (this.#timer !== undefined && this.#timerAt <= at) return
    clearTimeout(this.#timer)
    this.#timerAt = at
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.#tick()
    }, delayMs)
    // Like the other background loops, never the reason a process stays alive.
    this.#timer.unref()
  }

  #tick(): void {
    const { db, log, clock } = this.#ctx
    let delay = this.#opts.pollIntervalMs
    try {
      const now = clock.now()
      // A count over the queue is not free on the main thread: at most once per poll interval.
      if (Date.now() - this.#overflowCheckedAt >= this.#opts.pollIntervalMs) {
        this.#overflowCheckedAt = Date.now()
        const dropped = dropOverflow(db, this.#opts.maxPending)
        if (dropped) {
          this.droppedCount += dropped
          log.warn({ dropped, max: this.#opts.maxPending }, 'webhook queue full: oldest events dropped')
        }
      }
      for (const row of claimDue(db, now.toISOString(), this.#opts.concurrency - this.#inFlight.size)) {
        this.#launch(row)
      }
      const next = nextDueAfter(db, now.toISOString())
      if (next) delay = Math.min(delay, Math.max(0, Date.parse(next) - now.getTime()))
    } catch (err) {
      log.error({ err }, 'webhook deliverer pass failed; trying again later')
    }
    this.#wake(delay)
  }

  #launch(row: OutboxRow): void {
    const attempt = sendAttempt(this.#ctx, row, {
      timeoutMs: this.#opts.timeoutMs,
      lookup: this.#opts.lookup,
      stopSignal: this.#stop.signal,
    })
      .then((outcome) => this.#record(row, outcome))
      .catch((err) => this.#ctx.log.error({ err, deliveryId: row.id }, 'webhook delivery bookkeeping failed'))
      .finally(() => {
        this.#inFlight.delete(attempt)
        // A slot is free and this execution's next event may now go.
        this.#wake(0)
      })
    this.#inFlight.add(attempt)
  }

  #record(row: OutboxRow, outcome: AttemptOutcome): void {
    const { db, log, clock } = this.#ctx
    // Log the origin only: callback URLs often carry a token in their path or query.
    const at = {
      deliveryId: row.id,
      eventId: row.eventId,
      to: originOf(row.url),
      attempt: row.attempts,
    }
    if (outcome.kind === 'aborted') {
      releaseInFlight(db, [row.id])
      return
    }
    if (outcome.kind === 'delivered') {
      markDelivered(db, row.id, outcome.statusCode, clock.now().toISOString())
      countWebhookAttempt(this.#ctx, 'delivered')
      log.debug({ ...at, status: outcome.statusCode }, 'webhook delivered')
      return
    }
    const retryIn = outcome.kind === 'retryable' ? this.#retryDelay(row, outcome) : undefined
    if (typeof retryIn === 'number') {
      const next = new Date(clock.now().getTime() + retryIn).toISOString()
      scheduleRetry(db, row.id, next, outcome.statusCode, outcome.error)
      countWebhookAttempt(this.#ctx, 'retry')
      log.info(
        { ...at, error: outcome.error, retryInMs: Math.round(retryIn) },
        'webhook attempt failed; will retry',
      )
      return
    }
    const error = typeof retryIn === 'string' ? `${outcome.error}; ${retryIn}` : outcome.error
    markFailed(db, row.id, outcome.statusCode, error)
    countWebhookAttempt(this.#ctx, 'failed')
    log.warn({ ...at, error }, 'webhook delivery failed')
  }

  /** Milliseconds until the retry, or why there is none. */
  #retryDelay(row: OutboxRow, outcome: AttemptOutcome & { kind: 'retryable' }): number | string {
    if (row.attempts >= this.#opts.maxAttempts) return `no attempts left (${row.attempts} made)`
    const { retryDelayMs, jitter, retryAfterCapMs } = this.#opts
    const jittered = retryDelayMs * (1 + jitter * (2 * Math.random() - 1))
    if (outcome.retryAfterMs === undefined) return jittered
    if (outcome.retryAfterMs > retryAfterCapMs)
      return `Retry-After of ${Math.round(outcome.retryAfterMs / 1000)} s is past the ${retryAfterCapMs / 1000} s cap`
    return Math.max(jittered, outcome.retryAfterMs)
  }
}

/** Never throws: a malformed stored URL must not break the bookkeeping of its own failure. */
const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : '(invalid URL)')

import type { Db } from './client.ts'

interface Pending<T> {
  work: () => T
  /** The write is one statement (atomic by itself): no savepoint needed around it. */
  single?: boolean
  resolve(value: T): void
  reject(err: unknown): void
}

/** One committed batch, for metrics: how many writes shared it and how long BEGIN…COMMIT took. */
export interface CommitBatch {
  size: number
  seconds: number
}

/**
 * Group commit: writes that arrive in one turn of the event loop share one durable transaction
 * (synchronous=FULL costs one fsync per COMMIT; PERF-NOTES measured 4× throughput from grouping).
 * Each write runs in its own SAVEPOINT, so one failing (say, a duplicate idempotency key) rolls
 * back only itself. Promises resolve only after COMMIT: a 202 is never sent for a row that could
 * still be lost.
 */
export class GroupCommitter {
  #queue: Pending<unknown>[] = []
  #scheduled = false
  #timer?: ReturnType<typeof setTimeout>
  #afterCommit: ((tags: ReadonlySet<string>, batch: CommitBatch) => void)[] = []
  #tags = new Set<string>()

  // Prepared once: a savepoint per write must stay cheap on the hot path.
  #savepoint
  #release
  #rollbackTo

  constructor(
    private readonly db: Db,
    /** How long a deferred write may wait for company before it commits on its own. */
    private readonly deferMs = 20,
  ) {
    this.#savepoint = db.$client.prepare('SAVEPOINT group_commit_item')
    this.#release = db.$client.prepare('RELEASE group_commit_item')
    this.#rollbackTo = db.$client.prepare('ROLLBACK TO group_commit_item')
  }

  /** A write someone waits on (an acceptance, a completion): committed at the end of this turn. */
  run<T>(work: () => T, opts: { singleStatement?: boolean } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        work,
        single: opts.singleStatement,
        resolve: resolve as (v: unknown) => void,
        reject,
      })
      if (!this.#scheduled) {
        this.#scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  /**
   * A write nobody waits on (a step record, a desktop's status): it rides along with the next
   * durable commit, or commits on its own within `deferMs`. Order is kept: a later `run` commits
   * after it. Failures are reported to `onError`, since no caller is there to see them.
   */
  defer(work: () => void, onError: (err: unknown) => void): void {
    this.#queue.push({ work, resolve: () => {}, reject: onError })
    this.#timer ??= setTimeout(() => this.flush(), this.deferMs)
  }

  /**
   * Called after every successful commit with the tags its writes set (e.g. `outbox`, so the
   * webhook deliverer wakes only when there is something to send).
   */
  onCommit(listener: (tags: ReadonlySet<string>, batch: CommitBatch) => void): void {
    this.#afterCommit.push(listener)
  }

  /** Marks the batch being written (call from inside a write). */
  tag(name: string): void {
    this.#tags.add(name)
  }

  /** Commits everything queued now (also used at shutdown, before the database closes). */
  flush(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#scheduled = false
    if (this.#queue.length === 0) return
    const batch = this.#queue
    this.#queue = []
    const sqlite = this.db.$client
    const began = performance.now()
    let seconds = 0
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = []
    try {
      sqlite.run('BEGIN IMMEDIATE')
      try {
        for (const item of batch) {
          if (item.single) {
            // One statement is atomic on its own: if it fails it leaves nothing behind.
            try {
              outcomes.push({ ok: true, value: item.work() })
            } catch (error) {
              outcomes.push({ ok: false, error })
            }
            continue
          }
          // A savepoint per write: one failing rolls back only itself.
          this.#savepoint.run()
          try {
            outcomes.push({ ok: true, value: item.work() })
            this.#release.run()
          } catch (error) {
            this.#rollbackTo.run()
            this.#release.run()
            outcomes.push({ ok: false, error })
          }
        }
        sqlite.run('COMMIT')
        seconds = (performance.now() - began) / 1000
      } catch (error) {
        if (sqlite.inTransaction) sqlite.run('ROLLBACK')
        throw error
      }
    } catch (error) {
      // The COMMIT itself failed (disk full, I/O error): nothing in the batch is durable.
      for (const item of batch) item.reject(error)
      return
    }
    batch.forEach((item, i) => {
      const o = outcomes[i]!
      if (o.ok) item.resolve(o.value)
      else item.reject(o.error)
    })
    const tags = this.#tags
    this.#tags = new Set()
    const stats: CommitBatch = { size: batch.length, seconds }
    for (const listener of this.#afterCommit) listener(tags, stats)
  }
}

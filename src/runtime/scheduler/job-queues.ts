export interface QueuedItem {
  seq: number
  id: string
}

/**
 * The queued executions, FIFO per job, mirrored in memory from the executions table (which stays
 * the source of truth: it is reloaded at start-up, and a claim is an atomic UPDATE).
 */
export class JobQueues {
  #byJob = new Map<string, QueuedItem[]>()

  push(jobId: string, item: QueuedItem): void {
    const q = this.#byJob.get(jobId)
    if (q) q.push(item)
    else this.#byJob.set(jobId, [item])
  }

  /** Jobs with waiting work, the one whose oldest execution waited longest first. */
  jobsByAge(): string[] {
    return [...this.#byJob.entries()].sort((a, b) => a[1][0]!.seq - b[1][0]!.seq).map(([jobId]) => jobId)
  }

  shift(jobId: string): QueuedItem | undefined {
    const q = this.#byJob.get(jobId)
    const item = q?.shift()
    if (q && q.length === 0) this.#byJob.delete(jobId)
    return item
  }

  /** Puts a claimed item back at the head (its dispatch could not start). */
  unshift(jobId: string, item: QueuedItem): void {
    const q = this.#byJob.get(jobId)
    if (q) q.unshift(item)
    else this.#byJob.set(jobId, [item])
  }

  has(jobId: string): boolean {
    return this.#byJob.has(jobId)
  }

  drop(jobId: string): QueuedItem[] {
    const q = this.#byJob.get(jobId) ?? []
    this.#byJob.delete(jobId)
    return q
  }

  /** How many queued executions are ahead of this one, across all jobs. */
  position(seq: number): number {
    let ahead = 0
    for (const q of this.#byJob.values()) for (const item of q) if (item.seq < seq) ahead++
    return ahead
  }

  get size(): number {
    let n = 0
    for (const q of this.#byJob.values()) n += q.length
    return n
  }
}

/**
 * Synchronous callers waiting for their execution to end. In memory on purpose: a held connection
 * does not survive a restart either, and the execution itself is durable in SQLite.
 */
export class ExecutionWaiters {
  #waiting = new Map<string, Set<(ended: boolean) => void>>()
  #released = false

  /** Resolves true when the execution ends, false when `timeoutMs` passes first. */
  wait(id: string, timeoutMs: number): Promise<boolean> {
    if (this.#released) return Promise.resolve(false)
    return new Promise((resolve) => {
      const set = this.#waiting.get(id) ?? new Set()
      this.#waiting.set(id, set)
      const done = (ended: boolean) => {
        clearTimeout(timer)
        resolve(ended)
      }
      const timer = setTimeout(() => {
        set.delete(done)
        if (!set.size) this.#waiting.delete(id)
        resolve(false)
      }, timeoutMs)
      set.add(done)
    })
  }

  settle(id: string): void {
    const set = this.#waiting.get(id)
    if (!set) return
    this.#waiting.delete(id)
    for (const done of set) done(true)
  }

  /** Shutdown: every held caller gets its answer now (the execution goes on after a restart). */
  releaseAll(): void {
    this.#released = true
    for (const set of this.#waiting.values()) for (const done of set) done(false)
    this.#waiting.clear()
  }

  get size(): number {
    return this.#waiting.size
  }
}

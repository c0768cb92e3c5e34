/** setTimeout's limit (about 24.8 days); a longer wait is several timers. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * The passes of a background task (retention, scheduled backups): one at a time, never two at
 * once; a timer for the next that never keeps the process alive; `stop()` lets no new pass start
 * and waits for the one in progress.
 */
export class SerialPasses<R> {
  #timer: ReturnType<typeof setTimeout> | undefined
  #stopped = false
  #chain: Promise<unknown> = Promise.resolve()

  constructor(private readonly pass: () => Promise<R>) {}

  get stopped(): boolean {
    return this.#stopped
  }

  /** Whether a timer is waiting to fire. */
  get scheduled(): boolean {
    return this.#timer !== undefined
  }

  /** One pass now, after the one running if any. */
  runOnce(): Promise<R> {
    const pass = this.#chain.then(() => this.pass())
    this.#chain = pass.catch(() => {})
    return pass
  }

  /** Calls `fire` after `delayMs`, replacing a timer already waiting; nothing once stopped. */
  schedule(delayMs: number, fire: () => void): void {
    if (this.#stopped) return
    clearTimeout(this.#timer)
    const wait = Math.min(delayMs, MAX_TIMER_MS)
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      if (wait < delayMs) this.schedule(delayMs - wait, fire)
      else fire()
    }, wait)
    this.#timer.unref()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    this.#timer = undefined
    await this.#chain
  }
}

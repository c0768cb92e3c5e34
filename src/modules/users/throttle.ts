/**
 * Sign-in throttling: after a few failures for one email (or from one address) within a window,
 * further attempts are refused until the window passes, whether or not the password is right.
 * In memory: one server process answers every sign-in, and a restart forgetting counts is harmless.
 */
export interface ThrottleOptions {
  /** Failures allowed per window before attempts are refused. */
  maxFailures: number
  windowMs: number
}

export class SignInThrottle {
  readonly #failures = new Map<string, number[]>()
  constructor(
    readonly options: ThrottleOptions = { maxFailures: 5, windowMs: 15 * 60 * 1000 },
    readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until another attempt is allowed for any of these keys, or 0. */
  retryAfterMs(keys: string[]): number {
    const now = this.now()
    let wait = 0
    for (const key of keys) {
      const recent = this.#recent(key, now)
      if (recent.length >= this.options.maxFailures)
        wait = Math.max(wait, recent[recent.length - this.options.maxFailures]! + this.options.windowMs - now)
    }
    return wait
  }

  /**
   * Checks and counts an attempt in one step, before its password is verified: returns the wait
   * (nothing counted) or 0, with the attempt already counted as a failure. Counting it only after
   * the hash was awaited let any number of parallel attempts through the check (issue 23, N3); a
   * right password takes its count back with `succeed`.
   */
  begin(keys: string[]): number {
    const wait = this.retryAfterMs(keys)
    if (wait === 0) this.fail(keys)
    return wait
  }

  fail(keys: string[]): void {
    const now = this.now()
    for (const key of keys) this.#failures.set(key, [...this.#recent(key, now), now])
    if (this.#failures.size > 10_000) this.#sweep(now)
  }

  succeed(keys: string[]): void {
    for (const key of keys) this.#failures.delete(key)
  }

  #recent(key: string, now: number): number[] {
    return (this.#failures.get(key) ?? []).filter((t) => now - t < this.options.windowMs)
  }

  #sweep(now: number): void {
    for (const [key, times] of this.#failures)
      if (!times.some((t) => now - t < this.options.windowMs)) this.#failures.delete(key)
  }
}

// The apps a build touches on a native desktop, so its end leaves the desktop as the build found it
// (docs/builder.md, "Do no harm"): the apps the build started are closed, and an app that was open
// before the build (the person's own, or one a live run left open) and was closed for a fresh start
// is started again from the same command line once its settings are put back. Without that, the
// app a person opened to teach a job is gone after the build, and the next teaching call finds no
// window of it.
import type { AppSpec } from '../../../protocol/automation.ts'

const keyOf = (app: AppSpec): string => JSON.stringify([app.executable, app.args ?? [], app.cwd ?? ''])

export class BuildApps {
  #on = false
  /** Apps started since the build began (pid): closed as it ends. */
  readonly #started = new Set<number>()
  /** Apps that were open before the build and closed by one of its fresh starts: started again at its end. */
  readonly #reopen = new Map<string, AppSpec>()
  /** Apps the build has started an instance of: what a later fresh start closes is the build's own. */
  readonly #apps = new Set<string>()

  get active(): boolean {
    return this.#on
  }

  /** A build begins: whatever an earlier one left is forgotten. */
  begin(): void {
    this.#on = true
    this.#started.clear()
    this.#reopen.clear()
    this.#apps.clear()
  }

  /**
   * A fresh start of `app` ended these processes. At the build's first start of the app they were
   * open before it; later, they are the build's own instance (with the processes it spawned, which
   * the build never saw start).
   */
  closed(app: AppSpec, pids: readonly number[]): void {
    for (const pid of pids) this.#started.delete(pid)
    if (this.#on && pids.length && !this.#apps.has(keyOf(app))) this.#reopen.set(keyOf(app), app)
  }

  /** The build started this process of `app`. */
  started(pid: number, app: AppSpec): void {
    if (!this.#on) return
    this.#started.add(pid)
    this.#apps.add(keyOf(app))
  }

  /** The build ends: the processes it started (to close), and the apps to start again once settings are put back. */
  end(): { close: Set<number>; reopen: AppSpec[] } {
    const result = { close: new Set(this.#started), reopen: [...this.#reopen.values()] }
    this.#on = false
    this.#started.clear()
    this.#reopen.clear()
    this.#apps.clear()
    return result
  }
}

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

  get active(): boolean {
    return this.#on
  }

  /** A build begins: whatever an earlier one left is forgotten. */
  begin(): void {
    this.#on = true
    this.#started.clear()
    this.#reopen.clear()
  }

  /** A fresh start of `app` ended these processes: those the build had not started were open before it. */
  closed(app: AppSpec, pids: readonly number[]): void {
    const before = pids.filter((pid) => !this.#started.has(pid))
    for (const pid of pids) this.#started.delete(pid)
    if (this.#on && before.length && !this.#reopen.has(keyOf(app))) this.#reopen.set(keyOf(app), app)
  }

  /** The build started this process. */
  started(pid: number): void {
    if (this.#on) this.#started.add(pid)
  }

  /** The build ends: the processes it started (to close), and the apps to start again once settings are put back. */
  end(): { close: Set<number>; reopen: AppSpec[] } {
    const result = { close: new Set(this.#started), reopen: [...this.#reopen.values()] }
    this.#on = false
    this.#started.clear()
    this.#reopen.clear()
    return result
  }
}

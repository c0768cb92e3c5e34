// A desktop app's window that closes while the app goes on in another (a sign-in dialog that gives
// way to the main window, a splash to the app): the window a build, run or recording holds is then
// the app's other window, as a person sees it (issue 24 §5; docs/builder.md, "Do no harm" and the
// native notes). The driver follows it once, remembers the successor, and says so in the log.
import type { Logger } from '../../../lib/logger.ts'
import { DriverError } from '../../../protocol/driver.ts'
import type { HelperWindow } from '../../../protocol/helper.ts'

/** How many windows' processes are remembered (the most recent). */
const REMEMBERED = 256

export class WindowSuccession {
  /** Window id → the process that showed it. */
  readonly #owner = new Map<string, number>()
  /** A closed window → the window of the same process that took its place. */
  readonly #next = new Map<string, string>()

  constructor(private readonly log: Logger) {}

  seen(window: HelperWindow): void {
    this.#owner.delete(window.id)
    this.#owner.set(window.id, window.pid)
    const oldest = this.#owner.keys().next().value
    if (this.#owner.size > REMEMBERED && oldest !== undefined) this.#owner.delete(oldest)
  }

  /** The window that now stands for this one (itself while it lives). */
  current(windowId: string): string {
    let id = windowId
    for (let hops = 0; hops < 8 && this.#next.has(id); hops++) id = this.#next.get(id)!
    return id
  }

  /**
   * Calls with the window that stands for `windowId`; when that one is gone and its process shows
   * another window (its main window first, then any other), calls again with that one.
   */
  async follow<T>(
    windowId: string,
    call: (id: string) => Promise<T>,
    list: () => Promise<HelperWindow[]>,
    /** What the call answers when the window it waited on closed (a change in itself). */
    closed?: () => T,
  ): Promise<T> {
    const id = this.current(windowId)
    try {
      return await call(id)
    } catch (error) {
      if (!(error instanceof DriverError) || error.code !== 'WINDOW_NOT_FOUND') throw error
      const pid = this.#owner.get(id)
      if (pid === undefined) throw error
      const rank = (w: HelperWindow) =>
        w.modal || /dialog|alert/.test(w.role) ? 2 : w.role === 'frame' ? 0 : 1
      const successor = (await list())
        .filter((w) => w.pid === pid && w.id !== id)
        .sort((a, b) => rank(a) - rank(b))[0]
      if (!successor) throw error
      this.seen(successor)
      this.#next.set(id, successor.id)
      this.log.info(
        { closed: id, window: successor.title },
        'the window closed; going on in its app’s other window',
      )
      return closed ? closed() : call(successor.id)
    }
  }
}

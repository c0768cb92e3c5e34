import ipaddr from 'ipaddr.js'
import type { Logger } from '../../lib/logger.ts'
import { CLOSE } from '../../protocol/messages.ts'
import type { AgentSession } from './session.ts'

/**
 * Sockets from one client address (an IPv6 /64 counts as one) that may wait for their hello at
 * once. When one more arrives, the oldest of them is closed (1013), not the newcomer: a socket that
 * never says hello is the oldest, while a real agent says hello within milliseconds of opening, so
 * a client holding its whole share of sockets cannot keep an agent on the same machine out.
 */
export const MAX_PENDING_HELLOS_PER_ADDRESS = 8
/**
 * Sockets waiting for their hello in all. Each may hold one frame of at most MAX_AGENT_FRAME
 * (src/modules/desktops/index.ts) until the hub sees it is not a hello, so this bounds that memory
 * (32 × 8 MiB). At this cap the oldest socket of the address holding the most is closed.
 */
export const MAX_PENDING_HELLOS = 32
/** Sockets closed by the caps are logged as one line per interval, with their count. */
export const CAP_LOG_INTERVAL_MS = 10_000

interface Waiting {
  key: string
  timer: ReturnType<typeof setTimeout>
}

/** The agent sockets that have not said hello yet: their deadline, their caps, and the log of those closed. */
export class PendingHellos {
  #byKey = new Map<string, Set<AgentSession>>()
  #waiting = new Map<AgentSession, Waiting>()
  #closedByCap = 0
  #logWindow?: ReturnType<typeof setTimeout>

  constructor(
    private readonly log: Logger,
    private readonly helloTimeoutMs: number,
  ) {}

  get size(): number {
    return this.#waiting.size
  }

  /**
   * A socket opened from `address`: it waits for its hello, making room first if a cap is reached.
   * A socket whose upgrade proved a desktop's credential (`desktopId`) waits in that desktop's own
   * share instead of its address's: sockets that never say hello, from the agent's own machine and
   * re-opened the moment they close, can then never close it before its hello arrives.
   */
  add(session: AgentSession, address: string, desktopId?: string): void {
    const key = desktopId ? `desktop:${desktopId}` : clientKey(address)
    const own = this.#byKey.get(key)
    if (own && own.size >= MAX_PENDING_HELLOS_PER_ADDRESS) this.#closeOldest(own)
    else if (this.#waiting.size >= MAX_PENDING_HELLOS) this.#closeOldest(this.#fullest())
    const timer = setTimeout(() => {
      this.delete(session)
      if (!session.desktopId) session.close(CLOSE.AUTH_FAILED, 'no hello received')
    }, this.helloTimeoutMs)
    timer.unref()
    this.#waiting.set(session, { key, timer })
    const set = this.#byKey.get(key) ?? new Set()
    set.add(session)
    this.#byKey.set(key, set)
  }

  /** The socket said hello, or closed. */
  delete(session: AgentSession): void {
    const waiting = this.#waiting.get(session)
    if (!waiting) return
    clearTimeout(waiting.timer)
    this.#waiting.delete(session)
    const set = this.#byKey.get(waiting.key)
    set?.delete(session)
    if (set?.size === 0) this.#byKey.delete(waiting.key)
  }

  stop(): void {
    clearTimeout(this.#logWindow)
    this.#logWindow = undefined
    for (const session of [...this.#waiting.keys()]) this.delete(session)
  }

  /** The sockets of the address holding the most (Sets keep insertion order: oldest first). */
  #fullest(): Set<AgentSession> {
    let fullest = new Set<AgentSession>()
    for (const set of this.#byKey.values()) if (set.size > fullest.size) fullest = set
    return fullest
  }

  #closeOldest(set: Set<AgentSession>): void {
    const oldest = set.values().next().value
    if (!oldest) return
    this.delete(oldest)
    oldest.close(1013, 'too many connections waiting to authenticate; try again later')
    this.#noteClosedByCap()
  }

  /**
   * The first socket closed after a quiet interval is logged at once; the ones after it are counted
   * and logged as one line at the end of each interval, so a client re-opening sockets in a loop
   * cannot fill the log.
   */
  #noteClosedByCap(): void {
    if (this.#logWindow) {
      this.#closedByCap++
      return
    }
    this.log.warn(
      { closed: 1, pending: this.#waiting.size },
      'agent socket closed: too many sockets waiting for their hello from one address or in all',
    )
    this.#openLogWindow()
  }

  #openLogWindow(): void {
    this.#logWindow = setTimeout(() => {
      this.#logWindow = undefined
      const closed = this.#closedByCap
      if (!closed) return
      this.#closedByCap = 0
      this.log.warn(
        { closed, pending: this.#waiting.size, intervalMs: CAP_LOG_INTERVAL_MS },
        'agent sockets closed: too many sockets waiting for their hello from one address or in all',
      )
      this.#openLogWindow()
    }, CAP_LOG_INTERVAL_MS)
    this.#logWindow.unref()
  }
}

/**
 * Who counts as one client: an IPv4 address (also when mapped into IPv6), or an IPv6 /64, the
 * block one subscriber usually holds whole. An address ipaddr.js cannot read is its own client.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, '')
  if (!ipaddr.isValid(bare)) return bare.toLowerCase()
  const parsed = ipaddr.process(bare)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}

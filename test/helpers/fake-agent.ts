import type { AgentMessage, ServerMessage } from '../../src/protocol/messages.ts'
import { AGENT_CLAIM_HEADER, PROTOCOL_VERSION } from '../../src/protocol/messages.ts'

/**
 * A WebSocket client speaking the agent protocol by hand, for what a real agent never does on
 * purpose (wrong versions, stale leases, going silent). Real agents are tested as processes.
 */
export class FakeAgent {
  readonly received: ServerMessage[] = []
  closed?: { code: number; reason: string }
  #ws: WebSocket
  #waiters: { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = []
  #closeWaiters: ((c: { code: number; reason: string }) => void)[] = []
  readonly opened: Promise<void>
  /** Called for every message after it is recorded. */
  onMessage?: (msg: ServerMessage) => void

  /** `claim`: the credential named on the upgrade, as a real agent holding one does (AGENT_CLAIM_HEADER). */
  constructor(serverUrl: string, claim?: { desktopId: string; secret: string }) {
    const url = `${serverUrl.replace(/^http/, 'ws')}/_agent/ws`
    this.#ws = claim
      ? new WebSocket(url, {
          headers: { [AGENT_CLAIM_HEADER]: `${claim.desktopId} ${claim.secret}` },
        } as unknown as string[])
      : new WebSocket(url)
    this.opened = new Promise((resolve) => {
      this.#ws.onopen = () => resolve()
    })
    this.#ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data)) as ServerMessage
      this.received.push(msg)
      this.onMessage?.(msg)
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.match(msg)) return true
        w.resolve(msg)
        return false
      })
    }
    this.#ws.onclose = (e) => {
      this.closed = { code: e.code, reason: e.reason }
      for (const w of this.#closeWaiters) w(this.closed)
    }
  }

  send(msg: AgentMessage | Record<string, unknown>): void {
    this.#ws.send(JSON.stringify(msg))
  }

  hello(
    auth: AgentMessage extends infer _ ? Record<string, unknown> : never,
    extra: Record<string, unknown> = {},
  ): void {
    this.send({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      agentVersion: 'test',
      name: 'fake',
      platform: 'linux',
      driver: 'browser',
      auth,
      ...extra,
    })
  }

  next<T extends ServerMessage['type']>(type: T): Promise<Extract<ServerMessage, { type: T }>> {
    const seen = this.received.find((m) => m.type === type)
    if (seen) return Promise.resolve(seen as Extract<ServerMessage, { type: T }>)
    return new Promise((resolve) =>
      this.#waiters.push({ match: (m) => m.type === type, resolve: resolve as (m: ServerMessage) => void }),
    )
  }

  whenClosed(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed)
    return new Promise((resolve) => this.#closeWaiters.push(resolve))
  }

  close(): void {
    this.#ws.close()
  }
}

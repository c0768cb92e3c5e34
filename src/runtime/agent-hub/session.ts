import type { RpcMethod, ServerMessage } from '../../protocol/messages.ts'

/** The part of a server WebSocket the hub uses (Bun's ServerWebSocket, or a fake in unit tests). */
export interface AgentSocket {
  send(data: string | Uint8Array): unknown
  close(code?: number, reason?: string): unknown
  /** The client's address (Bun's ServerWebSocket has it; a fake may not). */
  readonly remoteAddress?: string
}

export interface PendingRpc {
  method: RpcMethod
  resolve(value: unknown): void
  reject(err: Error): void
  timer: ReturnType<typeof setTimeout>
}

/** One agent connection. `desktopId` is set once its hello authenticated it. */
export class AgentSession {
  desktopId?: string
  name?: string
  lastSeen = Date.now()
  busyRunId?: string
  /** A build holds the desktop (exploring it); live runs wait until it is released. */
  reservedBy?: string
  closed = false
  readonly rpcs = new Map<string, PendingRpc>()
  /** Signs the runs sent over this connection (run-signature.ts); set with the hello. */
  runKey?: Buffer

  constructor(readonly socket: AgentSocket) {}

  send(message: ServerMessage): void {
    if (!this.closed) this.socket.send(JSON.stringify(message))
  }

  close(code: number, reason: string): void {
    if (this.closed) return
    this.closed = true
    this.socket.close(code, reason)
  }
}

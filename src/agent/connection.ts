import type { Logger } from '../lib/logger.ts'
import {
  type AgentMessage,
  decodeMessage,
  FATAL_CLOSE_CODES,
  type Hello,
  PROTOCOL_VERSION,
  ServerMessage,
  type Welcome,
} from '../protocol/messages.ts'
import { backoffDelay } from './backoff.ts'

export interface ConnectionOptions {
  /** The server's base URL (http or https); the socket is at /_agent/ws. */
  server: string
  hello: () => Hello
  onWelcome: (welcome: Welcome) => void
  onMessage: (message: Exclude<ServerMessage, Welcome>) => void
  /** A close after which reconnecting cannot help (revoked, bad token, protocol mismatch). */
  onFatal: (code: number, reason: string) => void
  log: Logger
  backoffBaseMs?: number
  backoffCapMs?: number
}

export function socketUrl(server: string): string {
  const url = new URL('/_agent/ws', server)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.toString()
}

/**
 * One outbound WebSocket to the server, kept up for as long as the agent runs: reconnects with
 * jittered exponential backoff, sends heartbeats at the server's interval, and treats three
 * unanswered heartbeats as a dead link.
 */
export class AgentConnection {
  #ws?: WebSocket
  #attempt = 0
  #stopped = false
  #welcomed = false
  #heartbeat?: ReturnType<typeof setInterval>
  #lastHeard = 0
  #retry?: ReturnType<typeof setTimeout>
  busyRunId?: string

  constructor(private readonly opts: ConnectionOptions) {}

  get connected(): boolean {
    return this.#welcomed && this.#ws?.readyState === WebSocket.OPEN
  }

  start(): void {
    this.#stopped = false
    this.#connect()
  }

  send(message: AgentMessage): boolean {
    if (!this.connected) return false
    this.#ws!.send(JSON.stringify(message))
    return true
  }

  sendBinary(data: Uint8Array): boolean {
    if (!this.connected) return false
    this.#ws!.send(data)
    return true
  }

  stop(): void {
    this.#stopped = true
    clearTimeout(this.#retry)
    clearInterval(this.#heartbeat)
    this.#ws?.close(1000, 'agent stopping')
  }

  #connect(): void {
    const url = socketUrl(this.opts.server)
    const ws = new WebSocket(url)
    ws.binaryType = 'arraybuffer'
    this.#ws = ws
    this.#welcomed = false
    ws.onopen = () => {
      this.opts.log.debug({ url }, 'connected; saying hello')
      ws.send(JSON.stringify(this.opts.hello()))
    }
    ws.onmessage = (event) => {
      this.#lastHeard = Date.now()
      if (typeof event.data !== 'string') return
      const decoded = decodeMessage(ServerMessage, event.data)
      if (!decoded.ok)
        return this.opts.log.warn({ error: decoded.error }, 'ignoring an invalid server message')
      const msg = decoded.message
      if (msg.type === 'welcome') {
        if (msg.protocol !== PROTOCOL_VERSION) {
          ws.close(1000, 'protocol mismatch')
          return this.opts.onFatal(
            4000,
            `server speaks protocol ${msg.protocol}, this agent ${PROTOCOL_VERSION}`,
          )
        }
        this.#welcomed = true
        this.#attempt = 0
        this.#startHeartbeat(msg.heartbeatIntervalMs)
        return this.opts.onWelcome(msg)
      }
      if (msg.type !== 'heartbeat.ack') this.opts.onMessage(msg)
    }
    ws.onerror = () => {
      // onclose follows with the code; nothing to do twice.
    }
    ws.onclose = (event) => {
      clearInterval(this.#heartbeat)
      if (this.#ws !== ws) return
      this.#welcomed = false
      if (this.#stopped) return
      if (FATAL_CLOSE_CODES.includes(event.code)) return this.opts.onFatal(event.code, event.reason)
      const delay = backoffDelay(
        this.#attempt++,
        this.opts.backoffBaseMs ?? 500,
        this.opts.backoffCapMs ?? 30_000,
      )
      this.opts.log.info(
        { code: event.code, reason: event.reason, retryInMs: delay },
        'disconnected from the server',
      )
      this.#retry = setTimeout(() => this.#connect(), delay)
    }
  }

  #startHeartbeat(intervalMs: number): void {
    clearInterval(this.#heartbeat)
    this.#lastHeard = Date.now()
    this.#heartbeat = setInterval(() => {
      if (Date.now() - this.#lastHeard > intervalMs * 3) {
        this.opts.log.warn('no answer from the server for three heartbeats; reconnecting')
        return this.#ws?.close(4008, 'heartbeat unanswered')
      }
      this.send({ type: 'heartbeat', ...(this.busyRunId ? { busyRunId: this.busyRunId } : {}) })
    }, intervalMs)
  }
}

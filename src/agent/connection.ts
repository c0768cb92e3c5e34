import type { Logger } from '../lib/logger.ts'
import type { DesktopState } from '../protocol/driver.ts'
import {
  AGENT_CLAIM_HEADER,
  type AgentMessage,
  decodeMessage,
  FATAL_CLOSE_CODES,
  type Hello,
  PROTOCOL_VERSION,
  ServerMessage,
  type Welcome,
} from '../protocol/messages.ts'
import { backoffDelay } from './backoff.ts'
import { checkPinnedCertificate, type PinSource, pinMismatch } from './server-certificate.ts'

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
  /**
   * SHA-256 (hex) of the certificate an https server's chain must hold, from the enrollment token
   * or the saved credential: that certificate is then the only root the socket trusts.
   */
  pin?: string
  /** Where the pin comes from now (the refusal says so): the token, the credential or the flag. */
  pinFrom?: () => PinSource
  /** The server is not the one this agent trusts: nothing was sent and reconnecting cannot help. */
  onRefused: (reason: string) => void
}

/** Handshake failures of the certificate's host names: the agent uses a name the server lacks. */
const NAME_MISMATCH = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH'])
/** Bun's WebSocket, whose options (TLS among them) the DOM typings of the constructor hide. */
const BunWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket

/** Error codes of a certificate the handshake refused (not of a network that failed). */
const TLS_FAILURE = /CERT|SELF_SIGNED|UNABLE_TO|ALTNAME|HOSTNAME|_TLS_|SSL/

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
  /** The pinned certificate as the server presents it (PEM), once found. */
  #trusted?: string
  #warnedPlain = false
  #everWelcomed = false
  busyRunId?: string
  /** Whether the desktop can be reached, told at every heartbeat (absent: the driver cannot tell). */
  session?: DesktopState

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
    void this.#open().catch((err: Error) => {
      this.opts.log.error({ err }, 'could not open the connection')
      this.#retryLater({ error: err.message })
    })
  }

  async #open(): Promise<void> {
    const url = socketUrl(this.opts.server)
    const tls = url.startsWith('wss:') ? await this.#tlsOptions(url) : this.#warnPlain(url)
    if (tls === null || this.#stopped) return
    // An agent with a credential names it on the upgrade too (messages.ts AGENT_CLAIM_HEADER).
    const { auth } = this.opts.hello()
    const headers: Record<string, string> =
      auth.kind === 'credential' ? { [AGENT_CLAIM_HEADER]: `${auth.desktopId} ${auth.secret}` } : {}
    const ws = new BunWebSocket(url, { headers, ...(tls ? { tls } : {}) })
    ws.binaryType = 'arraybuffer'
    this.#ws = ws
    this.#welcomed = false
    let tlsFailure: string | undefined
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
        this.#everWelcomed = true
        this.#attempt = 0
        this.#startHeartbeat(msg.heartbeatIntervalMs)
        return this.opts.onWelcome(msg)
      }
      if (msg.type !== 'heartbeat.ack') this.opts.onMessage(msg)
    }
    ws.onerror = (event) => {
      // onclose follows with the code; a failed TLS handshake says why only here.
      const code = (event as ErrorEvent).error?.code
      if (typeof code === 'string' && TLS_FAILURE.test(code)) tlsFailure = code
    }
    ws.onclose = (event) => {
      clearInterval(this.#heartbeat)
      if (this.#ws !== ws) return
      this.#welcomed = false
      if (this.#stopped) return
      if (FATAL_CLOSE_CODES.includes(event.code)) return this.opts.onFatal(event.code, event.reason)
      if (tlsFailure && this.#refuseOnTlsFailure(url, tlsFailure)) return
      this.#retryLater({ code: event.code, reason: event.reason, ...(tlsFailure && { tls: tlsFailure }) })
    }
  }

  /**
   * The socket's TLS options: with a pin, the pinned certificate as the only root (found in the
   * chain the server presents first); without one, the trusted roots as for any https site.
   * Null: the server was refused, or cannot be reached for now (a retry is scheduled).
   */
  async #tlsOptions(url: string): Promise<{ ca: string; rejectUnauthorized: true } | undefined | null> {
    const pin = this.opts.pin
    if (!pin) return undefined
    if (!this.#trusted) {
      let check: Awaited<ReturnType<typeof checkPinnedCertificate>>
      try {
        check = await checkPinnedCertificate(new URL(url), pin)
      } catch (err) {
        this.#retryLater({ error: (err as Error).message })
        return null
      }
      if (!check.ok) {
        this.opts.onRefused(pinMismatch(check.presented, pin, this.opts.pinFrom?.() ?? 'token'))
        return null
      }
      this.#trusted = check.pem
    }
    return { ca: this.#trusted, rejectUnauthorized: true }
  }

  #warnPlain(url: string): undefined {
    if (!this.#warnedPlain)
      this.opts.log.warn(
        { url },
        'the connection to the server is not encrypted (http): the desktop credential and run data cross ' +
          'the network readable by anyone on it. Use it only on a trusted LAN; otherwise serve with ' +
          '`deskhook serve --tls auto` and enroll with the token it prints',
      )
    this.#warnedPlain = true
    return undefined
  }

  /** True when the failed handshake ends the agent; else the next attempt checks afresh. */
  #refuseOnTlsFailure(url: string, code: string): boolean {
    const nameMismatch = NAME_MISMATCH.has(code)
    if (this.opts.pin && !nameMismatch) {
      // The pinned root does not verify the server (any more): look again at what it presents.
      this.#trusted = undefined
      this.opts.log.warn(
        { code },
        "the server's chain did not verify against the pinned certificate; checking what it presents",
      )
      return false
    }
    const host = new URL(url).hostname
    const why = nameMismatch
      ? `the server's certificate is not made out to ${host} (${code}): connect with a name or address it holds ` +
        "(with --tls auto: the host of --public-url, the server's host name or one of its LAN addresses)"
      : `the server's certificate is not trusted (${code}): enroll with a token from \`deskhook desktops token\`, ` +
        'which carries its fingerprint'
    // Once this agent has been online, the server may well come back right: keep trying, loudly.
    if (this.#everWelcomed) {
      this.opts.log.error({ code }, why)
      return false
    }
    this.opts.onRefused(why)
    return true
  }

  #retryLater(detail: Record<string, unknown>): void {
    if (this.#stopped) return
    const delay = backoffDelay(
      this.#attempt++,
      this.opts.backoffBaseMs ?? 500,
      this.opts.backoffCapMs ?? 30_000,
    )
    this.opts.log.info({ ...detail, retryInMs: delay }, 'disconnected from the server')
    this.#retry = setTimeout(() => this.#connect(), delay)
  }

  #startHeartbeat(intervalMs: number): void {
    clearInterval(this.#heartbeat)
    this.#lastHeard = Date.now()
    this.#heartbeat = setInterval(() => {
      if (Date.now() - this.#lastHeard > intervalMs * 3) {
        this.opts.log.warn('no answer from the server for three heartbeats; reconnecting')
        return this.#ws?.close(4008, 'heartbeat unanswered')
      }
      this.heartbeat()
    }, intervalMs)
  }

  /** Tells the server the agent's state now (also between the timed heartbeats: a session just locked). */
  heartbeat(): void {
    this.send({
      type: 'heartbeat',
      ...(this.busyRunId ? { busyRunId: this.busyRunId } : {}),
      ...(this.session ? { session: this.session } : {}),
    })
  }
}

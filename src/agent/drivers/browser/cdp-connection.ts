// A thin, typed Chrome DevTools protocol client over Bun's native WebSocket. One socket carries
// the browser session and every page session ("flatten" mode), so no per-tab sockets are opened.
// playwright-core was the first choice but cannot run from a `bun build --compile` binary (it
// require()s its own package files from node_modules at run time), and the agent ships compiled.
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping.js'
import { DriverError } from '../../../protocol/driver.ts'

type Commands = ProtocolMapping.Commands
type Events = ProtocolMapping.Events
export type CommandName = keyof Commands
export type EventName = keyof Events
export type CommandParams<M extends CommandName> = Commands[M]['paramsType'] extends [infer P]
  ? P
  : Commands[M]['paramsType'] extends [(infer P)?]
    ? P | undefined
    : undefined
export type CommandResult<M extends CommandName> = Commands[M]['returnType']
export type EventParams<E extends EventName> = Events[E] extends [infer P] ? P : undefined

interface Pending {
  method: string
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  timer: ReturnType<typeof setTimeout>
}

interface IncomingMessage {
  id?: number
  method?: string
  params?: unknown
  result?: unknown
  error?: { code: number; message: string; data?: string }
  sessionId?: string
}

export interface SendOptions {
  sessionId?: string
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 30_000

export class CdpConnection {
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly listeners = new Map<string, Set<(params: unknown, sessionId?: string) => void>>()
  private readonly closeListeners = new Set<() => void>()
  private closed = false

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => this.onMessage(event.data))
    socket.addEventListener('close', () => this.handleClose())
    socket.addEventListener('error', () => this.handleClose())
  }

  static connect(wsUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl)
      const timer = setTimeout(() => {
        socket.close()
        reject(new DriverError('TIMEOUT', `No DevTools connection to ${wsUrl} within ${timeoutMs} ms`))
      }, timeoutMs)
      socket.addEventListener('open', () => {
        clearTimeout(timer)
        resolve(new CdpConnection(socket))
      })
      socket.addEventListener('error', () => {
        clearTimeout(timer)
        reject(new DriverError('DISCONNECTED', `Cannot connect to DevTools at ${wsUrl}`))
      })
    })
  }

  get isClosed(): boolean {
    return this.closed
  }

  send<M extends CommandName>(
    method: M,
    params?: CommandParams<M>,
    options: SendOptions = {},
  ): Promise<CommandResult<M>> {
    if (this.closed)
      return Promise.reject(new DriverError('DISCONNECTED', `DevTools connection closed (${method})`))
    const id = this.nextId++
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    return new Promise<CommandResult<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new DriverError('TIMEOUT', `${method} got no answer within ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject, timer })
      this.socket.send(JSON.stringify({ id, method, params: params ?? {}, sessionId: options.sessionId }))
    })
  }

  /** Subscribes to an event; with sessionId, only that session's. Returns the unsubscribe function. */
  on<E extends EventName>(
    event: E,
    handler: (params: EventParams<E>, sessionId?: string) => void,
    sessionId?: string,
  ): () => void {
    const wrapped = (params: unknown, from?: string) => {
      if (sessionId === undefined || from === sessionId) handler(params as EventParams<E>, from)
    }
    let set = this.listeners.get(event)
    if (!set) {
      set = new Set()
      this.listeners.set(event, set)
    }
    set.add(wrapped)
    return () => set.delete(wrapped)
  }

  /** Runs once the socket is gone (browser exited or crashed); immediately if it already is. */
  onClosed(listener: () => void): void {
    if (this.closed) listener()
    else this.closeListeners.add(listener)
  }

  close(): void {
    this.socket.close()
    this.handleClose()
  }

  private handleClose(): void {
    if (this.closed) return
    this.closed = true
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer)
      pending.reject(new DriverError('DISCONNECTED', `DevTools connection closed during ${pending.method}`))
      this.pending.delete(id)
    }
    for (const close of this.closeListeners) close()
    this.closeListeners.clear()
  }

  private onMessage(data: unknown): void {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer)
    const message = JSON.parse(text) as IncomingMessage
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id)
      if (!pending) return
      this.pending.delete(message.id)
      clearTimeout(pending.timer)
      if (message.error) {
        const detail = message.error.data ? ` (${message.error.data})` : ''
        pending.reject(new CdpProtocolError(pending.method, `${message.error.message}${detail}`))
      } else {
        pending.resolve(message.result)
      }
      return
    }
    if (message.method) {
      for (const listener of this.listeners.get(message.method) ?? [])
        listener(message.params, message.sessionId)
    }
  }
}

/** The browser rejected a command (unknown node, navigation raced the call, …). */
export class CdpProtocolError extends DriverError {
  constructor(
    readonly method: string,
    detail: string,
  ) {
    super('PROTOCOL_ERROR', `${method}: ${detail}`)
  }
}

/** A page session's view of the connection: every command and event is scoped to one target. */
export class CdpSession {
  constructor(
    readonly connection: CdpConnection,
    readonly sessionId: string,
  ) {}

  send<M extends CommandName>(
    method: M,
    params?: CommandParams<M>,
    timeoutMs?: number,
  ): Promise<CommandResult<M>> {
    return this.connection.send(method, params, { sessionId: this.sessionId, timeoutMs })
  }

  on<E extends EventName>(event: E, handler: (params: EventParams<E>) => void): () => void {
    return this.connection.on(event, (params) => handler(params), this.sessionId)
  }
}

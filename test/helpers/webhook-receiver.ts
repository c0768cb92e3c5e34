import type { Socket, TCPSocketListener } from 'bun'

export interface ReceivedRequest {
  path: string
  headers: Record<string, string>
  body: string
  /** ms since the epoch when the request arrived. */
  at: number
}

type Respond = (req: ReceivedRequest, n: number) => Response | Promise<Response>

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string
  port: number
  requests: ReceivedRequest[]
  /** How the next requests are answered; `n` counts from 1. Change it at any time. */
  respond: Respond
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  received(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>
  stop(): Promise<void>
}

/** A never-settling answer: the receiver accepts the request and stays silent. */
export const hang = (): Promise<Response> => new Promise<Response>(() => {})

/** A real HTTP callback receiver on loopback (the tests allow-list 127.0.0.1/32 to reach it). */
export function startReceiver(respond: Respond = () => new Response('ok')): Receiver {
  const waiters: { count: number; resolve: () => void }[] = []
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    respond,
    received(count, timeoutMs = 5000) {
      if (receiver.requests.length >= count) return Promise.resolve(receiver.requests)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `expected ${count} request(s) within ${timeoutMs} ms, got ${receiver.requests.length}`,
              ),
            ),
          timeoutMs,
        )
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer)
            resolve(receiver.requests)
          },
        })
      })
    },
    async stop() {
      await server.stop(true)
    },
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const entry: ReceivedRequest = {
        path: new URL(req.url).pathname + new URL(req.url).search,
        headers: req.headers.toJSON(),
        body: await req.text(),
        at: Date.now(),
      }
      receiver.requests.push(entry)
      for (const w of waiters.filter((x) => receiver.requests.length >= x.count)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
      return receiver.respond(entry, receiver.requests.length)
    },
  })
  receiver.port = server.port!
  receiver.url = `http://127.0.0.1:${server.port}`
  return receiver
}

export interface Canary {
  port: number
  /** TCP connections accepted so far, on any of its addresses. */
  connections(): number
  stop(): void
}

/**
 * A bare TCP listener on 127.0.0.1 and, where the host has IPv6, on ::1 (same port): it counts
 * connections and never answers. SSRF tests aim refused URLs at it and expect zero connections.
 */
export function startCanary(): Canary {
  let opened = 0
  const socket = { open: (_s: Socket) => void opened++, data() {} }
  const listeners: TCPSocketListener[] = [Bun.listen({ hostname: '127.0.0.1', port: 0, socket })]
  const port = listeners[0]!.port
  try {
    listeners.push(Bun.listen({ hostname: '::1', port, socket }))
  } catch {
    // No IPv6 loopback here: the [::1] cases are still refused before any connect is tried.
  }
  return {
    port,
    connections: () => opened,
    stop: () => {
      for (const l of listeners) l.stop(true)
    },
  }
}

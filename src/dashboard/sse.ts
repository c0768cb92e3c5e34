import type { AppContext } from '../context.ts'
import { type SessionWatch, watchSession } from '../modules/users/session-watch.ts'
import { securityHeaders } from './http.ts'

/** Proxies and browsers drop an event stream that stays silent too long. */
export const HEARTBEAT_MS = 15_000

export interface EventSink {
  /** Sends one event (`event:` omitted for the default `message` type). */
  send(data: string, event?: string): void
  /** Ends the response (the page's EventSource decides whether to come back). */
  end(): void
}

const encoder = new TextEncoder()

/**
 * A server-sent-events response for a dashboard island. `open` starts sending and returns what
 * undoes it; that runs exactly once, whichever comes first: the client leaving (`signal`), the
 * stream being cancelled or failing to write, `end()`, or the server starting to stop
 * (`ctx.stopping`, so an open page never holds up a shutdown), or the person's session ending
 * (`sessionId`: signed out, removed, a new password, expired; see session-watch.ts). A comment
 * heartbeat keeps proxies from closing a quiet stream.
 */
export function eventStream(
  ctx: AppContext,
  signal: AbortSignal,
  open: (sink: EventSink) => () => void,
  opts: { heartbeatMs?: number; sessionId?: string } = {},
): Response {
  let stop = () => {}
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false
      let undo: (() => void) | undefined
      let session: SessionWatch | undefined
      const write = (text: string) => {
        if (ended) return
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          stop()
        }
      }
      const ping = setInterval(() => {
        session?.check()
        write(': keep-alive\n\n')
      }, opts.heartbeatMs ?? HEARTBEAT_MS)
      const end = () => {
        stop()
        try {
          controller.close()
        } catch {
          // Already closed by the client.
        }
      }
      stop = () => {
        if (ended) return
        ended = true
        clearInterval(ping)
        session?.stop()
        undo?.()
        signal.removeEventListener('abort', stop)
        ctx.stopping.removeEventListener('abort', end)
      }
      signal.addEventListener('abort', stop)
      ctx.stopping.addEventListener('abort', end)
      if (opts.sessionId) session = watchSession(ctx, opts.sessionId, end)
      write('retry: 3000\n\n')
      const sink: EventSink = {
        send: (data, event) => write(`${event ? `event: ${event}\n` : ''}data: ${data}\n\n`),
        end,
      }
      undo = open(sink)
      if (ended) undo()
      else if (signal.aborted) stop()
      else if (ctx.stopping.aborted) end()
    },
    cancel() {
      stop()
    },
  })
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      ...securityHeaders(),
    },
  })
}

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { AGENT_SOCKET_PATH } from '../../http/public-paths.ts'
import { AGENT_CLAIM_HEADER } from '../../protocol/messages.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import type { AgentSession } from '../../runtime/agent-hub/session.ts'
import { listDesktops } from './service.ts'

/** The largest frame an agent may send (an element tree of a big page, a step's screenshot). */
export const MAX_AGENT_FRAME = 8 * 1024 * 1024

/** The agents' WebSocket, and the keyed list of desktops. */
export const desktopsRoutes = (ctx: AppContext, hub: AgentHub) => {
  const sessions = new WeakMap<object, AgentSession>()
  return new Elysia({ name: 'routes.desktops' })
    .get('/_desktops', () => ({ desktops: listDesktops(ctx) }))
    .ws(AGENT_SOCKET_PATH, {
      // Element trees of big pages and step screenshots are large; a larger frame closes the
      // socket (1009) before it is buffered. Before hello, a frame must be a small hello (hub).
      maxPayloadLength: MAX_AGENT_FRAME,
      open(ws) {
        // The header is only a hint where the socket waits for its hello (pending-hellos.ts).
        sessions.set(ws.raw, hub.open(ws.raw, ws.data.request?.headers.get(AGENT_CLAIM_HEADER)))
      },
      message(ws, message) {
        const session = sessions.get(ws.raw)
        if (!session) return
        // Elysia hands over frames already parsed; their size matters only before hello.
        const size = session.desktopId
          ? 0
          : typeof message === 'string'
            ? message.length
            : message instanceof Uint8Array || message instanceof ArrayBuffer
              ? message.byteLength
              : (JSON.stringify(message)?.length ?? 0)
        hub.message(session, message, size)
      },
      close(ws, code, reason) {
        const session = sessions.get(ws.raw)
        if (session) hub.close(session, code, reason)
      },
    })
}

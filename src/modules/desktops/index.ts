import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { AGENT_SOCKET_PATH } from '../../http/public-paths.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import type { AgentSession } from '../../runtime/agent-hub/session.ts'
import { listDesktops } from './service.ts'

/** The agents' WebSocket, and the keyed list of desktops. */
export const desktopsRoutes = (ctx: AppContext, hub: AgentHub) => {
  const sessions = new WeakMap<object, AgentSession>()
  return new Elysia({ name: 'routes.desktops' })
    .get('/_desktops', () => ({ desktops: listDesktops(ctx) }))
    .ws(AGENT_SOCKET_PATH, {
      // Previews and step screenshots are large; keep well above a JPEG of a full-HD window.
      maxPayloadLength: 16 * 1024 * 1024,
      open(ws) {
        sessions.set(ws.raw, hub.open(ws.raw))
      },
      message(ws, message) {
        const session = sessions.get(ws.raw)
        if (session) hub.message(session, message)
      },
      close(ws, code, reason) {
        const session = sessions.get(ws.raw)
        if (session) hub.close(session, code, reason)
      },
    })
}

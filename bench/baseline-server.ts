/**
 * Child process: the baselines. POST: `await req.json()` and a small JSON answer (the ceiling for
 * (a)); GET /ws: a WebSocket echo (the transport floor for (b) and (c)).
 */
import type { BaselineReady } from './server-process.ts'

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req, srv) {
    if (req.method === 'GET') {
      return srv.upgrade(req, { data: undefined })
        ? undefined
        : new Response('expected a WebSocket', { status: 400 })
    }
    const body = (await req.json()) as Record<string, unknown>
    return Response.json({ ok: true, fields: Object.keys(body).length })
  },
  websocket: {
    message(ws, message) {
      ws.send(message)
    },
  },
})

const ready: BaselineReady = { kind: 'baseline', url: `http://127.0.0.1:${server.port}` }
process.send?.(ready)

process.once('SIGTERM', async () => {
  await server.stop(true)
  process.exit(0)
})
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) process.exit(1)
}, 1000).unref()

import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { getBuild, toBuildView } from '../../modules/builds/service.ts'
import { securityHeaders } from '../http.ts'
import { FINISHED } from './build-data.ts'

/** Proxies and browsers drop an event stream that stays silent too long. */
export const HEARTBEAT_MS = 15_000

const encoder = new TextEncoder()

/**
 * A build's live view as server-sent events: `build` (the build's view, as `GET /_builds/<id>`
 * answers it) now and whenever it changes, until the build has finished; `gone` when its job or
 * sample was deleted. Changes made here arrive as `build.changed`; those the CLI commits arrive as
 * `db.external-change`, and a deleted job as `jobs.changed`: each makes one re-read (several in
 * one tick, one read), and only a view that differs from the last one sent is sent. The stream
 * ends when the server starts to stop (`ctx.stopping`).
 */
export function buildEventStream(
  ctx: AppContext,
  buildId: string,
  signal: AbortSignal,
  opts: { heartbeatMs?: number } = {},
): Response {
  const jobId = getBuild(ctx, buildId).jobId
  let stop = () => {}
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = ''
      let pending = false
      let ended = false
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          stop()
        }
      }
      const end = () => {
        stop()
        try {
          controller.close()
        } catch {
          // Already closed by the client.
        }
      }
      const push = () => {
        pending = false
        if (ended) return
        let view: ReturnType<typeof toBuildView>
        try {
          view = toBuildView(getBuild(ctx, buildId))
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'BUILD_NOT_FOUND')) throw err
          send('event: gone\ndata: {}\n\n')
          return end()
        }
        const json = JSON.stringify(view)
        if (json !== last) {
          last = json
          send(`event: build\ndata: ${json}\n\n`)
        }
        if (FINISHED.has(view.status)) end()
      }
      const soon = () => {
        if (pending || ended) return
        pending = true
        // After the writer's transaction (and anything else it changes in this tick) is done.
        queueMicrotask(() => {
          try {
            push()
          } catch (err) {
            ctx.log.error({ err, buildId }, 'build event stream failed')
            end()
          }
        })
      }
      const onBuild = (id: string) => {
        if (id === buildId) soon()
      }
      const onJob = (id: string) => {
        if (id === jobId) soon()
      }
      ctx.events.on('build.changed', onBuild)
      ctx.events.on('jobs.changed', onJob)
      ctx.events.on('db.external-change', soon)
      const ping = setInterval(() => send(': keep-alive\n\n'), opts.heartbeatMs ?? HEARTBEAT_MS)
      stop = () => {
        if (ended) return
        ended = true
        clearInterval(ping)
        ctx.events.off('build.changed', onBuild)
        ctx.events.off('jobs.changed', onJob)
        ctx.events.off('db.external-change', soon)
        signal.removeEventListener('abort', stop)
        ctx.stopping.removeEventListener('abort', end)
      }
      signal.addEventListener('abort', stop)
      // A stopping server ends the response (the page's EventSource reconnects to the next start).
      ctx.stopping.addEventListener('abort', end)
      send('retry: 3000\n\n')
      push()
      if (signal.aborted) stop()
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

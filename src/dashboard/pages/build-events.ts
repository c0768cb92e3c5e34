import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { getBuild, toBuildView } from '../../modules/builds/service.ts'
import { eventStream } from '../sse.ts'
import { FINISHED } from './build-data.ts'

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
  opts: { heartbeatMs?: number; sessionId?: string } = {},
): Response {
  const jobId = getBuild(ctx, buildId).jobId
  return eventStream(
    ctx,
    signal,
    (sink) => {
      let last = ''
      let pending = false
      let ended = false
      const end = () => {
        ended = true
        sink.end()
      }
      const push = () => {
        pending = false
        if (ended) return
        let view: ReturnType<typeof toBuildView>
        try {
          view = toBuildView(getBuild(ctx, buildId))
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'BUILD_NOT_FOUND')) throw err
          sink.send('{}', 'gone')
          return end()
        }
        const json = JSON.stringify(view)
        if (json !== last) {
          last = json
          sink.send(json, 'build')
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
      push()
      return () => {
        ended = true
        ctx.events.off('build.changed', onBuild)
        ctx.events.off('jobs.changed', onJob)
        ctx.events.off('db.external-change', soon)
      }
    },
    opts,
  )
}

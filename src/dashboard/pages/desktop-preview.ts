import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import { getDesktop } from '../../modules/desktops/service.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { securityHeaders } from '../http.ts'
import { eventStream } from '../sse.ts'

/** A few frames a second: enough to watch a run, little enough for a slow office link. */
export const PREVIEW_INTERVAL_MS = 500

export type PreviewEvent = { type: 'frame'; n: number } | { type: 'online' } | { type: 'offline' }
type Listener = (event: PreviewEvent) => void

type PreviewHub = Pick<AgentHub, 'startPreview' | 'stopPreview' | 'isOnline'>

/**
 * Who watches which desktop's preview. The agent captures frames only while someone watches: the
 * first watcher of a desktop starts its preview, the last one leaving stops it. A desktop that
 * comes (back) online while watched is asked again (a restarted agent forgot).
 */
export class PreviewWatchers {
  #watchers = new Map<string, Set<Listener>>()
  #frames = new Map<string, number>()
  #detach?: () => void

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: PreviewHub,
    private readonly intervalMs = PREVIEW_INTERVAL_MS,
  ) {}

  /** How many watch this desktop now. */
  count(desktopId: string): number {
    return this.#watchers.get(desktopId)?.size ?? 0
  }

  /** The latest frame's number (0: none since the server started). */
  frame(desktopId: string): number {
    return this.#frames.get(desktopId) ?? 0
  }

  /** Starts watching; the returned function stops (idempotent). */
  watch(desktopId: string, listener: Listener): () => void {
    if (this.#watchers.size === 0) this.#attach()
    let set = this.#watchers.get(desktopId)
    if (!set) {
      set = new Set()
      this.#watchers.set(desktopId, set)
    }
    set.add(listener)
    if (set.size === 1) this.#start(desktopId)
    return () => {
      if (!set.delete(listener) || set.size > 0) return
      this.#watchers.delete(desktopId)
      this.hub.stopPreview(desktopId)
      if (this.#watchers.size === 0) this.#detach?.()
    }
  }

  #start(desktopId: string): void {
    if (!this.hub.isOnline(desktopId)) return
    try {
      this.hub.startPreview(desktopId, this.intervalMs)
    } catch (err) {
      // Gone between the check and the send: its next hello starts it again.
      this.ctx.log.debug({ err, desktopId }, 'preview not started')
    }
  }

  #notify(desktopId: string, event: PreviewEvent): void {
    for (const listener of this.#watchers.get(desktopId) ?? []) listener(event)
  }

  /** Listens to the hub's events only while anyone watches anything. */
  #attach(): void {
    const { events } = this.ctx
    const frame = (id: string) => {
      const n = (this.#frames.get(id) ?? 0) + 1
      this.#frames.set(id, n)
      this.#notify(id, { type: 'frame', n })
    }
    const online = (id: string) => {
      if (!this.#watchers.has(id)) return
      this.#start(id)
      this.#notify(id, { type: 'online' })
    }
    const offline = (id: string) => this.#notify(id, { type: 'offline' })
    events.on('desktop.preview', frame)
    events.on('desktop.online', online)
    events.on('desktop.offline', offline)
    this.#detach = () => {
      events.off('desktop.preview', frame)
      events.off('desktop.online', online)
      events.off('desktop.offline', offline)
      this.#detach = undefined
    }
  }
}

/** A desktop anyone signed in may watch: enrolled and not revoked. */
function watchableDesktop(ctx: AppContext, id: string) {
  const desktop = getDesktop(ctx, id)
  if (!desktop || desktop.revokedAt) throw new AppError('NOT_FOUND', 'No such desktop (or it was revoked)')
  return desktop
}

/**
 * The live preview: an event stream that announces each new frame (its number), and the latest
 * frame itself. Members may watch too: the preview shows what runs, which members may start.
 */
export const desktopPreviewRoutes = (
  ctx: AppContext,
  hub: AgentHub,
  watchers = new PreviewWatchers(ctx, hub),
) =>
  new Elysia({ name: 'dashboard.desktop-preview' })
    .get('/_/desktops/:id/preview/events', ({ params, request, server }) => {
      const desktop = watchableDesktop(ctx, params.id)
      // The stream stays open for as long as the page does (and the watcher's session: it ends
      // when they are removed or signed out): exempt it from the idle timeout.
      server?.timeout(request, 0)
      return eventStream(
        ctx,
        request.signal,
        (sink) => {
          const send = (event: PreviewEvent) =>
            event.type === 'frame' ? sink.send(String(event.n)) : sink.send('', event.type)
          if (!hub.isOnline(desktop.id)) send({ type: 'offline' })
          else if (hub.latestPreview(desktop.id))
            // A frame from before this watcher came: show it while the next one is captured.
            send({ type: 'frame', n: watchers.frame(desktop.id) })
          return watchers.watch(desktop.id, send)
        },
        { sessionId: requestState(request).signedIn?.sessionId },
      )
    })
    .get('/_/desktops/:id/preview.jpg', ({ params }) => {
      const desktop = watchableDesktop(ctx, params.id)
      const frame = hub.latestPreview(desktop.id)
      if (!frame) throw new AppError('NOT_FOUND', 'No preview frame from this desktop yet')
      // The frame is a view into the agent's WebSocket message, a plain ArrayBuffer.
      return new Response(frame.jpeg as Uint8Array<ArrayBuffer>, {
        headers: {
          'content-type': 'image/jpeg',
          'cache-control': 'no-store',
          'last-modified': new Date(frame.at).toUTCString(),
          ...securityHeaders(),
        },
      })
    })

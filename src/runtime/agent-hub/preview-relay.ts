import type { AppContext } from '../../context.ts'
import { decodePreviewFrame } from '../../protocol/preview-frame.ts'
import type { AgentSession } from './session.ts'

export interface PreviewFrame {
  windowId: string
  jpeg: Uint8Array
  at: number
}

/**
 * Live previews for the dashboard: asks an agent to stream frames of a window, keeps each
 * desktop's newest frame and tells watchers (`desktop.preview`) when one arrives. Frames are
 * binary messages (preview-frame.ts); only the newest is kept, so a slow watcher skips frames.
 */
export class PreviewRelay {
  #latest = new WeakMap<AgentSession, PreviewFrame>()

  constructor(private readonly ctx: AppContext) {}

  /** A binary frame from an authenticated agent; anything that is not a preview is ignored. */
  receive(session: AgentSession, data: Uint8Array | ArrayBuffer): void {
    const frame = decodePreviewFrame(data instanceof ArrayBuffer ? new Uint8Array(data) : data)
    if (!frame || !session.desktopId) return
    this.#latest.set(session, { ...frame, at: Date.now() })
    this.ctx.events.emit('desktop.preview', session.desktopId)
  }

  start(session: AgentSession, intervalMs: number, windowId?: string): void {
    session.send({ type: 'preview.start', intervalMs, ...(windowId ? { windowId } : {}) })
  }

  stop(session: AgentSession | undefined): void {
    session?.send({ type: 'preview.stop' })
  }

  /** The newest frame of the session (a reconnected agent starts without one). */
  latest(session: AgentSession | undefined): PreviewFrame | undefined {
    return session && this.#latest.get(session)
  }
}

import type { AppContext } from '../../context.ts'

/**
 * What happened to a key, told after it is committed (for the audit log). Never carries the key
 * itself: the id and the display prefix identify it.
 */
export type KeyEvent =
  | { type: 'key.created'; at: string; keyId: string; name: string; prefix: string; actor: string }
  | { type: 'key.revoked'; at: string; keyId: string; name: string; prefix: string; actor: string }
  | {
      type: 'key.rotated'
      at: string
      /** The new key. */
      keyId: string
      name: string
      prefix: string
      actor: string
      /** The key it replaces, which keeps working until `oldExpiresAt`. */
      oldKeyId: string
      oldPrefix: string
      oldExpiresAt: string
    }

export type KeyEventListener = (event: KeyEvent) => void

const listeners = new WeakMap<AppContext, Set<KeyEventListener>>()

/** Subscribes to this context's key events; returns the unsubscribe. Listeners must not throw. */
export function onKeyEvent(ctx: AppContext, listener: KeyEventListener): () => void {
  let set = listeners.get(ctx)
  if (!set) {
    set = new Set()
    listeners.set(ctx, set)
  }
  set.add(listener)
  return () => set.delete(listener)
}

export function emitKeyEvent(ctx: AppContext, event: KeyEvent): void {
  for (const listener of listeners.get(ctx) ?? []) {
    try {
      listener(event)
    } catch (err) {
      // The key change is committed; a failing listener must not turn it into an error.
      ctx.log.error({ err, event: event.type, keyId: event.keyId }, 'key event listener failed')
    }
  }
}

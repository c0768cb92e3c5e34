import { and, eq, gt } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { sessions, users } from '../../db/schema/index.ts'

/**
 * What holds a response open for a person (a dashboard event stream) watches their session, so
 * it ends when the session does (issue 23, N10): signed out, their password reset or the person
 * removed here (`sessionsEnded`), the same by the CLI in another process (`db.external-change`),
 * or expired (the holder calls `check()` now and then, e.g. with its heartbeat).
 */
export interface SessionWatch {
  /** Checks now; calls `onEnd` (once) if the session is gone. */
  check(): void
  stop(): void
}

const watchers = new WeakMap<AppContext, Set<() => void>>()

/** Sessions may have ended in this process: every watcher checks its own. */
export function sessionsEnded(ctx: AppContext): void {
  for (const check of [...(watchers.get(ctx) ?? [])]) check()
}

const following = new WeakSet<AppContext>()

/**
 * The CLI's changes (`users remove`, `users reset-password`) arrive as `db.external-change`: one
 * listener for the whole server makes every watcher check. The dashboard calls this as it is
 * mounted; `watchSession` calls it too, for a stream made without it.
 */
export function followExternalSessionChanges(ctx: AppContext): void {
  if (following.has(ctx)) return
  following.add(ctx)
  ctx.events.on('db.external-change', () => sessionsEnded(ctx))
}

/** Whether the session still exists, belongs to a person, and has not expired. */
export function sessionActive(ctx: AppContext, sessionId: string): boolean {
  return !!ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, ctx.clock.now().toISOString())))
    .get()
}

export function watchSession(ctx: AppContext, sessionId: string, onEnd: () => void): SessionWatch {
  followExternalSessionChanges(ctx)
  const set = watchers.get(ctx) ?? new Set<() => void>()
  watchers.set(ctx, set)
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    set.delete(check)
  }
  function check() {
    if (stopped || sessionActive(ctx, sessionId)) return
    stop()
    onEnd()
  }
  set.add(check)
  return { check, stop }
}

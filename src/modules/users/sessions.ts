import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, gt, lt } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { sessions, users } from '../../db/schema/index.ts'
import { newId } from '../../lib/ids.ts'
import type { UserView } from './service.ts'
import { sessionsEnded } from './session-watch.ts'

export const SESSION_COOKIE = 'dh_session'
/** A session ends after 30 minutes without a visit (RELIABILITY.md: OWASP idle timeout)… */
export const SESSION_IDLE_MS = 30 * 60 * 1000
/** …and 12 hours after sign-in whatever happens (absolute timeout): a new sign-in, a new token. */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000
/** The sliding expiry is written at most once a minute per session, not on every page. */
const TOUCH_EVERY_MS = 60 * 1000

/** When a session seen now expires: idle timeout, never past the absolute one. */
const expiryAt = (createdAt: number, now: number) =>
  new Date(Math.min(now + SESSION_IDLE_MS, createdAt + SESSION_MAX_MS))

export interface SignedIn {
  sessionId: string
  user: UserView
  /** The token forms and fetches send back (`_csrf` field or `x-csrf-token` header). */
  csrf: string
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex')

/** A CSRF token bound to the session: HMAC of the session token, so nothing more is stored. */
export const csrfFor = (token: string) =>
  createHmac('sha256', token).update('deskhook csrf').digest('base64url')

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Starts a session; returns the token for the cookie (never stored). */
export function startSession(ctx: AppContext, userId: string, userAgent: string | null): string {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  const now = ctx.clock.now()
  ctx.db
    .insert(sessions)
    .values({
      id: newId(),
      tokenHash: sha256(token),
      userId,
      createdAt: now.toISOString(),
      expiresAt: expiryAt(now.getTime(), now.getTime()).toISOString(),
      lastSeenAt: now.toISOString(),
      userAgent: userAgent?.slice(0, 300) ?? null,
    })
    .run()
  ctx.db.update(users).set({ lastSignInAt: now.toISOString() }).where(eq(users.id, userId)).run()
  // Expired sessions of anyone are swept when someone signs in: no background task needed.
  ctx.db.delete(sessions).where(lt(sessions.expiresAt, now.toISOString())).run()
  return token
}

/** The person behind a session cookie, or null (unknown, expired, user removed). */
export function readSession(ctx: AppContext, token: string | undefined): SignedIn | null {
  if (!token || token.length > 100) return null
  const now = ctx.clock.now()
  const row = ctx.db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256(token)), gt(sessions.expiresAt, now.toISOString())))
    .get()
  if (!row) return null
  if (now.getTime() - Date.parse(row.session.lastSeenAt) > TOUCH_EVERY_MS)
    ctx.db
      .update(sessions)
      .set({
        lastSeenAt: now.toISOString(),
        expiresAt: expiryAt(Date.parse(row.session.createdAt), now.getTime()).toISOString(),
      })
      .where(eq(sessions.id, row.session.id))
      .run()
  const { passwordHash: _, ...user } = row.user
  return { sessionId: row.session.id, user, csrf: csrfFor(token) }
}

export function endSession(ctx: AppContext, sessionId: string): void {
  ctx.db.delete(sessions).where(eq(sessions.id, sessionId)).run()
  sessionsEnded(ctx)
}

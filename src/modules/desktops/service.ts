import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { preparedFor } from '../../db/prepared.ts'
import { type DesktopStatus, desktops, enrollmentTokens } from '../../db/schema/index.ts'
import { generateSecret, sameHash, hashApiKey as sha256 } from '../../lib/api-key-format.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { pinnedToken, splitEnrollmentToken } from '../../lib/tls-pin.ts'
import { readServedTls } from '../../tls/served-record.ts'
import { agentActor, SYSTEM_ACTOR } from '../audit/actor.ts'
import { recordAudit } from '../audit/record.ts'

export type Desktop = typeof desktops.$inferSelect
export type DesktopView = Omit<Desktop, 'credentialHash'>

export const ENROLLMENT_TOKEN_PREFIX = 'dhe_'
export const DESKTOP_SECRET_PREFIX = 'dhd_'
export const MAX_TOKEN_TTL_MS = 60 * 60 * 1000

export const toDesktopView = ({ credentialHash: _, ...rest }: Desktop): DesktopView => rest

/**
 * A one-time token that lets one new agent enroll; valid for at most an hour. When the server
 * serves TLS the token also carries the SHA-256 of the certificate the agent is to pin
 * (`dhe_<secret>~<fingerprint>`); only the secret is stored (hashed) and checked.
 */
export function createEnrollmentToken(
  ctx: AppContext,
  ttlMs = MAX_TOKEN_TTL_MS,
): { token: string; expiresAt: string; fingerprint: string | null } {
  if (!Number.isInteger(ttlMs) || ttlMs < 1000 || ttlMs > MAX_TOKEN_TTL_MS)
    throw new AppError('INVALID_REQUEST', 'An enrollment token lives between 1 second and 1 hour')
  const secret = generateSecret(ENROLLMENT_TOKEN_PREFIX)
  const now = ctx.clock.now()
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString()
  ctx.db
    .insert(enrollmentTokens)
    .values({ id: newId(), hash: sha256(secret), createdAt: now.toISOString(), expiresAt })
    .run()
  const fingerprint = readServedTls(ctx.config.dataDir)?.fingerprint ?? null
  return { token: pinnedToken(secret, fingerprint), expiresAt, fingerprint }
}

export interface AgentIdentity {
  name: string
  platform: string
  driver: string
  agentVersion: string
}

/** Trades a valid, unused, unexpired token for a new desktop and its credential (shown once). */
export function enrollDesktop(
  ctx: AppContext,
  token: string,
  who: AgentIdentity,
): { desktop: Desktop; secret: string } {
  return ctx.db.transaction(
    (tx) => {
      const now = ctx.clock.now().toISOString()
      const row = tx
        .select()
        .from(enrollmentTokens)
        .where(
          and(
            // An agent that knows no pins sends the whole token: its pin is no part of the secret.
            eq(enrollmentTokens.hash, sha256(splitEnrollmentToken(token).secret)),
            isNull(enrollmentTokens.usedAt),
            gt(enrollmentTokens.expiresAt, now),
          ),
        )
        .get()
      if (!row) throw new AppError('UNAUTHORIZED', 'The enrollment token is unknown, already used or expired')
      const secret = generateSecret(DESKTOP_SECRET_PREFIX)
      const desktop: Desktop = {
        id: newId(),
        name: who.name,
        platform: who.platform,
        driver: who.driver,
        status: 'offline',
        agentVersion: who.agentVersion,
        credentialHash: sha256(secret),
        lastSeenAt: now,
        createdAt: now,
        revokedAt: null,
        sessionState: null,
      }
      tx.insert(desktops).values(desktop).run()
      tx.update(enrollmentTokens)
        .set({ usedAt: now, desktopId: desktop.id })
        .where(eq(enrollmentTokens.id, row.id))
        .run()
      const details = { name: who.name, platform: who.platform, driver: who.driver, enrollment: row.id }
      recordAudit(
        ctx,
        {
          actor: agentActor(desktop),
          action: 'desktop.enrolled',
          target: { kind: 'desktop', id: desktop.id },
          details,
        },
        tx,
      )
      return { desktop, secret }
    },
    { behavior: 'immediate' },
  )
}

const desktopById = preparedFor((db) =>
  db
    .select()
    .from(desktops)
    .where(eq(desktops.id, sql.placeholder('id')))
    .prepare(),
)

export function getDesktop(ctx: AppContext, id: string): Desktop | undefined {
  return desktopById(ctx.db).get({ id })
}

/** The desktop for a saved credential, or null if unknown, wrong or revoked (all alike). */
export function authenticateDesktop(ctx: AppContext, desktopId: string, secret: string): Desktop | null {
  const desktop = getDesktop(ctx, desktopId)
  if (!desktop || desktop.revokedAt) return null
  return sameHash(desktop.credentialHash, sha256(secret)) ? desktop : null
}

export function listDesktops(ctx: AppContext): DesktopView[] {
  return ctx.db.select().from(desktops).orderBy(desktops.createdAt).all().map(toDesktopView)
}

/** Revokes by id or by name (when the name is unambiguous). The hub closes its socket. */
export function revokeDesktop(ctx: AppContext, idOrName: string, actor = SYSTEM_ACTOR): DesktopView {
  const matches = ctx.db
    .select()
    .from(desktops)
    .where(or(eq(desktops.id, idOrName), eq(desktops.name, idOrName)))
    .all()
  if (!matches.length) throw new AppError('NOT_FOUND', `No desktop with id or name ${idOrName}`)
  if (matches.length > 1)
    throw new AppError('INVALID_REQUEST', `Several desktops are named ${idOrName}; use the id`)
  const desktop = matches[0]!
  const revokedAt = desktop.revokedAt ?? ctx.clock.now().toISOString()
  ctx.db.transaction(
    (tx) => {
      tx.update(desktops).set({ revokedAt, status: 'offline' }).where(eq(desktops.id, desktop.id)).run()
      const details = { name: desktop.name, alreadyRevoked: desktop.revokedAt !== null }
      recordAudit(
        ctx,
        { actor, action: 'desktop.revoked', target: { kind: 'desktop', id: desktop.id }, details },
        tx,
      )
    },
    { behavior: 'immediate' },
  )
  ctx.events.emit('desktop.revoked', desktop.id)
  return toDesktopView({ ...desktop, revokedAt, status: 'offline' })
}

/**
 * Status and last-seen are shown, not relied on (the hub's memory is what routes runs), so they
 * ride along with the next durable commit instead of costing one of their own.
 */
export function setDesktopStatus(
  ctx: AppContext,
  id: string,
  status: DesktopStatus,
  extra: Partial<Desktop> = {},
): void {
  const lastSeenAt = ctx.clock.now().toISOString()
  ctx.writes.defer(
    () => {
      ctx.db
        .update(desktops)
        .set({ status, lastSeenAt, ...extra })
        .where(eq(desktops.id, id))
        .run()
    },
    (err) => ctx.log.error({ err, desktopId: id }, 'could not record the desktop status'),
  )
}

/** At start-up no agent is connected yet, whatever the table said when the server stopped. */
export function markAllOffline(ctx: AppContext): void {
  ctx.db.update(desktops).set({ status: 'offline' }).run()
}

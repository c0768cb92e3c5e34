import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { auditLog } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'

export interface AuditRowView {
  id: number
  at: string
  actor: { kind: string; id: string; label: string }
  action: string
  target: { kind: string; id: string }
  details: Record<string, unknown>
}

export interface AuditQuery {
  /** ISO time or date: rows at or after it. */
  since?: string
  /** An exact action (`job.promoted`) or a family (`job`, `key.`). */
  action?: string
  /** Rows with a smaller id (the next, older page). */
  before?: number
  limit?: number
}

export function parseSince(since: string): string {
  const t = Date.parse(since)
  if (Number.isNaN(t))
    throw new AppError(
      'INVALID_REQUEST',
      `--since takes a date or time such as 2026-11-23 or 2026-11-23T10:00Z`,
    )
  return new Date(t).toISOString()
}

/** Newest first. */
export function listAudit(ctx: AppContext, q: AuditQuery = {}): AuditRowView[] {
  const where: SQL[] = []
  if (q.since) where.push(gte(auditLog.at, parseSince(q.since)))
  if (q.action) {
    const family = q.action.replace(/\.$/, '')
    where.push(
      q.action.includes('.') && !q.action.endsWith('.')
        ? eq(auditLog.action, q.action)
        : and(gte(auditLog.action, `${family}.`), lt(auditLog.action, `${family}/`))!,
    )
  }
  if (q.before !== undefined) where.push(lt(auditLog.id, q.before))
  return ctx.db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(Math.min(Math.max(q.limit ?? 50, 1), 1000))
    .all()
    .map((r) => ({
      id: r.id,
      at: r.at,
      actor: { kind: r.actorKind, id: r.actorId, label: r.actorLabel },
      action: r.action,
      target: { kind: r.targetKind, id: r.targetId },
      details: JSON.parse(r.details) as Record<string, unknown>,
    }))
}

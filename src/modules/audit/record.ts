import { createHash } from 'node:crypto'
import stableStringify from 'safe-stable-stringify'
import type { AppContext } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { preparedFor } from '../../db/prepared.ts'
import type { Actor } from './actor.ts'
import { auditAnchor } from './anchor.ts'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export type AuditAction =
  | 'job.promoted'
  | 'job.demoted'
  | 'job.rolled_back'
  | 'job.imported'
  | 'job.removed'
  | 'desktop.enrolled'
  | 'desktop.revoked'
  | 'key.created'
  | 'key.rotated'
  | 'key.revoked'
  | 'user.created'
  | 'user.removed'
  | 'user.password_reset'
  | 'user.role_changed'
  | 'settings.changed'
  | 'recording.started'
  | 'execution.dispatched'
  | 'audit.pruned'

export interface AuditEntry {
  actor: Actor
  action: AuditAction
  target: { kind: string; id: string }
  /** What changed, for people: never a secret, a key or a password (such fields are dropped). */
  details?: Record<string, unknown>
}

/** The first row links to this, so an edit of row 1 breaks the chain like any other. */
export const GENESIS_HASH = '0'.repeat(64)

export interface StoredAuditRow {
  id: number
  at: string
  actorKind: string
  actorId: string
  actorLabel: string
  action: string
  targetKind: string
  targetId: string
  details: string
  hash: string
}

/** SHA-256 over the previous hash and this row's fields, in a fixed order and encoding. */
export function auditHash(prevHash: string, row: Omit<StoredAuditRow, 'hash'>): string {
  const canonical = JSON.stringify([prevHash, ...rowFields(row)])
  return createHash('sha256').update(canonical).digest('hex')
}

/** A row's fields in the order the hash covers them and the insert takes them. */
const rowFields = (row: Omit<StoredAuditRow, 'hash'>) =>
  [
    row.id,
    row.at,
    row.actorKind,
    row.actorId,
    row.actorLabel,
    row.action,
    row.targetKind,
    row.targetId,
    row.details,
  ] as const

const SECRET_FIELD = /pass|secret|token|hash|^key$|credential/i
const SECRET_VALUE = /\b(dh[a-z]?_|whsec_)[A-Za-z0-9+/=_-]{20,}/

/** A safety net under the callers' care: what looks like a secret never reaches the log. */
function scrub(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(details)) {
    if (v === undefined || SECRET_FIELD.test(k)) continue
    if (typeof v === 'string' && SECRET_VALUE.test(v)) continue
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? scrub(v as Record<string, unknown>) : v
  }
  return out
}

// Raw prepared statements: a dispatch pass appends a row per run, so the append must stay cheap.
const lastRow = preparedFor((db) =>
  db.$client.prepare<{ id: number; hash: string }, []>(
    'SELECT id, hash FROM _audit_log ORDER BY id DESC LIMIT 1',
  ),
)
const sequence = preparedFor((db) =>
  db.$client.prepare<{ seq: number }, []>(`SELECT seq FROM sqlite_sequence WHERE name = '_audit_log'`),
)
const insertRow = preparedFor((db) =>
  db.$client.prepare<
    unknown,
    [number, string, string, string, string, string, string, string, string, string]
  >(
    `INSERT INTO _audit_log (id, at, actor_kind, actor_id, actor_label, action, target_kind, target_id, details, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
)

/** Appends rows in order, reading the chain's head once. Must run inside a write transaction. */
function append(ctx: AppContext, entries: readonly AuditEntry[]): void {
  if (!entries.length) return
  const last = lastRow(ctx.db).get()
  // AUTOINCREMENT's sequence never goes back, so a removed tail row leaves a gap the verifier sees.
  const seq = sequence(ctx.db).get()?.seq
  let id = Math.max(last?.id ?? 0, seq ?? 0)
  // With every row removed by retention, the next one links to where the removed ones ended.
  let prevHash = last?.hash ?? auditAnchor(ctx.db)?.hash ?? GENESIS_HASH
  const at = ctx.clock.now().toISOString()
  for (const entry of entries) {
    const row = {
      id: ++id,
      at,
      actorKind: entry.actor.kind,
      actorId: entry.actor.id,
      actorLabel: entry.actor.label,
      action: entry.action,
      targetKind: entry.target.kind,
      targetId: entry.target.id,
      details: stableStringify(scrub(entry.details ?? {})) ?? '{}',
    }
    prevHash = auditHash(prevHash, row)
    insertRow(ctx.db).run(...rowFields(row), prevHash)
  }
}

/**
 * Appends one row to the audit log. Pass the transaction that makes the change, so the change and
 * its record commit together (or neither does); without one, the row gets its own IMMEDIATE
 * transaction so two processes cannot both link to the same previous row.
 */
export function recordAudit(ctx: AppContext, entry: AuditEntry, tx?: Tx): void {
  recordAudits(ctx, [entry], tx)
}

/**
 * Appends several rows at once (a dispatch pass): the chain's head is read once for all of them.
 * `tx` is the caller's transaction on `ctx.db` (the statements run on that connection, inside it);
 * a write of the group commit (ctx.writes), already inside its transaction, needs none either.
 */
export function recordAudits(ctx: AppContext, entries: readonly AuditEntry[], tx?: Tx): void {
  if (tx || ctx.db.$client.inTransaction) append(ctx, entries)
  else ctx.db.transaction(() => append(ctx, entries), { behavior: 'immediate' })
}

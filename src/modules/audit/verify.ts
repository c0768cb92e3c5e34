import type { AppContext } from '../../context.ts'
import { auditAnchor } from './anchor.ts'
import { auditHash, GENESIS_HASH, type StoredAuditRow } from './record.ts'

export type AuditVerdict =
  | {
      ok: true
      rows: number
      lastHash: string
      /** Rows before this id were removed by retention (`--audit-days`); the chain starts from their last hash. */
      firstId: number
    }
  | {
      ok: false
      rows: number
      /** The first row whose link does not hold (or the id where rows went missing). */
      brokenAt: number
      reason: string
    }

/**
 * Walks the chain from the first row: each row's hash must be SHA-256 over the previous row's hash
 * and its own fields, ids must run without gaps, and the last id must be the table's sequence (a
 * removed tail shows there). Rows removed by retention are a run from the start, and the anchor
 * they leave (the last removed row's id and hash) is where the walk begins. Someone who can rewrite the whole file can rewrite the whole chain:
 * keep a copy of `lastHash` elsewhere (a backup, a ticket) to catch that too.
 */
export function verifyAudit(ctx: AppContext): AuditVerdict {
  const sqlite = ctx.db.$client
  const rows = sqlite
    .query<StoredAuditRow, []>(
      `SELECT id, at, actor_kind AS actorKind, actor_id AS actorId, actor_label AS actorLabel, action,
              target_kind AS targetKind, target_id AS targetId, details, hash
         FROM _audit_log ORDER BY id`,
    )
    .iterate()
  const anchor = auditAnchor(ctx.db) ?? { id: 0, hash: GENESIS_HASH }
  let prev = anchor.hash
  let expectedId = anchor.id + 1
  let count = 0
  for (const row of rows) {
    count++
    if (row.id !== expectedId)
      return {
        ok: false,
        rows: count,
        brokenAt: expectedId,
        reason: `rows ${expectedId}–${row.id - 1} are missing`,
      }
    const { hash, ...fields } = row
    if (auditHash(prev, { ...fields, details: String(fields.details) }) !== hash)
      return {
        ok: false,
        rows: count,
        brokenAt: row.id,
        reason:
          row.id === anchor.id + 1
            ? 'the row does not match its hash'
            : `the row does not match its hash (it, or row ${row.id - 1}'s hash, was changed)`,
      }
    prev = hash
    expectedId++
  }
  const seq =
    sqlite.query<{ seq: number }, []>(`SELECT seq FROM sqlite_sequence WHERE name = '_audit_log'`).get()
      ?.seq ?? 0
  const lastId = anchor.id + count
  if (seq > lastId)
    return {
      ok: false,
      rows: count,
      brokenAt: lastId + 1,
      reason: `rows ${lastId + 1}–${seq} were removed from the end`,
    }
  return { ok: true, rows: count, lastHash: prev, firstId: anchor.id + 1 }
}

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
      /** The `audit.pruned` row that records the latest removal (null: no row was ever removed). */
      prunedBy: number | null
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
 * they leave (the last removed row's id and hash) is where the walk begins; that anchor must be
 * the one the newest `audit.pruned` row of the chain names, written with it (prune.ts), so rows
 * deleted from the start by hand with a matching anchor forged no longer verify (issue 23, N5).
 * Someone who can rewrite the whole file can rewrite the whole chain: keep a copy of `lastHash`
 * elsewhere (a backup, a ticket) to catch that too; since every removal appends a row, a removal
 * also moves the head, and `audit --action audit` lists the removals since the copy was taken.
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
  const stored = auditAnchor(ctx.db)
  const anchor = stored ?? { id: 0, hash: GENESIS_HASH }
  let pruned: { id: number; through: unknown; anchorDigest: unknown } | null = null
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
    if (row.action === 'audit.pruned') {
      const d = parseDetails(String(row.details))
      pruned = { id: row.id, through: d.through, anchorDigest: d.anchorDigest }
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
  if (stored && (!pruned || pruned.through !== stored.id || pruned.anchorDigest !== stored.hash))
    return {
      ok: false,
      rows: count,
      brokenAt: stored.id + 1,
      reason: `rows up to ${stored.id} are gone, but no audit.pruned row records that retention removed them${pruned ? ` (the latest, row ${pruned.id}, names row ${String(pruned.through)})` : ''}`,
    }
  return { ok: true, rows: count, lastHash: prev, firstId: anchor.id + 1, prunedBy: pruned?.id ?? null }
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

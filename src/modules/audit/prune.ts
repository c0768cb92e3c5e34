import type { AppContext } from '../../context.ts'
import { RETENTION_ACTOR } from './actor.ts'
import { AUDIT_ANCHOR_KEY } from './anchor.ts'
import { recordAudit } from './record.ts'

/** What an `audit.pruned` row records: the removed run of rows and where the kept chain starts. */
export interface PrunedDetails {
  /** The first and last removed row ids (the last is the anchor). */
  from: number
  through: number
  removed: number
  /** The last removed row's hash: the anchor the first kept row links to. */
  anchorDigest: string
  /** Rows written before this were due (`--audit-days`). */
  cutoff: string
}

/**
 * Removes up to `batch` of the oldest audit rows written before `cutoff` (always a run from the
 * first row, never rows in the middle), moves the anchor to the last one removed, and appends an
 * `audit.pruned` row naming that anchor, all in one transaction: the chain stays verifiable from
 * the first kept row, and every removal is itself a link of the chain. So the chain head moves
 * whenever rows are removed, and an anchor no `audit.pruned` row names (rows deleted by hand and
 * the anchor forged) fails `verify` (issue 23, N5; docs/reliability.md, audit retention).
 * Returns how many went.
 */
export function pruneAudit(ctx: AppContext, cutoff: string, batch: number): number {
  const sqlite = ctx.db.$client
  return sqlite
    .transaction(() => {
      const oldest = sqlite
        .query<{ id: number; at: string; hash: string }, [number]>(
          'SELECT id, at, hash FROM _audit_log ORDER BY id LIMIT ?',
        )
        .all(batch)
      let last: { id: number; hash: string } | undefined
      for (const row of oldest) {
        if (row.at >= cutoff) break
        last = row
      }
      if (!last) return 0
      const removed = sqlite.query('DELETE FROM _audit_log WHERE id <= ?').run(last.id).changes
      sqlite
        .query(
          `INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3)
           ON CONFLICT (key) DO UPDATE SET value = ?2, updated_at = ?3`,
        )
        .run(
          AUDIT_ANCHOR_KEY,
          JSON.stringify({ id: last.id, hash: last.hash }),
          ctx.clock.now().toISOString(),
        )
      const details: PrunedDetails = {
        from: oldest[0]!.id,
        through: last.id,
        removed,
        anchorDigest: last.hash,
        cutoff,
      }
      recordAudit(ctx, {
        actor: RETENTION_ACTOR,
        action: 'audit.pruned',
        target: { kind: 'audit_log', id: String(last.id) },
        details: { ...details },
      })
      return removed
    })
    .immediate()
}

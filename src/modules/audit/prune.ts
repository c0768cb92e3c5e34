import type { AppContext } from '../../context.ts'
import { AUDIT_ANCHOR_KEY } from './anchor.ts'

/**
 * Removes up to `batch` of the oldest audit rows written before `cutoff` (always a run from the
 * first row, never rows in the middle) and moves the anchor to the last one removed, in one
 * transaction: the chain stays verifiable from the first kept row. Returns how many went.
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
      return removed
    })
    .immediate()
}

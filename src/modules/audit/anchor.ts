import type { Db } from '../../db/client.ts'

/**
 * Where the kept audit log starts once its oldest rows were removed (`--audit-days`): the last
 * removed row's id and hash, which the first kept row links to. Kept in the settings table.
 */
export interface AuditAnchor {
  id: number
  hash: string
}

export const AUDIT_ANCHOR_KEY = 'audit_anchor'

/** The anchor, or null while no row has ever been removed (the chain starts at its genesis). */
export function auditAnchor(db: Db): AuditAnchor | null {
  const row = db.$client
    .query<{ value: string }, [string]>('SELECT value FROM settings WHERE key = ?')
    .get(AUDIT_ANCHOR_KEY)
  if (!row) return null
  const { id, hash } = JSON.parse(row.value) as AuditAnchor
  return { id, hash }
}

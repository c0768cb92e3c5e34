import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { settings } from '../../db/schema/index.ts'

/** The server's latest scheduled backup, kept in the settings table for `deskhook status`. */
export interface ScheduledBackupRecord {
  /** When the attempt started. */
  at: string
  /** The archive written; absent when the attempt failed. */
  file?: string
  bytes?: number
  durationMs?: number
  /** Why the attempt failed. */
  error?: string
  /** After a failure: the last attempt that worked, if any. */
  lastSuccess?: { at: string; file: string; bytes: number }
}

const KEY = 'backup_last_scheduled'

export function recordScheduledBackup(db: Db, record: ScheduledBackupRecord): void {
  const value = JSON.stringify(record)
  db.insert(settings)
    .values({ key: KEY, value, updatedAt: record.at })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: record.at } })
    .run()
}

export function lastScheduledBackup(db: Db): ScheduledBackupRecord | null {
  const row = db.select().from(settings).where(eq(settings.key, KEY)).get()
  if (!row) return null
  try {
    return JSON.parse(row.value) as ScheduledBackupRecord
  } catch {
    return null
  }
}

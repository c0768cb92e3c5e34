import { Database } from 'bun:sqlite'
import type { Dirent } from 'node:fs'
import { readdir, stat, statfs } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { asc } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { DB_FILE, type Db } from '../../db/client.ts'
import * as schema from '../../db/schema/index.ts'
import { executions } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { lastScheduledBackup, type ScheduledBackupRecord } from './last-scheduled.ts'
import { appliedMigrations, type BackupCounts, readCounts } from './manifest.ts'
import { serverUsing } from './server-check.ts'

export interface DataDirStatus {
  dataDir: string
  /** The PID of the server using the dir, or null. */
  serverPid: number | null
  schemaLevel: number
  /** The database file with its WAL and shared-memory files. */
  databaseBytes: number
  /** Step screenshots and recording screenshots on disk. */
  screenshots: { files: number; bytes: number }
  /** When the oldest run still kept was accepted, or null with no runs. */
  oldestRunAt: string | null
  counts: BackupCounts
  /** Bytes free for deskhook on the data dir's file system. */
  freeBytes: number
  /** The server's latest scheduled backup (`--backup-dir`), or null when it never made one. */
  lastScheduledBackup: ScheduledBackupRecord | null
}

/** What an admin checks before a backup or when the disk fills: sizes, counts, the oldest run. */
export async function dataDirStatus(dir: string): Promise<DataDirStatus> {
  const dataDir = resolve(dir)
  const file = join(dataDir, DB_FILE)
  if (!(await stat(file).catch(() => null))?.isFile())
    throw new AppError('NOT_FOUND', `No deskhook database at ${file}: is --data the server's data dir?`)
  let databaseBytes = 0
  for (const suffix of ['', '-wal', '-shm'])
    databaseBytes += (await stat(file + suffix).catch(() => null))?.size ?? 0
  // Read only, without migrating: status never changes the dir it looks at.
  const sqlite = new Database(file, { strict: true, readonly: true })
  let counts: BackupCounts
  let oldestRunAt: string | null
  let schemaLevel: number
  let lastBackup: ScheduledBackupRecord | null
  try {
    sqlite.run('PRAGMA busy_timeout = 10000')
    const db = drizzle({ client: sqlite, schema }) as Db
    counts = readCounts(db)
    schemaLevel = appliedMigrations(db).length
    // `seq` grows with acceptance, so the first row is the oldest (a primary-key lookup).
    oldestRunAt =
      db.select({ at: executions.queuedAt }).from(executions).orderBy(asc(executions.seq)).limit(1).get()
        ?.at ?? null
    lastBackup = lastScheduledBackup(db)
  } finally {
    sqlite.close()
  }
  const shots = await folderSize(join(dataDir, 'screenshots'))
  const recorded = await folderSize(join(dataDir, 'recordings'))
  const fs = await statfs(dataDir)
  return {
    dataDir,
    serverPid: serverUsing(dataDir) ?? null,
    schemaLevel,
    databaseBytes,
    screenshots: { files: shots.files + recorded.files, bytes: shots.bytes + recorded.bytes },
    oldestRunAt,
    counts,
    freeBytes: Number(fs.bavail) * Number(fs.bsize),
    lastScheduledBackup: lastBackup,
  }
}

/** Files and bytes under a folder two levels deep (`<id>/<file>`), 0 when it does not exist. */
async function folderSize(root: string): Promise<{ files: number; bytes: number }> {
  const total = { files: 0, bytes: 0 }
  let dirs: Dirent[]
  try {
    dirs = await readdir(root, { withFileTypes: true })
  } catch {
    return total
  }
  for (const d of dirs) {
    if (!d.isDirectory()) continue
    const names = await readdir(join(root, d.name)).catch(() => [] as string[])
    for (const name of names) {
      const s = await stat(join(root, d.name, name)).catch(() => null)
      if (!s?.isFile()) continue
      total.files++
      total.bytes += s.size
    }
  }
  return total
}

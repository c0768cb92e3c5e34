import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { eq, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { DB_FILE } from '../../db/client.ts'
import { executionSteps, executions, recordings } from '../../db/schema/index.ts'
import type { ManifestFile } from './manifest.ts'
import { SIGNING_KEY_FILE } from './signature.ts'

/** A file to put in the archive: its path there is its path relative to the data dir. */
export interface DataFile {
  path: string
  kind: ManifestFile['kind']
}

/** One path segment deskhook itself would write (ids, `<n>.jpg`, key and certificate names). */
const SAFE_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/

/** A relative `a/b/c` path whose every segment is safe: never absolute, never `..`. */
export function isSafeArchivePath(path: string): boolean {
  const parts = path.split('/')
  return parts.length <= 4 && parts.every((p) => SAFE_SEGMENT.test(p) && p !== '.' && p !== '..')
}

/** Top-level names that are never copied: the live database files, the lock, temp and staging dirs. */
const NOT_CONFIG = new Set([
  DB_FILE,
  `${DB_FILE}-wal`,
  `${DB_FILE}-shm`,
  `${DB_FILE}-journal`,
  'deskhook.lock',
  // What signs the archives stays out of them (signature.ts).
  SIGNING_KEY_FILE,
])
/** Folders handled by reference (screenshots, recordings) or left out (the agent program is rebuilt, not restored). */
const NOT_CONFIG_DIRS = new Set(['screenshots', 'recordings', 'agent'])

/**
 * The screenshot files the database copy refers to: every replay step that names one
 * (`screenshots/<jobExecutionId>/<file>`) and every recording action's shot
 * (`recordings/<recordingId>/<seq>.jpg`).
 */
export function referencedFiles(db: Db): DataFile[] {
  const files: DataFile[] = []
  const steps = db
    .select({ id: executions.id, file: executionSteps.screenshot })
    .from(executionSteps)
    .innerJoin(executions, eq(executions.seq, executionSteps.executionSeq))
    .where(isNotNull(executionSteps.screenshot))
    .all()
  for (const s of steps) {
    const path = `screenshots/${s.id}/${s.file}`
    if (isSafeArchivePath(path)) files.push({ path, kind: 'screenshot' })
  }
  for (const r of db.select({ id: recordings.id, actions: recordings.actions }).from(recordings).all()) {
    const shots = new Set<number>()
    for (const a of r.actions ?? []) if (Number.isInteger(a.shot)) shots.add(a.shot as number)
    for (const shot of [...shots].sort((a, b) => a - b)) {
      const path = `recordings/${r.id}/${shot}.jpg`
      if (isSafeArchivePath(path)) files.push({ path, kind: 'recording' })
    }
  }
  return files
}

/**
 * The data dir's own settings files: the secrets key (without it the job secrets in the database
 * cannot be read), the TLS CA and certificates (agents pin their fingerprint), and any other
 * top-level file. Not the live database files, the lock, or hidden temp files.
 */
export async function configFiles(dataDir: string): Promise<DataFile[]> {
  const files: DataFile[] = []
  const walk = async (rel: string, depth: number) => {
    let entries: Dirent[]
    try {
      entries = await readdir(join(dataDir, rel), { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = rel ? `${rel}/${e.name}` : e.name
      if (e.name.startsWith('.') || !isSafeArchivePath(path)) continue
      if (depth === 0 && (NOT_CONFIG.has(e.name) || NOT_CONFIG_DIRS.has(e.name))) continue
      // Temp files, and earlier backups kept in the data dir.
      if (e.name.endsWith('.tmp') || /\.(tar|tar\.gz|tgz)$/.test(e.name)) continue
      if (e.isFile()) files.push({ path, kind: 'config' })
      else if (e.isDirectory() && depth < 2) await walk(path, depth + 1)
    }
  }
  await walk('', 0)
  return files
}

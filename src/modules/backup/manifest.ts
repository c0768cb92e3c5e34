import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { count, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { executions, jobs, jobVersions, recordings } from '../../db/schema/index.ts'

/**
 * What a backup archive holds, written as its last entry (`manifest.json`): the checksums are of
 * the bytes just written, so nothing is read twice and a file that changed meanwhile cannot
 * disagree with its own checksum.
 */
export const MANIFEST_NAME = 'manifest.json'
export const ARCHIVE_FORMAT = 'deskhook-backup'
export const FORMAT_VERSION = 1

export const FileKind = Type.Union([
  Type.Literal('database'),
  Type.Literal('screenshot'),
  Type.Literal('recording'),
  Type.Literal('config'),
])

export const ManifestFile = Type.Object({
  path: Type.String({ minLength: 1 }),
  kind: FileKind,
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
})

export const BackupCounts = Type.Object({
  jobs: Type.Integer(),
  jobVersions: Type.Integer(),
  executions: Type.Integer(),
  executionsByStatus: Type.Record(Type.String(), Type.Integer()),
  recordings: Type.Integer(),
})

export const Manifest = Type.Object({
  format: Type.Literal(ARCHIVE_FORMAT),
  formatVersion: Type.Literal(FORMAT_VERSION),
  deskhookVersion: Type.String(),
  createdAt: Type.String(),
  sourceDataDir: Type.String(),
  /** The migrations applied to the copied database, oldest first: its schema level. */
  schema: Type.Object({ level: Type.Integer(), migrations: Type.Array(Type.String()) }),
  counts: BackupCounts,
  /** Files the database names that were gone from disk (e.g. removed by retention meanwhile). */
  missingFiles: Type.Integer(),
  files: Type.Array(ManifestFile),
})

export type Manifest = Static<typeof Manifest>
export type ManifestFile = Static<typeof ManifestFile>
export type BackupCounts = Static<typeof BackupCounts>

export function parseManifest(text: string): Manifest {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Error(`${MANIFEST_NAME} is not JSON`)
  }
  if (!Value.Check(Manifest, value)) {
    const first = [...Value.Errors(Manifest, value)][0]
    throw new Error(`${MANIFEST_NAME} is not a deskhook backup manifest (${first?.path}: ${first?.message})`)
  }
  return value
}

/** The counts a manifest records, read from one database (the copy, so they match it exactly). */
export function readCounts(db: Db): BackupCounts {
  const n = (table: typeof jobs | typeof jobVersions | typeof recordings) =>
    db.select({ n: count() }).from(table).get()?.n ?? 0
  const byStatus: Record<string, number> = {}
  let total = 0
  for (const row of db
    .select({ status: executions.status, n: count() })
    .from(executions)
    .groupBy(executions.status)
    .all()) {
    byStatus[row.status] = row.n
    total += row.n
  }
  return {
    jobs: n(jobs),
    jobVersions: n(jobVersions),
    executions: total,
    executionsByStatus: byStatus,
    recordings: n(recordings),
  }
}

/** The migrations applied to a database, in the order they ran. */
export function appliedMigrations(db: Db): string[] {
  try {
    return db.all<{ name: string }>(sql`SELECT name FROM _migrations ORDER BY name`).map((r) => r.name)
  } catch {
    return []
  }
}

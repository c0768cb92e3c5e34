import { Database } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { readFile, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { createGzip } from 'node:zlib'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { type Pack, pack as tarPack } from 'tar-stream'
import { DB_FILE, type Db } from '../../db/client.ts'
import * as schema from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { VERSION } from '../../version.ts'
import { configFiles, type DataFile, referencedFiles } from './data-files.ts'
import { fsyncs } from './durable.ts'
import {
  ARCHIVE_FORMAT,
  appliedMigrations,
  type BackupCounts,
  FORMAT_VERSION,
  MANIFEST_NAME,
  type Manifest,
  type ManifestFile,
  readCounts,
} from './manifest.ts'
import { counter, type Progress } from './progress.ts'
import { SIGNATURE_NAME, sign, signingKey } from './signature.ts'

export interface BackupSummary {
  archive: string
  bytes: number
  createdAt: string
  durationMs: number
  schemaLevel: number
  counts: BackupCounts
  files: { database: number; screenshots: number; recordings: number; config: number; missing: number }
}

/** `deskhook-backup-20250131-023000.tar.gz`: the name sorts by time (UTC). */
export function archiveName(at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-')
  return `deskhook-backup-${stamp}.tar.gz`
}

/**
 * A consistent copy of a data dir while its server runs: `VACUUM INTO` copies the database as of
 * one read transaction (WAL lets the server keep committing meanwhile), and the screenshot files
 * that copy names are added beside it, with a manifest of SHA-256 checksums, as one gzipped tar
 * file. Everything committed before `createdAt` is in the copy. The archive is fsynced, and its
 * folder after the rename, before this returns.
 */
export async function createBackup(opts: {
  dataDir: string
  out: string
  progress?: Progress
}): Promise<BackupSummary> {
  const progress = opts.progress ?? (() => {})
  const started = performance.now()
  const dataDir = resolve(opts.dataDir)
  const source = join(dataDir, DB_FILE)
  if (!(await stat(source).catch(() => null))?.isFile())
    throw new AppError('NOT_FOUND', `No deskhook database at ${source}: is --data the server's data dir?`)
  const out = await archivePath(resolve(opts.out))
  // Beside the archive, not in /tmp: the copy is as large as the database, and may be on a small tmpfs.
  const snapshot = join(dirname(out), `.${basename(out)}.${process.pid}.db`)
  const partial = join(dirname(out), `.${basename(out)}.${process.pid}.partial`)
  try {
    const createdAt = new Date().toISOString()
    progress(`copying the database (${await sizeText(source)})`)
    copyDatabase(source, snapshot)
    progress('checking the copy (integrity_check)')
    const { counts, migrations, referenced } = inspectCopy(snapshot)
    const others = (await configFiles(dataDir)).filter((f) => join(dataDir, f.path) !== out)
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: FORMAT_VERSION,
      deskhookVersion: VERSION,
      createdAt,
      sourceDataDir: dataDir,
      schema: { level: migrations.length, migrations },
      counts,
      missingFiles: 0,
      files: [],
    }
    const tar = tarPack()
    const written = writeTo(tar, partial)
    manifest.files.push(await addFile(tar, DB_FILE, 'database', snapshot))
    const files = [...others, ...referenced]
    const tick = counter(progress, 'files', files.length)
    for (const [i, file] of files.entries()) {
      const entry = await addSmallFile(tar, file, dataDir)
      if (entry) manifest.files.push(entry)
      else manifest.missingFiles++
      tick(i + 1)
    }
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)
    await addBuffer(tar, MANIFEST_NAME, manifestBytes)
    // Signed with the data dir's key, which never goes into an archive (signature.ts).
    await addBuffer(tar, SIGNATURE_NAME, sign(signingKey(dataDir), manifestBytes))
    tar.finalize()
    await written
    fsyncs.file(partial)
    await rename(partial, out)
    fsyncs.dir(dirname(out))
    const kinds = (k: ManifestFile['kind']) => manifest.files.filter((f) => f.kind === k).length
    return {
      archive: out,
      bytes: (await stat(out)).size,
      createdAt,
      durationMs: Math.round(performance.now() - started),
      schemaLevel: migrations.length,
      counts,
      files: {
        database: manifest.files[0]!.bytes,
        screenshots: kinds('screenshot'),
        recordings: kinds('recording'),
        config: kinds('config'),
        missing: manifest.missingFiles,
      },
    }
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(snapshot + suffix, { force: true })
    await rm(partial, { force: true })
  }
}

/**
 * Where the archive goes: `--out` names a file, or a folder to write the usual name into (issue 23,
 * N14: a folder made the rename fail with a raw stack). A folder that is not there is said plainly.
 */
async function archivePath(out: string): Promise<string> {
  const there = await stat(out).catch(() => null)
  if (there?.isDirectory()) return join(out, archiveName(new Date()))
  const folder = await stat(dirname(out)).catch(() => null)
  if (!folder?.isDirectory())
    throw new AppError(
      'NOT_FOUND',
      `The folder ${dirname(out)} for the archive does not exist: create it, or choose another --out`,
    )
  return out
}

/** `VACUUM INTO` from a connection of our own: it reads one snapshot and never writes the source. */
function copyDatabase(source: string, target: string): void {
  const sqlite = new Database(source, { strict: true })
  try {
    sqlite.run('PRAGMA busy_timeout = 10000')
    sqlite.run(`VACUUM INTO '${target.replaceAll("'", "''")}'`)
  } finally {
    sqlite.close()
  }
}

function inspectCopy(file: string): {
  counts: BackupCounts
  migrations: string[]
  referenced: DataFile[]
} {
  const sqlite = new Database(file, { strict: true })
  try {
    const check = integrityCheck(sqlite)
    if (check !== 'ok')
      throw new AppError(
        'INTERNAL',
        `The database copy fails integrity_check (${check}); no archive was written`,
      )
    const db = drizzle({ client: sqlite, schema }) as Db
    return { counts: readCounts(db), migrations: appliedMigrations(db), referenced: referencedFiles(db) }
  } finally {
    sqlite.close()
  }
}

/** `ok`, or the first problems SQLite reports. */
export function integrityCheck(sqlite: Database): string {
  const rows = sqlite.query<{ integrity_check: string }, []>('PRAGMA integrity_check(5)').all()
  return rows.map((r) => r.integrity_check).join('; ')
}

/** tar → gzip → file; settles when the file is closed. The checksums are of the tar's contents. */
function writeTo(tar: Pack, path: string): Promise<void> {
  return new Promise((resolveDone, reject) => {
    const gzip = createGzip()
    const file = createWriteStream(path, { mode: 0o600 })
    tar.on('error', reject)
    gzip.on('error', reject)
    file.on('error', reject)
    file.on('close', () => resolveDone())
    tar.pipe(gzip).pipe(file)
  })
}

/** Streams a large file (the database copy) into the archive, hashing what it writes. */
async function addFile(
  tar: Pack,
  name: string,
  kind: ManifestFile['kind'],
  path: string,
): Promise<ManifestFile> {
  const size = (await stat(path)).size
  const hash = createHash('sha256')
  await new Promise<void>((resolveDone, reject) => {
    const entry = tar.entry({ name, size, mode: 0o600 }, (err) => (err ? reject(err) : resolveDone()))
    const input = createReadStream(path)
    input.on('data', (chunk) => {
      hash.update(chunk)
      if (!entry.write(chunk)) {
        input.pause()
        entry.once('drain', () => input.resume())
      }
    })
    input.on('error', reject)
    input.on('end', () => entry.end(null))
  })
  return { path: name, kind, bytes: size, sha256: hash.digest('hex') }
}

/** A screenshot or settings file, read whole (they are small); null when it is gone from disk. */
async function addSmallFile(tar: Pack, file: DataFile, dataDir: string): Promise<ManifestFile | null> {
  let bytes: Buffer
  try {
    bytes = await readFile(join(dataDir, file.path))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  await addBuffer(tar, file.path, bytes)
  return {
    path: file.path,
    kind: file.kind,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  }
}

/** Written through the entry's stream (not tar-stream's buffer form) so that it waits for the disk. */
function addBuffer(tar: Pack, name: string, bytes: Buffer): Promise<void> {
  return new Promise((resolveDone, reject) => {
    tar
      .entry({ name, size: bytes.length, mode: 0o600 }, (err) => (err ? reject(err) : resolveDone()))
      .end(bytes)
  })
}

async function sizeText(path: string): Promise<string> {
  const bytes = (await stat(path)).size
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`
}

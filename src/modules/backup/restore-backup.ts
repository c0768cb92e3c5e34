import { Database } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync } from 'node:fs'
import { mkdir, mkdtemp, open, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { createGunzip } from 'node:zlib'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { extract as tarExtract } from 'tar-stream'
import { DB_FILE, type Db } from '../../db/client.ts'
import { migrations as known } from '../../db/migrations/index.ts'
import * as schema from '../../db/schema/index.ts'
import { DataDirLocked, lockDataDir } from '../../lib/data-dir-lock.ts'
import { AppError } from '../../lib/errors.ts'
import { integrityCheck } from './create-backup.ts'
import { isSafeArchivePath } from './data-files.ts'
import { fsyncs, type Sync } from './durable.ts'
import { type BackupCounts, MANIFEST_NAME, type Manifest, parseManifest, readCounts } from './manifest.ts'
import type { Progress } from './progress.ts'
import { serverUsing } from './server-check.ts'
import {
  check,
  describeKey,
  parseSignature,
  readKeyFile,
  SIGNATURE_NAME,
  SIGNING_KEY_FILE,
} from './signature.ts'

export interface RestoreSummary {
  archive: string
  dataDir: string
  backupCreatedAt: string
  deskhookVersion: string
  schemaLevel: number
  counts: BackupCounts
  files: { database: number; screenshots: number; recordings: number; config: number }
  /** Where the data dir's earlier contents were moved (with --force), else null. */
  previousContents: string | null
}

/** Names that do not make a data dir "in use": a stale lock, and what an earlier restore left. */
const IGNORABLE = (name: string) => name === 'deskhook.lock' || name.startsWith('.restore-')

/**
 * Restores an archive into a data dir no server is using. The archive is unpacked into a staging
 * folder inside the data dir and checked there (every checksum, the file list, integrity_check, the
 * schema level, the counts) before anything that was in the dir is moved; the lock is held
 * throughout, so no server can start on a half-restored dir. Archives are gzipped tar files, or
 * plain tar files (written before backups were compressed). Every restored file and folder is
 * fsynced before this returns: a power cut after "Restored" cannot take the restore back.
 */
export async function restoreBackup(opts: {
  archive: string
  dataDir: string
  force?: boolean
  /** The backup signing key file of the data dir that made the archive (signature.ts). */
  signingKey?: string
  /** Restore an archive whose signature cannot be checked (unsigned, or signed with another key). */
  trustUnsigned?: boolean
  progress?: Progress
  /** The fsyncs (tests record them); the real ones by default. */
  sync?: Sync
}): Promise<RestoreSummary> {
  const progress = opts.progress ?? (() => {})
  const sync = opts.sync ?? fsyncs
  const archive = resolve(opts.archive)
  const dataDir = resolve(opts.dataDir)
  if (!(await stat(archive).catch(() => null))?.isFile())
    throw new AppError('NOT_FOUND', `No backup archive at ${archive}`)
  refuseIfServing(dataDir)
  const existed = (await stat(dataDir).catch(() => null)) !== null
  refuseIfNotEmpty(dataDir, await contents(dataDir), opts.force)

  const lock = lockDataDir(dataDir)
  let staging: string | undefined
  try {
    staging = await mkdtemp(join(dataDir, '.restore-'))
    progress(`unpacking ${archive}`)
    const { manifest, manifestBytes, signature, folders } = await unpackAndVerify(archive, staging, sync)
    const key = checkSignature(archive, dataDir, manifest, manifestBytes, signature, opts)
    if (key) {
      // The restored server goes on signing with the key its earlier archives verify with.
      await writeFile(join(staging, SIGNING_KEY_FILE), key, { mode: 0o600 })
      sync.file(join(staging, SIGNING_KEY_FILE))
    }
    // Deepest first, so each folder is synced after the files and folders inside it.
    for (const dir of [...folders].sort((a, b) => b.length - a.length)) sync.dir(dir)
    progress('checking the database (integrity_check)')
    verifyDatabase(archive, join(staging, DB_FILE), manifest)

    // Checked under the lock too: something may have appeared since the first look.
    const present = await contents(dataDir)
    refuseIfNotEmpty(dataDir, present, opts.force)
    let previousContents: string | null = null
    if (present.length > 0) {
      previousContents = join(dataDir, `.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`)
      await mkdir(previousContents, { mode: 0o700 })
      for (const name of present) await rename(join(dataDir, name), join(previousContents, name))
    }
    for (const name of await readdir(staging)) await rename(join(staging, name), join(dataDir, name))
    // The renames above are durable once the folders naming them are synced.
    if (previousContents) sync.dir(previousContents)
    sync.dir(dataDir)
    if (!existed) sync.dir(dirname(dataDir))
    const kinds = (k: string) => manifest.files.filter((f) => f.kind === k).length
    return {
      archive,
      dataDir,
      backupCreatedAt: manifest.createdAt,
      deskhookVersion: manifest.deskhookVersion,
      schemaLevel: manifest.schema.level,
      counts: manifest.counts,
      files: {
        database: manifest.files.find((f) => f.kind === 'database')?.bytes ?? 0,
        screenshots: kinds('screenshot'),
        recordings: kinds('recording'),
        config: kinds('config'),
      },
      previousContents,
    }
  } catch (err) {
    // Nothing of the archive stays behind, and a dir this restore made goes again.
    if (staging) await rm(staging, { recursive: true, force: true })
    lock.release()
    if (!existed) await rmdir(dataDir).catch(() => {})
    throw err
  } finally {
    if (staging) await rm(staging, { recursive: true, force: true })
    lock.release()
  }
}

function refuseIfServing(dataDir: string): void {
  const pid = serverUsing(dataDir)
  if (pid !== undefined) throw new DataDirLocked(dataDir, pid)
}

function refuseIfNotEmpty(dataDir: string, present: string[], force?: boolean): void {
  if (present.length === 0 || force) return
  const shown = present.slice(0, 3).join(', ') + (present.length > 3 ? ', …' : '')
  throw new AppError(
    'INVALID_REQUEST',
    `The data dir ${dataDir} is not empty (${shown}). Restore into a new or empty dir, or add --force to replace its contents (they are moved aside to ${dataDir}/.before-restore-<time>, not deleted).`,
  )
}

async function contents(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(dataDir)).filter((n) => !IGNORABLE(n)).sort()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
}

/** gzip's magic bytes: a compressed archive starts with them, a plain tar file never does. */
async function isGzipped(archive: string): Promise<boolean> {
  const file = await open(archive, 'r')
  try {
    const head = Buffer.alloc(2)
    const { bytesRead } = await file.read(head, 0, 2, 0)
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b
  } finally {
    await file.close()
  }
}

/**
 * Unpacks every entry into `staging`, hashing and fsyncing each file as it writes (the caller syncs
 * the returned folders), and checks the result against the manifest: the same files, each with its size and SHA-256.
 * Names the first file that differs.
 */
async function unpackAndVerify(
  archive: string,
  staging: string,
  sync: Sync,
): Promise<{
  manifest: Manifest
  manifestBytes: Buffer
  signature: string | undefined
  folders: Set<string>
}> {
  const seen = new Map<string, { bytes: number; sha256: string }>()
  let manifestBytes: Buffer | undefined
  let signatureText: string | undefined
  let last = '(the start)'
  const damaged = (why: string) =>
    new AppError('INVALID_REQUEST', `The archive ${archive} is damaged: ${why}. Nothing was restored.`)
  const folders = new Set<string>([staging])
  const input = createReadStream(archive)
  const gunzip = (await isGzipped(archive)) ? createGunzip() : undefined
  const tar = tarExtract()
  input.on('error', (err) => tar.destroy(err))
  if (gunzip) {
    gunzip.on('error', (err) => tar.destroy(err))
    input.pipe(gunzip).pipe(tar)
  } else input.pipe(tar)
  try {
    for await (const entry of tar) {
      const { name, type } = entry.header
      if (name === SIGNATURE_NAME && type === 'file' && signatureText === undefined) {
        const chunks: Buffer[] = []
        for await (const chunk of entry) chunks.push(chunk as Buffer)
        signatureText = Buffer.concat(chunks).toString('utf8')
        continue
      }
      if (type !== 'file' || seen.has(name) || !(name === MANIFEST_NAME || isSafeArchivePath(name))) {
        entry.resume()
        throw damaged(`unexpected entry ${JSON.stringify(name)} (${type})`)
      }
      const hash = createHash('sha256')
      let bytes = 0
      if (name === MANIFEST_NAME) {
        const chunks: Buffer[] = []
        for await (const chunk of entry) chunks.push(chunk as Buffer)
        manifestBytes = Buffer.concat(chunks)
      } else {
        const target = join(staging, name)
        await mkdir(dirname(target), { recursive: true, mode: 0o700 })
        for (let dir = dirname(target); dir !== staging; dir = dirname(dir)) folders.add(dir)
        const out = createWriteStream(target, { mode: 0o600 })
        const closed = new Promise<void>((ok, fail) => {
          out.on('close', ok)
          out.on('error', fail)
        })
        for await (const data of entry) {
          const chunk = data as Buffer
          hash.update(chunk)
          bytes += chunk.length
          if (!out.write(chunk)) await new Promise((ok) => out.once('drain', ok))
        }
        out.end()
        await closed
        sync.file(target)
      }
      seen.set(name, { bytes, sha256: hash.digest('hex') })
      last = name
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    throw damaged(`${(err as Error).message} (after ${last})`)
  } finally {
    input.destroy()
    gunzip?.destroy()
  }
  if (manifestBytes === undefined) throw damaged(`it has no ${MANIFEST_NAME} (a backup always ends with one)`)
  let manifest: Manifest
  try {
    manifest = parseManifest(manifestBytes.toString('utf8'))
  } catch (err) {
    throw damaged((err as Error).message)
  }
  seen.delete(MANIFEST_NAME)
  for (const file of manifest.files) {
    const got = seen.get(file.path)
    if (!got) throw damaged(`${file.path} is listed in the manifest but missing`)
    if (got.bytes !== file.bytes || got.sha256 !== file.sha256)
      throw damaged(
        `${file.path} fails its checksum (SHA-256 ${got.sha256.slice(0, 12)}…, expected ${file.sha256.slice(0, 12)}…)`,
      )
    seen.delete(file.path)
  }
  const extra = [...seen.keys()][0]
  if (extra) throw damaged(`${extra} is not listed in the manifest`)
  if (!manifest.files.some((f) => f.path === DB_FILE && f.kind === 'database'))
    throw damaged(`it holds no ${DB_FILE}`)
  return { manifest, manifestBytes, signature: signatureText, folders }
}

/**
 * Who made the archive: its manifest's HMAC under the backup signing key (`--signing-key`, else the
 * target dir's own). A changed manifest is refused always; an archive that cannot be checked (no
 * signature, no key, another server's key) only with `--trust-unsigned`. Returns the key that
 * verified it, if one did.
 */
function checkSignature(
  archive: string,
  dataDir: string,
  manifest: Manifest,
  manifestBytes: Buffer,
  signatureText: string | undefined,
  opts: { signingKey?: string; trustUnsigned?: boolean },
): Buffer | undefined {
  const nothing = 'Nothing was restored.'
  const own = join(dataDir, SIGNING_KEY_FILE)
  const keyFile = opts.signingKey ? resolve(opts.signingKey) : existsSync(own) ? own : undefined
  let key: Buffer | undefined
  if (keyFile)
    try {
      key = readKeyFile(keyFile)
    } catch (err) {
      throw new AppError('INVALID_REQUEST', `${(err as Error).message}. ${nothing}`)
    }
  const signature = signatureText === undefined ? undefined : parseSignature(signatureText)
  if (signatureText !== undefined && !signature)
    throw new AppError(
      'INVALID_REQUEST',
      `The archive ${archive} has a damaged ${SIGNATURE_NAME}. ${nothing}`,
    )
  const verdict = signature && key ? check(key, manifestBytes, signature) : undefined
  if (verdict === 'valid') return key
  if (verdict === 'changed')
    throw new AppError(
      'INVALID_REQUEST',
      `The archive ${archive} was changed after it was made: its manifest does not match its signature (key ${signature!.keyId}). Do not restore it; use another backup. ${nothing}`,
    )
  if (opts.trustUnsigned) return undefined
  const hint = `pass --signing-key with the ${SIGNING_KEY_FILE} of the data dir that made it (it was made from ${manifest.sourceDataDir}; keep a copy of that file apart from the backups), or --trust-unsigned to restore it unchecked (only an archive you know nobody changed). ${nothing}`
  if (!signature)
    throw new AppError(
      'INVALID_REQUEST',
      `The archive ${archive} is not signed (made before deskhook signed its backups, or its signature was removed), so nothing shows it is unchanged: restore it with --trust-unsigned only if you know nobody changed it. ${nothing}`,
    )
  if (!key)
    throw new AppError(
      'INVALID_REQUEST',
      `The archive ${archive} is signed (key ${signature.keyId}), but no key to check it was given: ${hint}`,
    )
  throw new AppError(
    'INVALID_REQUEST',
    `The archive ${archive} is signed with another key (${signature.keyId}) than ${keyFile} (${describeKey(key)}): ${hint}`,
  )
}

/** integrity_check, a schema this deskhook knows, and the counts the manifest recorded. */
function verifyDatabase(archive: string, file: string, manifest: Manifest): void {
  const sqlite = new Database(file, { strict: true })
  try {
    const check = integrityCheck(sqlite)
    if (check !== 'ok')
      throw new AppError(
        'INVALID_REQUEST',
        `The database in ${archive} fails integrity_check (${check}). Nothing was restored.`,
      )
    const knownNames = new Set(known.map((m) => m.name))
    const newer = manifest.schema.migrations.filter((m) => !knownNames.has(m))
    if (newer.length > 0)
      throw new AppError(
        'INVALID_REQUEST',
        `The backup was made by a newer deskhook (${manifest.deskhookVersion}; migration ${newer[0]} is unknown here). Restore it with that version or later. Nothing was restored.`,
      )
    const counts = readCounts(drizzle({ client: sqlite, schema }) as Db)
    if (JSON.stringify(counts) !== JSON.stringify(manifest.counts))
      throw new AppError(
        'INVALID_REQUEST',
        `The database in ${archive} does not hold what its manifest counts (${JSON.stringify(counts)}). Nothing was restored.`,
      )
  } finally {
    sqlite.close()
  }
}

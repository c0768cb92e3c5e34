import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { jobVersions } from '../../src/db/schema/index.ts'
import { restoreBackup } from '../../src/modules/backup/restore-backup.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { addJobVersion } from '../../src/modules/jobs/service.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { FakeRunner, TINY_JPEG } from '../helpers/fake-runner.ts'
import { liveJob, noopAutomation } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// P17: an online backup is consistent and restorable. The server takes calls (and its fake desktop
// runs them, writing steps and screenshots) while `deskhook backup` copies the data dir.

let s: TestServer
let desk: FakeRunner & { secret: string }
const work = tempDir('deskhook-backup-test-')
const archive = join(work.path, 'backup.tar.gz')
/** The tar file inside the archive (what an archive made before compression holds). */
const plainTar = () => gunzipSync(readFileSync(archive))
/** The key the source data dir signs its archives with (kept out of them). */
const signingKeyFile = () => join(s.dataDir, 'backup-signing.key')
/** Every 202 with the moment its answer arrived (this process's clock, as the CLI's). */
const acked: { id: string; at: number }[] = []
let backupCreatedAt = 0

const fire = async (n: number) => {
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      s.call(`/bk/echo?async=1&i=${i}`, { method: 'POST', json: { n: i } }),
    ),
  )
  for (const res of answers) {
    expect(res.status).toBe(202)
    acked.push({ id: ((await res.json()) as { jobExecutionId: string }).jobExecutionId, at: Date.now() })
  }
}

/** The tar entry (name, offset of its data) of the first entry whose name matches. */
function findEntry(tar: Buffer, match: (name: string) => boolean): { name: string; data: number } {
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar
      .subarray(at, at + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '')
    if (!name) break
    const size = Number.parseInt(
      tar
        .subarray(at + 124, at + 136)
        .toString('utf8')
        .replace(/\0.*$/s, '')
        .trim(),
      8,
    )
    if (match(name)) return { name, data: at + 512 }
    at += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error('no such entry')
}

/** Every file under a folder, as paths relative to it (hidden ones too). */
function listFiles(root: string, rel = ''): string[] {
  return readdirSync(join(root, rel)).flatMap((name) => {
    const path = rel ? `${rel}/${name}` : name
    return statSync(join(root, path)).isDirectory() ? listFiles(root, path) : [path]
  })
}

beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 100 })
  const jobId = await liveJob(s, 'POST', '/bk/echo', noopAutomation(2))
  addJobVersion(s.ctx, jobId, noopAutomation(4))
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
  // Finished runs with step screenshots on disk.
  await fire(20)
  await eventually(async () => {
    const polls = await Promise.all(acked.map(async (a) => (await s.call(`/_executions/${a.id}`)).json()))
    return (
      polls.every((p) => p.done) &&
      acked.every((a) => existsSync(join(s.dataDir, 'screenshots', a.id, '2.jpg')))
    )
  }, 15_000)
})
afterAll(async () => {
  desk?.close()
  await s.close()
  work.remove()
})

describe('deskhook backup (P17)', () => {
  test('under write load: one archive with the database, the screenshots and a manifest', async () => {
    let firing = true
    const load = (async () => {
      while (firing) await fire(5)
    })()
    const r = await cli(['backup', '--data', s.dataDir, '--out', archive, '--json'])
    firing = false
    await load
    expect(r.stderr).toContain('copying the database')
    expect(r.code).toBe(0)
    const summary = JSON.parse(r.stdout)
    backupCreatedAt = Date.parse(summary.createdAt)
    expect(summary.archive).toBe(archive)
    expect(summary.counts.jobs).toBe(1)
    expect(summary.counts.jobVersions).toBe(2)
    expect(summary.files.screenshots).toBeGreaterThanOrEqual(40)
    expect(summary.bytes).toBe(readFileSync(archive).length)
    // gzip's magic bytes, and smaller than the tar it holds.
    expect([...readFileSync(archive).subarray(0, 2)]).toEqual([0x1f, 0x8b])
    expect(summary.bytes).toBeLessThan(plainTar().length)
    // Calls were accepted while the copy ran.
    expect(acked.filter((a) => a.at > backupCreatedAt).length).toBeGreaterThan(0)
  }, 30_000)

  test('status: sizes, counts, the oldest run and free space, without changing the dir', async () => {
    const r = await cli(['status', '--data', s.dataDir, '--json'])
    expect(r.code).toBe(0)
    const status = JSON.parse(r.stdout)
    expect(status.serverPid).toBe(process.pid)
    expect(status.databaseBytes).toBeGreaterThan(0)
    expect(status.screenshots.files).toBeGreaterThanOrEqual(40)
    expect(status.counts.executions).toBeGreaterThanOrEqual(20)
    expect(status.counts.executionsByStatus.succeeded).toBeGreaterThanOrEqual(20)
    expect(Date.parse(status.oldestRunAt)).toBeLessThanOrEqual(acked[0]!.at)
    expect(status.freeBytes).toBeGreaterThan(0)
    const text = await cli(['status', '--data', s.dataDir])
    expect(text.stdout).toMatch(/free disk\s+\d/)
  })
})

describe('deskhook restore (P17)', () => {
  test('into a new dir: every run acknowledged before the backup, every job version, the screenshots; it serves', async () => {
    const target = join(work.path, 'restored')
    const r = await cli(['restore', archive, '--data', target, '--signing-key', signingKeyFile()])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`into ${target}`)
    expect(r.stdout).toMatch(/1 jobs \(2 versions\)/)

    const s2 = await startTestServer({}, { dataDir: target })
    try {
      const before = acked.filter((a) => a.at < backupCreatedAt)
      expect(before.length).toBeGreaterThanOrEqual(20)
      for (const a of before) {
        // The API keys came back too: the old key works on the restored server.
        const res = await s2.call(`/_executions/${a.id}`, { key: s.key })
        expect(res.status).toBe(200)
      }
      const shot = await s2.call(`/_executions/${acked[0]!.id}/steps/1/screenshot`, { key: s.key })
      expect(shot.status).toBe(200)
      expect(Buffer.from(await shot.arrayBuffer())).toEqual(TINY_JPEG)
      const versions = (db: TestServer['ctx']['db']) =>
        db
          .select()
          .from(jobVersions)
          .all()
          .sort((a, b) => a.version - b.version)
      expect(versions(s2.ctx.db)).toEqual(versions(s.ctx.db))
      expect(s2.ctx.db.$client.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    } finally {
      await s2.stop()
    }
  }, 30_000)

  test('one flipped byte in a screenshot: refused, naming the file; nothing is restored', async () => {
    const tar = plainTar()
    const entry = findEntry(tar, (n) => n.startsWith('screenshots/'))
    tar.writeUInt8(tar.readUInt8(entry.data + 3) ^ 0x01, entry.data + 3)
    const bad = join(work.path, 'flipped.tar.gz')
    writeFileSync(bad, gzipSync(tar))
    const target = join(work.path, 'never')
    const r = await cli(['restore', bad, '--data', target])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(entry.name)
    expect(r.stderr).toContain('fails its checksum')
    expect(existsSync(target)).toBe(false)
  })

  test('one flipped byte in the database: refused, naming it', async () => {
    const tar = plainTar()
    const entry = findEntry(tar, (n) => n === 'deskhook.db')
    tar.writeUInt8(tar.readUInt8(entry.data + 5000) ^ 0x40, entry.data + 5000)
    const bad = join(work.path, 'flipped-db.tar.gz')
    writeFileSync(bad, gzipSync(tar))
    const r = await cli(['restore', bad, '--data', join(work.path, 'never-db')])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('deskhook.db fails its checksum')
  })

  test('an archive from before compression (a plain .tar): restored the same way', async () => {
    const old = join(work.path, 'before-gzip.tar')
    writeFileSync(old, plainTar())
    const target = join(work.path, 'from-plain-tar')
    const r = await cli(['restore', old, '--data', target, '--json', '--signing-key', signingKeyFile()])
    expect(r.code).toBe(0)
    const summary = JSON.parse(r.stdout)
    expect(summary.counts.jobVersions).toBe(2)
    expect(summary.files.screenshots).toBeGreaterThanOrEqual(40)
    const db = new Database(join(target, 'deskhook.db'), { readonly: true })
    expect(db.query('SELECT count(*) AS n FROM job_versions').get()).toEqual({ n: 2 })
    db.close()
  })

  test('a damaged or cut-off compressed archive: refused as damaged; nothing is restored', async () => {
    const gz = readFileSync(archive)
    const flipped = Buffer.from(gz)
    const at = Math.floor(gz.length / 2)
    flipped.writeUInt8(flipped.readUInt8(at) ^ 0xff, at)
    const cut = gz.subarray(0, at)
    for (const [name, bytes] of [
      ['flipped-gzip.tar.gz', flipped],
      ['cut.tar.gz', cut],
    ] as const) {
      const bad = join(work.path, name)
      writeFileSync(bad, bytes)
      const target = join(work.path, `never-${name}`)
      const r = await cli(['restore', bad, '--data', target])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(`The archive ${bad} is damaged`)
      expect(existsSync(target)).toBe(false)
    }
  })

  test('durable: every restored file, then each folder holding it, then the data dir, is fsynced', async () => {
    const target = join(work.path, 'synced')
    const calls: { kind: 'file' | 'dir'; path: string }[] = []
    const summary = await restoreBackup({
      archive,
      dataDir: target,
      signingKey: signingKeyFile(),
      sync: {
        file: (path) => void calls.push({ kind: 'file', path }),
        dir: (path) => void calls.push({ kind: 'dir', path }),
      },
    })
    // The files were synced where they were unpacked: the staging folder, renamed away since.
    const staging = calls.find((c) => c.kind === 'dir' && basename(c.path).startsWith('.restore-'))!.path
    expect(dirname(staging)).toBe(target)
    const synced = calls.filter((c) => c.kind === 'file').map((c) => relative(staging, c.path))
    const restored = listFiles(target).filter((f) => f !== 'deskhook.lock')
    expect(synced.sort()).toEqual(restored.sort())
    expect(synced.filter((f) => f.startsWith('screenshots/')).length).toBe(summary.files.screenshots)
    // Each folder after the files in it; the staging folder after its subfolders.
    const index = (kind: string, path: string) => calls.findIndex((c) => c.kind === kind && c.path === path)
    for (const c of calls.filter((x) => x.kind === 'file')) {
      const folder = index('dir', dirname(c.path))
      expect(folder).toBeGreaterThan(calls.indexOf(c))
    }
    // Last: the data dir (the renames into it), then its parent (the dir was new).
    expect(calls.at(-2)).toEqual({ kind: 'dir', path: target })
    expect(calls.at(-1)).toEqual({ kind: 'dir', path: work.path })
  })

  test.skipIf(!Bun.which('strace'))(
    'durable for real: the restore process fsyncs every restored file and the data dir (strace)',
    async () => {
      const target = join(work.path, 'straced')
      const trace = join(work.path, 'restore.strace')
      const proc = Bun.spawn(
        [
          'strace',
          ...['-f', '-qq', '-y', '-e', 'trace=fsync,fdatasync', '-o', trace],
          ...[process.execPath, join(import.meta.dir, '../../src/main.ts'), 'restore', archive],
          ...['--data', target, '--signing-key', signingKeyFile()],
        ],
        { stdout: 'pipe', stderr: 'pipe' },
      )
      expect(await proc.exited).toBe(0)
      // `fsync(7</path/as/it/was/then>) = 0`, in the order they ran.
      const synced = readFileSync(trace, 'utf8')
        .split('\n')
        .map((l) => /f(?:data)?sync\(\d+<([^>]*)>\)\s+= 0/.exec(l)?.[1])
        .filter((p): p is string => p !== undefined)
      const unstaged = (p: string) => relative(target, p).replace(/^\.restore-[^/]+\/?/, '')
      const files = new Set(synced.map(unstaged))
      for (const f of listFiles(target).filter((x) => x !== 'deskhook.lock')) expect(files).toContain(f)
      // The data dir itself, after the last restored file was synced.
      expect(synced.lastIndexOf(target)).toBeGreaterThan(
        Math.max(...listFiles(target).map((f) => synced.findLastIndex((p) => unstaged(p) === f))),
      )
    },
    30_000,
  )

  test('into the data dir of a running server: refused, even with --force; the server is untouched', async () => {
    for (const extra of [[], ['--force']]) {
      const r = await cli(['restore', archive, '--data', s.dataDir, ...extra])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(`in use by another deskhook server (PID ${process.pid})`)
    }
    expect(
      readdirSync(s.dataDir).some((n) => n.startsWith('.restore-') || n.startsWith('.before-restore')),
    ).toBe(false)
    expect((await s.call(`/_executions/${acked[0]!.id}`)).status).toBe(200)
  })

  test('into a non-empty dir: refused without --force; with it, the old contents are moved aside', async () => {
    const target = join(work.path, 'occupied')
    mkdirSync(target)
    writeFileSync(join(target, 'notes.txt'), 'keep me')
    const refused = await cli(['restore', archive, '--data', target])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('is not empty (notes.txt)')
    expect(existsSync(join(target, 'deskhook.db'))).toBe(false)

    const r = await cli([
      'restore',
      archive,
      '--data',
      target,
      '--force',
      '--json',
      '--signing-key',
      signingKeyFile(),
    ])
    expect(r.code).toBe(0)
    const summary = JSON.parse(r.stdout)
    expect(readFileSync(join(summary.previousContents, 'notes.txt'), 'utf8')).toBe('keep me')
    const db = new Database(join(target, 'deskhook.db'), { readonly: true })
    expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    db.close()
  })
})

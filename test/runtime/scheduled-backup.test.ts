import { afterEach, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { jobs } from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { createBackupInChildProcess } from '../../src/modules/backup/backup-process.ts'
import { archiveName, createBackup } from '../../src/modules/backup/create-backup.ts'
import { dataDirStatus } from '../../src/modules/backup/data-dir-status.ts'
import { lastScheduledBackup } from '../../src/modules/backup/last-scheduled.ts'
import { restoreBackup } from '../../src/modules/backup/restore-backup.ts'
import { ScheduledBackup, scheduledBackupFor } from '../../src/runtime/scheduled-backup.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { fakeClock } from '../helpers/clocked-server.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer } from '../helpers/test-server.ts'

const HOUR = 3_600_000
const T0 = Date.parse('2031-06-01T12:00:00.000Z')

/** Resolves after `n` turns of the event loop (no wall-clock sleeps). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

interface Harness {
  ctx: AppContext
  clock: ReturnType<typeof fakeClock>
  logs: string[]
  /** The backup dir (not yet created: the service makes it). */
  backups: string
  work: string
}
const cleanup: (() => void)[] = []
afterEach(() => {
  for (const done of cleanup.splice(0)) done()
})

/** A data dir with one job, its context on a fake clock, and a backup dir beside it. */
function harness(): Harness {
  const work = tempDir('deskhook-scheduled-backup-')
  const dataDir = join(work.path, 'data')
  mkdirSync(dataDir)
  const db = openDatabase(dataDir)
  migrate(db.$client)
  const clock = fakeClock(T0)
  const logs: string[] = []
  const destination = { write: (l: string) => logs.push(l) > 0 } as unknown as NodeJS.WritableStream
  const ctx = createContext({
    config: loadConfig({ dataDir }, {}),
    db,
    log: createLogger({ level: 'info', format: 'json', destination }),
    clock,
  })
  const now = clock.now().toISOString()
  db.insert(jobs)
    .values({
      id: 'job-1',
      method: 'POST',
      path: '/customers',
      prompt: 'Add one',
      createdAt: now,
      updatedAt: now,
    })
    .run()
  cleanup.push(() => {
    db.$client.close()
    work.remove()
  })
  return { ctx, clock, logs, backups: join(work.path, 'backups'), work: work.path }
}

const archivesIn = (dir: string) =>
  readdirSync(dir)
    .filter((n) => n.endsWith('.tar.gz'))
    .sort()

describe('scheduled backups', () => {
  test('the backup runs in a child process (deskhook backup --json), whose error comes back as the reason', async () => {
    const h = harness()
    const summary = await createBackupInChildProcess({
      dataDir: h.ctx.config.dataDir,
      out: join(h.work, 'a.tar.gz'),
    })
    expect(summary.archive).toBe(join(h.work, 'a.tar.gz'))
    expect(summary.counts.jobs).toBe(1)
    expect(summary.bytes).toBe(Bun.file(summary.archive).size)
    await expect(
      createBackupInChildProcess({ dataDir: join(h.work, 'no-such-dir'), out: join(h.work, 'b.tar.gz') }),
    ).rejects.toThrow(/No deskhook database at/)
  })

  test('runOnce: a restorable archive in the dir, logged and recorded for deskhook status', async () => {
    const h = harness()
    const service = new ScheduledBackup(h.ctx, { dir: h.backups })
    const record = await service.runOnce()
    expect(record.error).toBeUndefined()
    expect(record.file).toBe(join(h.backups, archiveName(new Date(T0))))
    expect(record.bytes).toBe(Bun.file(record.file!).size)
    expect(h.logs.some((l) => l.includes('scheduled backup written'))).toBe(true)
    expect(lastScheduledBackup(h.ctx.db)).toEqual(record)
    expect((await dataDirStatus(h.ctx.config.dataDir)).lastScheduledBackup).toEqual(record)

    const restored = await restoreBackup({
      archive: record.file!,
      dataDir: join(h.work, 'restored'),
      signingKey: join(h.ctx.config.dataDir, 'backup-signing.key'),
    })
    expect(restored.counts.jobs).toBe(1)
  })

  test('keeps the newest N archives and never touches other files in the dir', async () => {
    const h = harness()
    mkdirSync(h.backups)
    writeFileSync(join(h.backups, 'notes.txt'), 'mine')
    writeFileSync(join(h.backups, 'deskhook-backup-20000101-000000.tar'), 'an old uncompressed one')
    const service = new ScheduledBackup(h.ctx, { dir: h.backups, keep: 2 })
    const written: string[] = []
    for (let i = 0; i < 4; i++) {
      written.push((await service.runOnce()).file!)
      h.clock.advance(HOUR)
    }
    expect(archivesIn(h.backups).map((n) => join(h.backups, n))).toEqual(written.slice(2))
    expect(existsSync(join(h.backups, 'notes.txt'))).toBe(true)
    expect(existsSync(join(h.backups, 'deskhook-backup-20000101-000000.tar'))).toBe(true)
  })

  test('a backup dir inside the data dir: no archive holds the earlier ones', async () => {
    const h = harness()
    const inside = join(h.ctx.config.dataDir, 'backups')
    const service = new ScheduledBackup(h.ctx, { dir: inside })
    await service.runOnce()
    h.clock.advance(HOUR)
    const second = await service.runOnce()
    const target = join(h.work, 'restored-inside')
    const restored = await restoreBackup({
      archive: second.file!,
      dataDir: target,
      signingKey: join(h.ctx.config.dataDir, 'backup-signing.key'),
    })
    expect(restored.files.config).toBe(0)
    expect(existsSync(join(target, 'backups'))).toBe(false)
  })

  test('a failure is logged and recorded (with the last backup that worked), never thrown', async () => {
    const h = harness()
    const service = new ScheduledBackup(h.ctx, { dir: h.backups })
    const first = await service.runOnce()
    // The backup dir becomes a file: the next attempt cannot write there.
    rmSync(h.backups, { recursive: true })
    writeFileSync(h.backups, 'not a dir')
    h.clock.advance(HOUR)
    const failed = await service.runOnce()
    expect(failed.file).toBeUndefined()
    expect(failed.error).toMatch(/EEXIST|ENOTDIR|exists|not a directory/i)
    expect(failed.lastSuccess).toEqual({ at: first.at, file: first.file!, bytes: first.bytes! })
    expect(h.logs.some((l) => l.includes('scheduled backup failed') && l.includes('"level":50'))).toBe(true)
    expect(lastScheduledBackup(h.ctx.db)).toEqual(failed)

    const status = await cli(['status', '--data', h.ctx.config.dataDir])
    expect(status.stdout).toMatch(new RegExp(`last backup\\s+${first.at} ${first.file}`))
    expect(status.stdout).toMatch(/backup failed\s+2031-06-01T13:00:00\.000Z: /)

    rmSync(h.backups)
    h.clock.advance(HOUR)
    expect((await service.runOnce()).error).toBeUndefined()
  })

  test('stop() waits for the backup in flight, whose archive is complete when it resolves', async () => {
    const h = harness()
    const started = deferred()
    const gate = deferred()
    const service = new ScheduledBackup(h.ctx, {
      dir: h.backups,
      backup: async (opts) => {
        started.resolve()
        await gate.promise
        return createBackup(opts)
      },
    })
    const running = service.runOnce()
    await started.promise
    let stopped = false
    const stopping = service.stop().then(() => {
      stopped = true
    })
    await turns(20)
    expect(stopped).toBe(false)
    gate.resolve()
    await stopping
    const record = await running
    expect(record.error).toBeUndefined()
    expect(existsSync(record.file!)).toBe(true)
  })

  test('start(): the next backup follows the newest archive in the dir', async () => {
    const next = async (newestAgoMs: number | null) => {
      const h = harness()
      mkdirSync(h.backups)
      if (newestAgoMs !== null) writeFileSync(join(h.backups, archiveName(new Date(T0 - newestAgoMs))), '')
      const service = new ScheduledBackup(h.ctx, {
        dir: h.backups,
        everyMs: 24 * HOUR,
        firstRunDelayMs: 60_000,
      })
      await service.start()
      await service.stop()
      return JSON.parse(h.logs.find((l) => l.includes('scheduled backups on'))!).next
    }
    // None yet, or the newest is overdue: shortly after start. Else: a day after the newest.
    expect(await next(null)).toBe('2031-06-01T12:01:00.000Z')
    expect(await next(30 * HOUR)).toBe('2031-06-01T12:01:00.000Z')
    expect(await next(2 * HOUR)).toBe('2031-06-02T10:00:00.000Z')
  })

  test('on its timer: again every interval; nothing after stop()', async () => {
    const h = harness()
    let calls = 0
    const service = new ScheduledBackup(h.ctx, {
      dir: h.backups,
      everyMs: 5,
      firstRunDelayMs: 0,
      backup: (opts) => {
        calls++
        return createBackup(opts)
      },
    })
    await service.start()
    await eventually(async () => calls >= 3)
    await service.stop()
    const after = calls
    // Many intervals' worth of time: a stopped service must not back up again.
    const until = Date.now() + 100
    await eventually(async () => Date.now() > until)
    expect(calls).toBe(after)
    expect(scheduledBackupFor(h.ctx)).toBeUndefined()
  })
})

describe('scheduled backups in the server', () => {
  test('--backup-dir: backs up while serving, shows in deskhook status, restores; stops first', async () => {
    const work = tempDir('deskhook-served-backup-')
    cleanup.push(() => work.remove())
    const backups = join(work.path, 'backups')
    const s = await startTestServer({ backupDir: backups, backupKeep: '3' })
    let record: Awaited<ReturnType<ScheduledBackup['runOnce']>>
    try {
      const service = scheduledBackupFor(s.ctx)!
      expect(service).toBeDefined()
      record = await service.runOnce()
      expect(record.error).toBeUndefined()
      expect(archivesIn(backups)).toEqual([archiveName(new Date(record.at))])

      const status = await cli(['status', '--data', s.dataDir, '--json'])
      expect(JSON.parse(status.stdout).lastScheduledBackup).toEqual(record)
      // The key that signed the archive, kept apart as an admin would (it is never in an archive).
      copyFileSync(join(s.dataDir, 'backup-signing.key'), join(work.path, 'backup-signing.key'))
    } finally {
      await s.close()
    }
    const order = s.logs
      .filter((l) => l.includes('"msg":"service stopped"'))
      .map((l) => JSON.parse(l).service as string)
    expect(order[0]).toBe('scheduled backup')

    const target = join(work.path, 'restored')
    const restored = await cli([
      'restore',
      record.file!,
      '--data',
      target,
      '--signing-key',
      join(work.path, 'backup-signing.key'),
    ])
    expect(restored.code).toBe(0)
    expect(restored.stdout).toContain(`into ${target}`)
  }, 30_000)
})

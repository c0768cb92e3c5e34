/**
 * `bun bench/backup.ts [runs]`: how long `deskhook backup` takes on a data dir of 100,000 finished
 * runs (each with 3 replay steps, seeded directly with SQL, no screenshot files), the archive's
 * size, and how long a restore of it takes (unpack, checksums, integrity_check, move into place).
 * Prints one JSON object. Everything lives in a temp dir that is removed at the end.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '../src/db/client.ts'
import { migrate } from '../src/db/migrate.ts'
import { createBackup } from '../src/modules/backup/create-backup.ts'
import { restoreBackup } from '../src/modules/backup/restore-backup.ts'
import { tempDir } from '../test/helpers/temp-dir.ts'

const RUNS = Number(process.argv[2] ?? 100_000)
const work = tempDir('deskhook-bench-backup-')
const dataDir = join(work.path, 'data')

function seed(): void {
  const db = openDatabase(dataDir)
  const sqlite = db.$client
  migrate(sqlite)
  const now = Date.now()
  sqlite.transaction(() => {
    sqlite.run(
      `INSERT INTO jobs (id, method, path, mode, prompt, live_version, created_at, updated_at)
       VALUES ('job-1', 'POST', '/customers', 'live', 'Create a customer', 1, ?, ?)`,
      [new Date(now).toISOString(), new Date(now).toISOString()],
    )
    sqlite.run(
      `INSERT INTO job_versions (job_id, version, automation, created_at) VALUES ('job-1', 1, ?, ?)`,
      [JSON.stringify({ version: 1, app: {}, steps: [], scenarios: [] }), new Date(now).toISOString()],
    )
  })()
  const exec = sqlite.prepare(
    `INSERT INTO executions (id, job_id, job_version, status, input, timeout_ms, result, http_status, scenario,
       request_id, base_url, queued_at, started_at, finished_at)
     VALUES (?, 'job-1', 1, 'succeeded', ?, 600000, ?, 200, 'main', ?, 'http://127.0.0.1:8080', ?, ?, ?)`,
  )
  const step = sqlite.prepare(
    `INSERT INTO execution_steps (execution_seq, execution_order, flow_name, total_steps, status, result, started_at, finished_at)
     VALUES (?, ?, ?, 3, 'SUCCESS', ?, ?, ?)`,
  )
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = new Date(now - (RUNS - i) * 1000).toISOString()
      const input = {
        name: `Customer ${i}`,
        email: `c${i}@example.test`,
        _http: { method: 'POST', path: '/customers' },
      }
      const r = exec.run(
        Bun.randomUUIDv7(),
        JSON.stringify(input),
        JSON.stringify({ customerId: `C-${i}`, created: true }),
        crypto.randomUUID(),
        at,
        at,
        at,
      )
      for (let n = 1; n <= 3; n++)
        step.run(r.lastInsertRowid, n, `Step ${n}`, JSON.stringify({ done: `Step ${n}` }), at, at)
    }
  })
  for (let i = 0; i < RUNS; i += 10_000) batch.immediate(i, Math.min(RUNS, i + 10_000))
  sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
  sqlite.close()
}

try {
  const seedStart = performance.now()
  seed()
  const seedMs = Math.round(performance.now() - seedStart)
  const dbBytes = Bun.file(join(dataDir, 'deskhook.db')).size
  const backup = await createBackup({ dataDir, out: join(work.path, 'backup.tar') })
  const restoreStart = performance.now()
  await restoreBackup({ archive: backup.archive, dataDir: join(work.path, 'restored') })
  const restoreMs = Math.round(performance.now() - restoreStart)
  console.log(
    JSON.stringify(
      {
        runs: RUNS,
        steps: RUNS * 3,
        seedMs,
        databaseBytes: dbBytes,
        backupMs: backup.durationMs,
        archiveBytes: backup.bytes,
        restoreMs,
      },
      null,
      2,
    ),
  )
} finally {
  rmSync(work.path, { recursive: true, force: true })
}

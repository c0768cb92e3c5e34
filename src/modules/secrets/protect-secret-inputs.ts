import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobs } from '../../db/schema/index.ts'
import { digestSubmittedValues } from '../builds/submitted.ts'
import { sealJobSamples } from './sample-secrets.ts'
import { mergeSecretInputs } from './secret-inputs.ts'

/**
 * What a job keeps of its secret inputs' values: its samples seal them, the values it remembers
 * submitting digest them. Run whenever a path becomes secret (a teaching call names it, an import
 * brings it, the builder types it into a password field) and once at each start, for rows an
 * earlier version stored in clear. Returns how many samples it sealed.
 */
export function protectSecretInputs(
  ctx: AppContext,
  tx: Pick<AppContext['db'], 'select' | 'update' | 'insert' | 'delete'>,
  jobId: string,
  paths: readonly string[],
): number {
  if (paths.length === 0) return 0
  digestSubmittedValues(ctx, tx, jobId, paths)
  return sealJobSamples(ctx, tx, jobId, paths)
}

/**
 * Adds input members to a job's secret inputs (the builder found them typed into password
 * fields) and seals the values its samples hold there. Never removes one: once secret, always
 * secret.
 */
export function markSecretInputs(ctx: AppContext, jobId: string, paths: readonly string[]): void {
  if (paths.length === 0) return
  const changed = zeroingFreedSpace(ctx, () =>
    ctx.db.transaction(
      (tx) => {
        const row = tx.select({ secretInputs: jobs.secretInputs }).from(jobs).where(eq(jobs.id, jobId)).get()
        if (!row || paths.every((p) => row.secretInputs.includes(p))) return false
        const secretInputs = mergeSecretInputs(row.secretInputs, paths)
        tx.update(jobs)
          .set({ secretInputs, updatedAt: ctx.clock.now().toISOString() })
          .where(eq(jobs.id, jobId))
          .run()
        protectSecretInputs(ctx, tx, jobId, secretInputs)
        return true
      },
      { behavior: 'immediate' },
    ),
  )
  if (changed) ctx.events.emit('jobs.changed', jobId)
}

/** Set once a start-up sweep has sealed everything: from this version on, nothing is stored in clear. */
const SWEPT = 'secret_inputs_sealed'

/**
 * At the first start of this version: seals what an earlier version left in clear (before samples
 * sealed secret inputs). Once it went through without an error it is never run again.
 */
export function protectStoredSecretInputs(ctx: AppContext): number {
  const sqlite = ctx.db.$client
  if (sqlite.query('SELECT 1 FROM settings WHERE key = ?').get(SWEPT)) return 0
  let failed = false
  const secretJobs = ctx.db
    .select({ id: jobs.id, secretInputs: jobs.secretInputs })
    .from(jobs)
    .all()
    .filter((j) => j.secretInputs.length > 0)
  let sealed = 0
  zeroingFreedSpace(ctx, () => {
    for (const job of secretJobs) {
      try {
        sealed += ctx.db.transaction((tx) => protectSecretInputs(ctx, tx, job.id, job.secretInputs), {
          behavior: 'immediate',
        })
      } catch (err) {
        // An unusable secrets.key must not keep the server from starting; the next start tries again.
        failed = true
        ctx.log.error({ err, jobId: job.id }, "could not seal the job samples' secret inputs")
      }
    }
  })
  if (sealed) {
    // The clear rows' pages leave the write-ahead log for the file, where their old text is zeroed.
    ctx.db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
    ctx.log.info({ samples: sealed }, "sealed samples' secret input values stored in clear")
  }
  if (!failed)
    sqlite
      .query('INSERT OR IGNORE INTO settings (key, value, updated_at) VALUES (?, ?, ?)')
      .run(SWEPT, 'true', ctx.clock.now().toISOString())
  return sealed
}

/** Runs `work` with SQLite zeroing what it frees, so a value rewritten sealed leaves no clear copy. */
function zeroingFreedSpace<T>(ctx: AppContext, work: () => T): T {
  const before = ctx.db.$client.query<{ secure_delete: number }, []>('PRAGMA secure_delete').get()
  ctx.db.$client.run('PRAGMA secure_delete = ON')
  try {
    return work()
  } finally {
    ctx.db.$client.run(`PRAGMA secure_delete = ${before?.secure_delete ? 'ON' : 'OFF'}`)
  }
}

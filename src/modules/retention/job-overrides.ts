import { eq, like } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { settings } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { type Actor, SYSTEM_ACTOR } from '../audit/actor.ts'
import { recordAudit } from '../audit/record.ts'
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS, type RetentionPolicy } from './service.ts'

/**
 * A job's own retention: either age may be set, the other follows the workspace policy. Kept in
 * the settings table (one row per job that has one), so no schema change is needed and the CLI's
 * changes reach a running server at its next pass.
 */
export type JobRetention = Partial<RetentionPolicy>

const PREFIX = 'retention_job:'

/**
 * A duration in whole days: `7d`, `2w` or a bare `30`; `default` (or empty) clears the override.
 * Returns null for "clear".
 */
export function parseRetentionAge(label: string, raw: string): number | null {
  const text = raw.trim().toLowerCase()
  if (text === '' || text === 'default') return null
  const m = /^(\d{1,5})\s*([dw]?)$/.exec(text)
  const days = m ? Number(m[1]) * (m[2] === 'w' ? 7 : 1) : Number.NaN
  if (!(days >= MIN_RETENTION_DAYS && days <= MAX_RETENTION_DAYS))
    throw new AppError(
      'INVALID_REQUEST',
      `${label}: give an age such as 7d or 2w (${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS} days), or "default"`,
    )
  return days
}

const valid = (n: unknown): n is number =>
  Number.isInteger(n) && (n as number) >= MIN_RETENTION_DAYS && (n as number) <= MAX_RETENTION_DAYS

function decode(value: string): JobRetention {
  try {
    const v = JSON.parse(value) as Record<string, unknown>
    return {
      ...(valid(v.screenshotDays) && { screenshotDays: v.screenshotDays }),
      ...(valid(v.runDays) && { runDays: v.runDays }),
    }
  } catch {
    return {}
  }
}

export function getJobRetention(ctx: AppContext, jobId: string): JobRetention {
  const row = ctx.db
    .select()
    .from(settings)
    .where(eq(settings.key, PREFIX + jobId))
    .get()
  return row ? decode(row.value) : {}
}

/** Every job that has its own retention (few: a pass runs once per such job). */
export function listJobRetention(ctx: AppContext): Map<string, JobRetention> {
  const rows = ctx.db
    .select()
    .from(settings)
    .where(like(settings.key, `${PREFIX}%`))
    .all()
  const out = new Map<string, JobRetention>()
  for (const row of rows) {
    const policy = decode(row.value)
    if (policy.screenshotDays !== undefined || policy.runDays !== undefined)
      out.set(row.key.slice(PREFIX.length), policy)
  }
  return out
}

/**
 * Sets or clears each age (`undefined` leaves it as it is, `null` clears it). With both cleared
 * the job follows the workspace policy again. The change and its `settings.changed` audit row
 * (who, and the ages before and after) commit together, from the dashboard and the CLI alike.
 * Returns the job's override as stored.
 */
export function setJobRetention(
  ctx: AppContext,
  jobId: string,
  change: { screenshotDays?: number | null; runDays?: number | null },
  actor: Actor = SYSTEM_ACTOR,
): JobRetention {
  for (const key of ['screenshotDays', 'runDays'] as const) {
    const v = change[key]
    if (v !== null && v !== undefined && !valid(v))
      throw new AppError('INVALID_REQUEST', `${key} must be ${MIN_RETENTION_DAYS}–${MAX_RETENTION_DAYS} days`)
  }
  const key = PREFIX + jobId
  return ctx.db.transaction(
    (tx) => {
      const row = tx.select().from(settings).where(eq(settings.key, key)).get()
      const before = row ? decode(row.value) : {}
      const next: JobRetention = { ...before }
      for (const k of ['screenshotDays', 'runDays'] as const) {
        const v = change[k]
        if (v === null) delete next[k]
        else if (v !== undefined) next[k] = v
      }
      if (next.screenshotDays === undefined && next.runDays === undefined)
        tx.delete(settings).where(eq(settings.key, key)).run()
      else {
        const value = JSON.stringify(next)
        const updatedAt = ctx.clock.now().toISOString()
        tx.insert(settings)
          .values({ key, value, updatedAt })
          .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } })
          .run()
      }
      // null: the workspace's setting applies.
      const ages = (r: JobRetention) => ({
        screenshotDays: r.screenshotDays ?? null,
        runDays: r.runDays ?? null,
      })
      recordAudit(
        ctx,
        {
          actor,
          action: 'settings.changed',
          target: { kind: 'job', id: jobId },
          details: { setting: 'retention', from: ages(before), to: ages(next) },
        },
        tx,
      )
      return next
    },
    { behavior: 'immediate' },
  )
}

/** The ages in force for a job: its own where set, the workspace policy for the rest. */
export const effectiveRetention = (workspace: RetentionPolicy, job: JobRetention): RetentionPolicy => ({
  screenshotDays: job.screenshotDays ?? workspace.screenshotDays,
  runDays: job.runDays ?? workspace.runDays,
})

import { eq, inArray } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { settings } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'

/** How long step screenshots and finished runs are kept, in days. */
export interface RetentionPolicy {
  screenshotDays: number
  runDays: number
}

export const RETENTION_DEFAULTS: RetentionPolicy = { screenshotDays: 30, runDays: 180 }
export const MIN_RETENTION_DAYS = 1
/** Ten years: beyond that, "keep forever" is what is meant, and this is close enough. */
export const MAX_RETENTION_DAYS = 3650

/** What one pass of the retention task did (kept in the settings table for the settings page). */
export interface RetentionReport {
  startedAt: string
  finishedAt: string
  /** Step screenshots removed from runs that are kept. */
  screenshots: number
  /** Finished runs removed, with their steps, screenshots and status-event history. */
  runs: number
  /** Screenshot folders of "show me" recordings whose build is gone (deleted with its job or sample). */
  recordings?: number
  /** Audit log rows older than `--audit-days` removed (oldest first; the chain stays verifiable). */
  auditRows?: number
  /** Transactions it took (each a small batch, so calls never wait long behind it). */
  batches: number
  policy: RetentionPolicy
  /** Set when the pass stopped on an error (what it removed before that is counted). */
  error?: string
}

const KEYS = { screenshotDays: 'retention_screenshot_days', runDays: 'retention_run_days' } as const
const LAST_RUN_KEY = 'retention_last_run'

type DbOrTx = AppContext['db'] | Parameters<Parameters<AppContext['db']['transaction']>[0]>[0]

function upsert(db: DbOrTx, key: string, value: string, updatedAt: string): void {
  db.insert(settings)
    .values({ key, value, updatedAt })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } })
    .run()
}

/** The policy in force: stored values, or the defaults for what was never set. */
export function getRetention(ctx: AppContext): RetentionPolicy {
  const rows = ctx.db
    .select()
    .from(settings)
    .where(inArray(settings.key, Object.values(KEYS)))
    .all()
  const stored = (key: string, fallback: number) => {
    const n = Number(rows.find((r) => r.key === key)?.value)
    return Number.isInteger(n) && n >= MIN_RETENTION_DAYS && n <= MAX_RETENTION_DAYS ? n : fallback
  }
  return {
    screenshotDays: stored(KEYS.screenshotDays, RETENTION_DEFAULTS.screenshotDays),
    runDays: stored(KEYS.runDays, RETENTION_DEFAULTS.runDays),
  }
}

const LABELS: Record<keyof RetentionPolicy, string> = {
  screenshotDays: 'Screenshots',
  runDays: 'Finished runs',
}

/** Whole days in range, from a form's text; anything else is refused with a message naming the field. */
export function parseDays(field: keyof RetentionPolicy, raw: unknown): number {
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : ''
  const n = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN
  if (!(n >= MIN_RETENTION_DAYS && n <= MAX_RETENTION_DAYS))
    throw new AppError(
      'INVALID_REQUEST',
      `${LABELS[field]}: enter a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}`,
      { field },
    )
  return n
}

export function setRetention(
  ctx: AppContext,
  input: Record<keyof RetentionPolicy, unknown>,
): RetentionPolicy {
  const policy = {
    screenshotDays: parseDays('screenshotDays', input.screenshotDays),
    runDays: parseDays('runDays', input.runDays),
  }
  const at = ctx.clock.now().toISOString()
  ctx.db.transaction((tx) => {
    upsert(tx, KEYS.screenshotDays, String(policy.screenshotDays), at)
    upsert(tx, KEYS.runDays, String(policy.runDays), at)
  })
  return policy
}

export function lastRetentionRun(ctx: AppContext): RetentionReport | null {
  const row = ctx.db.select().from(settings).where(eq(settings.key, LAST_RUN_KEY)).get()
  if (!row) return null
  try {
    return JSON.parse(row.value) as RetentionReport
  } catch {
    return null
  }
}

export function recordRetentionRun(ctx: AppContext, report: RetentionReport): void {
  upsert(ctx.db, LAST_RUN_KEY, JSON.stringify(report), ctx.clock.now().toISOString())
}

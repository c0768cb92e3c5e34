import { and, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { jobVersions } from '../../db/schema/index.ts'
import type { Automation } from '../../protocol/automation.ts'
import { automationDigest } from '../../protocol/run-signature.ts'
import { SCHEDULER_ACTOR } from '../audit/actor.ts'
import type { AuditEntry } from '../audit/record.ts'
import type { ExecutionRow } from './model.ts'

export interface DispatchAutomation {
  automation: Automation
  /** SHA-256 of its canonical JSON: recorded with each dispatch, covered by the run's signature. */
  sha256: string
}

/** Per context (not per module): every test builds its own app on its own database. */
const caches = new WeakMap<AppContext, Map<string, DispatchAutomation>>()

/**
 * A job version's automation as runs send it, with its digest. Versions never change once written,
 * so each is read and hashed once; the scheduler sends exactly the object whose digest the audit
 * row of its dispatch holds.
 */
export function dispatchAutomation(
  ctx: AppContext,
  jobId: string,
  version: number,
): DispatchAutomation | undefined {
  let cache = caches.get(ctx)
  if (!cache) {
    cache = new Map()
    caches.set(ctx, cache)
  }
  const key = `${jobId}:${version}`
  let found = cache.get(key)
  if (!found) {
    const row = ctx.db
      .select({ automation: jobVersions.automation })
      .from(jobVersions)
      .where(and(eq(jobVersions.jobId, jobId), eq(jobVersions.version, version)))
      .get()
    if (!row) return undefined
    const automation = row.automation as Automation
    found = { automation, sha256: automationDigest(automation) }
    cache.set(key, found)
  }
  return found
}

/**
 * The `execution.dispatched` row of a claimed execution, written in the claim's own transaction:
 * no run reaches an agent without it. A version that is missing (the run then fails unsent) is
 * recorded with no digest.
 */
export function dispatchAuditEntry(ctx: AppContext, row: ExecutionRow): AuditEntry {
  return {
    actor: SCHEDULER_ACTOR,
    action: 'execution.dispatched',
    target: { kind: 'execution', id: row.id },
    details: {
      jobId: row.jobId,
      jobVersion: row.jobVersion,
      desktopId: row.desktopId,
      lease: row.lease,
      automationSha256: dispatchAutomation(ctx, row.jobId, row.jobVersion)?.sha256 ?? null,
    },
  }
}

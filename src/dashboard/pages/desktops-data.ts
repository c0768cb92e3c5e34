import { eq, inArray } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { builds, executions, jobs } from '../../db/schema/index.ts'
import { type DesktopView, listDesktops } from '../../modules/desktops/service.ts'
import { activeRecordingFor } from '../../modules/recordings/service.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'

/** What a desktop is doing: a live run (the scheduler's) or a build holding it (the builder's). */
export type Activity =
  | { kind: 'run'; seq: number; method: string; path: string }
  | { kind: 'build'; id: string; status: string; method: string; path: string }

export type LiveStatus = 'online' | 'busy' | 'offline' | 'revoked'

export interface DesktopCard extends DesktopView {
  live: LiveStatus
  activity: Activity[]
  /** "Show me": who holds the desktop to demonstrate a task to a build, and which build. */
  demonstratedBy: { by: string; buildId: string } | null
}

type DesktopHub = Pick<AgentHub, 'onlineDesktops' | 'heldBy'>

/** Running executions by desktop, with their job's route (one query over the running ones). */
function runningRuns(ctx: AppContext): Map<string, Activity[]> {
  const rows = ctx.db
    .select({
      seq: executions.seq,
      desktopId: executions.desktopId,
      method: jobs.method,
      path: jobs.path,
    })
    .from(executions)
    .innerJoin(jobs, eq(jobs.id, executions.jobId))
    .where(eq(executions.status, 'running'))
    .orderBy(executions.seq)
    .all()
  const byDesktop = new Map<string, Activity[]>()
  for (const r of rows) {
    if (!r.desktopId) continue
    const list = byDesktop.get(r.desktopId) ?? []
    list.push({ kind: 'run', seq: r.seq, method: r.method, path: r.path })
    byDesktop.set(r.desktopId, list)
  }
  return byDesktop
}

/** The builds holding desktops now (the hub knows; the builds table does not say where). */
function heldByBuilds(ctx: AppContext, hub: DesktopHub, desktopIds: string[]): Map<string, Activity> {
  const held = new Map<string, string>()
  for (const id of desktopIds) {
    const buildId = hub.heldBy(id)
    if (buildId) held.set(buildId, id)
  }
  if (!held.size) return new Map()
  const rows = ctx.db
    .select({ id: builds.id, status: builds.status, method: jobs.method, path: jobs.path })
    .from(builds)
    .innerJoin(jobs, eq(jobs.id, builds.jobId))
    .where(inArray(builds.id, [...held.keys()]))
    .all()
  return new Map(rows.map((b) => [held.get(b.id)!, { kind: 'build', ...b }]))
}

/**
 * Every desktop with its status as the hub sees it now (the table's status is written lazily),
 * and what it runs. Revoked desktops come last.
 */
export function desktopCards(ctx: AppContext, hub: DesktopHub): DesktopCard[] {
  const online = new Map(hub.onlineDesktops().map((d) => [d.id, d]))
  const all = listDesktops(ctx)
  const runs = runningRuns(ctx)
  const builds = heldByBuilds(
    ctx,
    hub,
    all.map((d) => d.id),
  )
  return all
    .map((d): DesktopCard => {
      const live = online.get(d.id)
      const activity = [...(runs.get(d.id) ?? [])]
      const build = builds.get(d.id)
      if (build) activity.push(build)
      const recording = d.revokedAt ? null : activeRecordingFor(ctx, d.id)
      return {
        ...d,
        live: d.revokedAt ? 'revoked' : !live ? 'offline' : live.busy || activity.length ? 'busy' : 'online',
        activity,
        demonstratedBy: recording && { by: recording.startedBy, buildId: recording.buildId },
      }
    })
    .sort((a, b) => Number(a.live === 'revoked') - Number(b.live === 'revoked'))
}

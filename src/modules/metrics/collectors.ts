import type { AppContext } from '../../context.ts'
import type { BuildStatus } from '../../db/schema/builds.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { watchEventLoopLag } from './event-loop-lag.ts'
import { metricsOf } from './service.ts'

const BUILD_STATUSES: readonly BuildStatus[] = [
  'queued',
  'exploring',
  'waiting_for_answer',
  'verifying',
  'succeeded',
  'failed',
]

const started = new WeakMap<AppContext, { startedAt: number; lagSeconds(): number }>()

/**
 * Starts what is measured in the background (once per server): group-commit batches, from the
 * committer's own after-commit hook, and the event-loop lag timer, which ends as the server stops.
 */
export function startCollectors(ctx: AppContext): void {
  if (started.has(ctx)) return
  const m = metricsOf(ctx)
  ctx.writes.onCommit((_tags, batch) => {
    m.commitBatch.observe([], batch.size)
    m.commitDuration.observe([], batch.seconds)
  })
  const lag = watchEventLoopLag(ctx.stopping)
  started.set(ctx, { startedAt: performance.now(), lagSeconds: lag.lagSeconds })
}

/** Reads the gauges that are state rather than events (database, hub, process), then renders. */
export function scrape(ctx: AppContext, hub: AgentHub): string {
  const m = metricsOf(ctx)
  const sqlite = ctx.db.$client
  const queued = sqlite
    .query<{ n: number }, []>("SELECT count(*) AS n FROM executions WHERE status = 'queued'")
    .get()
  m.queueDepth.set([], queued?.n ?? 0)
  const builds = new Map(
    sqlite
      .query<{ status: string; n: number }, []>('SELECT status, count(*) AS n FROM builds GROUP BY status')
      .all()
      .map((r) => [r.status, r.n]),
  )
  m.builds.reset()
  for (const status of new Set([...BUILD_STATUSES, ...builds.keys()]))
    m.builds.set([status], builds.get(status) ?? 0)
  const desktops = hub.onlineDesktops()
  m.desktopsOnline.set([], desktops.length)
  m.desktopsBusy.set(
    [],
    desktops.reduce((n, d) => n + (d.busy ? 1 : 0), 0),
  )
  const running = started.get(ctx)
  m.eventLoopLag.set([], running?.lagSeconds() ?? 0)
  m.uptime.set([], running ? Math.round((performance.now() - running.startedAt) / 1000) : 0)
  m.residentMemory.set([], process.memoryUsage.rss())
  return m.registry.render()
}

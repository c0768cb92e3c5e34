import type { AppContext } from '../../context.ts'
import { getJobCached } from '../jobs/service.ts'
import { Counter, Gauge, Histogram, Registry } from './registry.ts'

/** Seconds, from 5 ms to 10 min: covers a quick queue hop and a long desktop run. */
const SECONDS_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600]
/** A group commit's BEGIN…COMMIT: an fsync is ~0.1–10 ms; a stalled disk shows past that. */
const COMMIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]

/** Everything one server counts. Built per context (no module singleton), so tests stay apart. */
export function createMetrics() {
  const registry = new Registry()
  const m = {
    registry,
    jobCalls: registry.add(
      new Counter(
        'deskhook_job_calls_total',
        'Calls to job URLs, by the job (method and path pattern) and the HTTP status answered',
        ['method', 'path', 'status'],
      ),
    ),
    queueDepth: registry.add(new Gauge('deskhook_queue_depth', 'Executions waiting for a desktop')),
    queueWait: registry.add(
      new Histogram(
        'deskhook_queue_wait_seconds',
        'Time from accepting an execution to handing it to a desktop',
        [],
        SECONDS_BUCKETS,
      ),
    ),
    runDuration: registry.add(
      new Histogram(
        'deskhook_run_duration_seconds',
        'Time from dispatch to the end of a run, by job and final status',
        ['method', 'path', 'status'],
        SECONDS_BUCKETS,
      ),
    ),
    builds: registry.add(new Gauge('deskhook_builds', 'Builds (teach → automation) by status', ['status'])),
    desktopsOnline: registry.add(new Gauge('deskhook_desktops_online', 'Desktops whose agent is connected')),
    desktopsBusy: registry.add(
      new Gauge('deskhook_desktops_busy', 'Connected desktops running (or reserved for) a run'),
    ),
    webhookDeliveries: registry.add(
      new Counter(
        'deskhook_webhook_deliveries_total',
        'Status events whose delivery ended, by result (delivered, or failed after the last attempt)',
        ['result'],
      ),
    ),
    webhookAttemptFailures: registry.add(
      new Counter(
        'deskhook_webhook_attempt_failures_total',
        'Delivery attempts that failed (including those retried later)',
      ),
    ),
    commitBatch: registry.add(
      new Histogram(
        'deskhook_db_commit_batch_size',
        'Writes that shared one group commit',
        [],
        BATCH_BUCKETS,
      ),
    ),
    commitDuration: registry.add(
      new Histogram(
        'deskhook_db_commit_duration_seconds',
        'Time one group commit held the database (BEGIN through COMMIT, fsync included)',
        [],
        COMMIT_BUCKETS,
      ),
    ),
    eventLoopLag: registry.add(
      new Gauge(
        'deskhook_event_loop_lag_seconds',
        'Worst event-loop delay of the last 5 to 10 seconds (monitorEventLoopDelay, or a timer without it)',
      ),
    ),
    residentMemory: registry.add(new Gauge('deskhook_process_resident_memory_bytes', 'Resident set size')),
    uptime: registry.add(new Gauge('deskhook_uptime_seconds', 'Seconds since this server started')),
  }
  // Both results read 0 before the first delivery ends, so rates and ratios work from the start.
  m.webhookDeliveries.inc(['delivered'], 0)
  m.webhookDeliveries.inc(['failed'], 0)
  return m
}

export type Metrics = ReturnType<typeof createMetrics>

const byContext = new WeakMap<AppContext, Metrics>()

/** This server's metrics (made on first use). */
export function metricsOf(ctx: AppContext): Metrics {
  let m = byContext.get(ctx)
  if (!m) {
    m = createMetrics()
    byContext.set(ctx, m)
  }
  return m
}

/** A run was handed to a desktop: how long it queued. */
export function observeDispatch(ctx: AppContext, row: { queuedAt: string; startedAt: string | null }): void {
  if (!row.startedAt) return
  const waited = (Date.parse(row.startedAt) - Date.parse(row.queuedAt)) / 1000
  metricsOf(ctx).queueWait.observe([], Math.max(0, waited))
}

/** A run ended (its completion committed): how long it ran, by job and status. */
export function observeRunEnd(
  ctx: AppContext,
  row: { jobId: string; status: string; startedAt: string | null; finishedAt: string | null },
): void {
  if (!row.startedAt || !row.finishedAt) return
  const job = getJobCached(ctx, row.jobId)
  const seconds = (Date.parse(row.finishedAt) - Date.parse(row.startedAt)) / 1000
  metricsOf(ctx).runDuration.observe([job?.method ?? '', job?.path ?? '', row.status], Math.max(0, seconds))
}

/** A webhook attempt's outcome, as the deliverer recorded it. */
export function countWebhookAttempt(ctx: AppContext, outcome: 'delivered' | 'retry' | 'failed'): void {
  const m = metricsOf(ctx)
  if (outcome === 'delivered') m.webhookDeliveries.inc(['delivered'])
  else {
    m.webhookAttemptFailures.inc()
    if (outcome === 'failed') m.webhookDeliveries.inc(['failed'])
  }
}

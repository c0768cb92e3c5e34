import { createApp } from './app.ts'
import { buildAutomation } from './builder/index.ts'
import type { Config } from './config/index.ts'
import { type AppContext, beginStopping, createContext } from './context.ts'
import { createDashboardState } from './dashboard/gate.ts'
import { openDatabase } from './db/client.ts'
import { migrate } from './db/migrate.ts'
import { quarantineUnreadableBuilds } from './db/unreadable-rows.ts'
import type { ApiKeyCheck } from './http/api-key-check.ts'
import { type Clock, systemClock } from './lib/clock.ts'
import { lockDataDir } from './lib/data-dir-lock.ts'
import { AppError, type ErrorCode, ErrorStatus, errorBody } from './lib/errors.ts'
import { createLogger, type Logger } from './lib/logger.ts'
import { formatFingerprint } from './lib/tls-pin.ts'
import { authorizeKey } from './modules/keys/authorize.ts'
import { type CreatedKey, ensureInitialKey } from './modules/keys/service.ts'
import { protectStoredSecretInputs } from './modules/secrets/protect-secret-inputs.ts'
import { countUsers } from './modules/users/service.ts'
import { AgentHub } from './runtime/agent-hub/index.ts'
import { BuildWorker } from './runtime/build-worker/index.ts'
import { DbWatcher } from './runtime/db-watcher.ts'
import { ExecutionWaiters } from './runtime/execution-waiters.ts'
import { RetentionTask } from './runtime/retention.ts'
import { ScheduledBackup } from './runtime/scheduled-backup.ts'
import { Scheduler } from './runtime/scheduler/index.ts'
import { Services } from './runtime/service.ts'
import { DiskGuard } from './runtime/storage-guard.ts'
import { type DelivererOptions, WebhookDeliverer } from './runtime/webhook-deliverer.ts'
import { writeServedTls } from './tls/served-record.ts'
import { loadServerTls, type ServerTls, watchCertificateEnd } from './tls/server-tls.ts'

export interface RunningServer {
  ctx: AppContext
  hub: AgentHub
  scheduler: Scheduler
  /** Sends status events to callback URLs; call `notify()` after committing one. */
  webhooks: WebhookDeliverer
  url: string
  port: number
  /** The key made on the first start of an empty data dir (printed once), else null. */
  initialKey: CreatedKey | null
  /** Every route the server answers (method and path), for tests that check them all. */
  routes: { method: string; path: string }[]
  /** While nobody has a dashboard account: the one-time link that creates the first admin. */
  setupUrl: string | null
  /** What the server listens with under `--tls auto` or `--tls-cert`; null for plain HTTP. */
  tls: ServerTls | null
  stop(): Promise<void>
}

/** Opens the store, migrates, builds the app, starts the background parts and listens. */
export async function startServer(
  config: Config,
  opts: { log?: Logger; clock?: Clock; webhooks?: Partial<DelivererOptions> } = {},
): Promise<RunningServer> {
  const log = opts.log ?? createLogger({ level: config.logLevel, format: config.logFormat })
  // One server per data dir (before the database is even opened).
  const lock = lockDataDir(config.dataDir)
  const clock = opts.clock ?? systemClock
  let db: ReturnType<typeof openDatabase>
  let tls: ServerTls | null
  try {
    // Before the database: a certificate problem stops the start with nothing else begun.
    tls = await loadServerTls(config, log, clock.now())
    // Tokens made in other processes (`deskhook desktops token`) carry the same fingerprint.
    writeServedTls(config.dataDir, tls && { mode: tls.mode, fingerprint: tls.fingerprint })
    db = openDatabase(config.dataDir)
  } catch (error) {
    lock.release()
    throw error
  }
  // Started in this order, stopped in the reverse one (each stops while what it uses still runs).
  const services = new Services(log)
  // A start that fails from here on undoes what it began, so the process can say why and exit.
  const abandon = async () => {
    await services.stopAll()
    db.$client.close()
    lock.release()
  }
  let ctx: AppContext
  try {
    const applied = migrate(db.$client)
    if (applied.length) log.info({ migrations: applied }, 'database migrated')
    ctx = createContext({ config, db, log, clock })
    // Data, not schema: samples an earlier version stored with secret inputs in clear get sealed (once).
    protectStoredSecretInputs(ctx)
    // A damaged build row is set aside (logged), not left to stop every start (issue 23, N14).
    quarantineUnreadableBuilds(ctx)
  } catch (error) {
    await abandon()
    throw error
  }
  let app: ReturnType<typeof createApp>
  let dashboard: ReturnType<typeof createDashboardState>
  let hub: AgentHub
  let scheduler: Scheduler
  let webhooks: WebhookDeliverer
  let waiters: ExecutionWaiters
  try {
    await services.start(new DbWatcher(ctx))
    // Before the first run: screenshots are refused from the start when the disk is already low.
    await services.start(new DiskGuard(ctx))
    hub = new AgentHub(ctx)
    await services.start(hub)
    webhooks = new WebhookDeliverer(ctx, opts.webhooks)
    await services.start(webhooks)
    // Status events are written with the changes they report; wake the deliverer once they commit.
    ctx.writes.onCommit((tags) => {
      // A committed write ends a storage failure (the disk has room again).
      ctx.storage.failing = undefined
      if (tags.has('outbox')) webhooks.notify()
    })
    waiters = new ExecutionWaiters()
    scheduler = new Scheduler(ctx, hub, webhooks, waiters)
    await services.start(scheduler)
    await services.start(new BuildWorker(ctx, hub, buildAutomation))
    await services.start(new RetentionTask(ctx))
    // Last, so a shutdown first lets a backup in flight finish; it reads the database file itself.
    if (config.backupDir) await services.start(new ScheduledBackup(ctx))
    dashboard = createDashboardState(countUsers(ctx) === 0)
    // The HTTP key gate reaches the keys module only through this port.
    const keys: ApiKeyCheck = { authorize: (presented, access) => authorizeKey(ctx, presented, access) }
    app = createApp(ctx, { hub, scheduler, waiters, dashboard }, keys).listen({
      port: config.port,
      hostname: config.host,
      idleTimeout: config.idleTimeoutS,
      // Never share the port with another process (SO_REUSEPORT would split the calls).
      reusePort: false,
      // Above the configurable body limit so deskhook's own 413 (with its error body) answers first.
      maxRequestBodySize: 33 * 1024 * 1024,
      // Never Bun's development error page (stack, cwd, source paths) to anyone, compiled or not.
      development: false,
      // What fails before the app sees the request (a Host header no URL can be made of) still
      // gets deskhook's JSON error, never HTML and never a stack.
      error: (error: Error) => serverLevelError(log, error),
      ...(tls && { tls: { cert: tls.cert, key: tls.key } }),
    })
  } catch (error) {
    await abandon()
    throw listenError(error, config) ?? error
  }
  // Only now that it listens: a start that cannot listen must not leave a key nobody ever saw.
  const server = app.server!
  let initialKey: CreatedKey | null
  try {
    initialKey = ensureInitialKey(ctx)
  } catch (error) {
    await server.stop(true)
    await abandon()
    throw error
  }
  const scheme = tls ? 'https' : 'http'
  const url = `${scheme}://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${server.port}`
  ctx.site.url = config.publicUrl ?? url
  const certificateEnd = tls && watchCertificateEnd(config, log, tls, () => clock.now())
  log.info(
    {
      url,
      dataDir: config.dataDir,
      ...(tls && {
        tls: tls.mode,
        pinned: tls.fingerprint ? formatFingerprint(tls.fingerprint) : null,
        certificateEnds: tls.expiresAt.toISOString(),
      }),
    },
    'deskhook listening',
  )
  const setupUrl = dashboard.setupToken ? `${ctx.site.url}/_/setup?token=${dashboard.setupToken}` : null

  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      // First, so open dashboard event streams end now rather than hold the drain to its timeout.
      beginStopping(ctx)
      log.info('shutting down: no new requests; letting in-flight ones finish')
      const drained = server.stop(false)
      // Reverse start order: scheduled backup (if on), retention, builds, scheduler, webhooks,
      // agent hub, database watcher.
      // Running executions stay `running`: their agents report to the next start (journal); agent
      // sockets never end by themselves, so the hub closes them and the drain can finish; queued
      // status events are sent after the next start.
      await services.stopAll()
      // Held synchronous calls get their 202 now rather than a cut connection.
      waiters.releaseAll()
      const timedOut = await Promise.race([
        drained.then(() => false),
        Bun.sleep(config.shutdownTimeoutMs).then(() => true),
      ])
      if (timedOut) {
        log.warn(
          { timeoutMs: config.shutdownTimeoutMs },
          'in-flight requests did not finish in time; closing them',
        )
        await server.stop(true)
      }
      certificateEnd?.stop()
      ctx.writes.flush()
      db.$client.close()
      lock.release()
      log.info('stopped')
      // The log is written in batches: wait until the last lines are out, since the process
      // usually exits right after this (a lost "stopped" line leaves an admin guessing).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2_000)
        log.flush(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    })()
    return stopping
  }
  return {
    ctx,
    hub,
    scheduler,
    webhooks,
    url,
    port: server.port ?? config.port,
    initialKey,
    setupUrl,
    tls,
    routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
    stop,
  }
}

/** A start that cannot go on, said in one line with what to do (the CLI prints it as is). */
export class StartError extends Error {
  override readonly name = 'StartError'
}

/** Why the port could not be had, in words, or undefined for anything else. */
function listenError(error: unknown, config: Config): StartError | undefined {
  const where = `${config.host}:${config.port}`
  switch ((error as { code?: string })?.code) {
    case 'EADDRINUSE':
      return new StartError(
        `cannot listen on ${where}: another program is using the port. Stop it, or choose another port with --port or DESKHOOK_PORT.`,
      )
    case 'EACCES':
    case 'EPERM':
      return new StartError(
        `cannot listen on ${where}: permission denied (ports under 1024 need privileges). Choose a port from 1024 up with --port or DESKHOOK_PORT.`,
      )
    case 'EADDRNOTAVAIL':
      return new StartError(
        `cannot listen on ${where}: this machine has no such address. Choose one of its addresses (or 0.0.0.0) with --host or DESKHOOK_HOST.`,
      )
    default:
      return undefined
  }
}

/** The answer to a request that failed before (or outside) the app's own error mapping. */
export function serverLevelError(log: Logger, error: Error): Response {
  const requestId = crypto.randomUUID()
  // A request line or Host that makes no URL is the caller's mistake; anything else is ours.
  const bad = error instanceof TypeError && /url|host/i.test(error.message)
  const code: ErrorCode = bad ? 'INVALID_REQUEST' : 'INTERNAL'
  if (bad) log.debug({ requestId, reason: error.message }, 'request refused before routing')
  else log.error({ requestId, err: error }, 'request failed outside the app')
  const message = bad
    ? 'The request has no valid address: send a Host header with a host name or address (and port)'
    : 'Internal error'
  return Response.json(errorBody(new AppError(code, message), requestId), {
    status: ErrorStatus[code],
    headers: { 'x-request-id': requestId },
  })
}

import { EventEmitter, setMaxListeners } from 'node:events'
import type { Config } from './config/index.ts'
import type { Db } from './db/client.ts'
import { GroupCommitter } from './db/group-commit.ts'
import type { Clock } from './lib/clock.ts'
import type { Logger } from './lib/logger.ts'
import type { StorageState } from './runtime/storage-guard.ts'

/** Events services raise for the background parts (builder, scheduler) and caches. */
export interface AppEvents {
  'build.queued': [buildId: string]
  'build.answered': [buildId: string]
  /** A build's row changed here (status, progress, question, outcome): live build pages re-read it. */
  'build.changed': [buildId: string]
  /** A job was created or changed by this process (teach, promote, new version). */
  'jobs.changed': [jobId: string]
  /** A desktop's credential was revoked here (the CLI's revocations arrive as db.external-change). */
  'desktop.revoked': [desktopId: string]
  'desktop.online': [desktopId: string]
  'desktop.offline': [desktopId: string]
  /** A live-preview frame from this desktop's agent arrived (the hub keeps only the latest). */
  'desktop.preview': [desktopId: string]
  /** An agent reported a run that nobody in this process was waiting for (e.g. from its journal). */
  'agent.run-result': [
    desktopId: string,
    runId: string,
    lease: string,
    outcome: import('./protocol/messages.ts').RunOutcome,
  ]
  /** A key was created or revoked here (the CLI's changes arrive as db.external-change). */
  'keys.changed': []
  /** Another process changed the database (the CLI): caches built from it must reload. */
  'db.external-change': []
}

/**
 * Everything a service needs, passed explicitly as the first argument (no module singletons), so
 * every test builds a fresh one on its own temp database.
 */
export interface AppContext {
  readonly config: Config
  readonly db: Db
  readonly log: Logger
  readonly clock: Clock
  readonly events: EventEmitter<AppEvents>
  /** Group commit for this database: one durable transaction for the writes of one moment. */
  readonly writes: GroupCommitter
  /** Where this server is reached: set once it listens (links use it, never a request's Host). */
  readonly site: { url?: string }
  /** Set when the database file was removed or replaced under the server (calls get 503). */
  readonly storage: StorageState
  /**
   * Aborted as the server starts to stop: what holds a response open (a dashboard event stream)
   * ends on it, so the shutdown does not wait out its timeout for pages left open.
   */
  readonly stopping: AbortSignal
}

/** Only the server's stop may abort `ctx.stopping`; everything else just listens. */
const stoppers = new WeakMap<AppContext, AbortController>()

export function createContext(
  parts: Omit<AppContext, 'events' | 'writes' | 'site' | 'storage' | 'stopping'>,
): AppContext {
  const stopper = new AbortController()
  // One listener per open stream: as many as there are open pages, none of them a leak.
  setMaxListeners(0, stopper.signal)
  // Likewise each open dashboard page listens for changes: many pages are no leak.
  const events = new EventEmitter<AppEvents>()
  events.setMaxListeners(0)
  const ctx: AppContext = {
    ...parts,
    events,
    writes: new GroupCommitter(parts.db),
    site: {},
    storage: {},
    stopping: stopper.signal,
  }
  stoppers.set(ctx, stopper)
  return ctx
}

/** Tells everything listening on `ctx.stopping` that the server is stopping (idempotent). */
export function beginStopping(ctx: AppContext): void {
  stoppers.get(ctx)?.abort(new Error('the server is stopping'))
}

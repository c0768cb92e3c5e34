import type { Logger } from '../lib/logger.ts'

/**
 * One shape for every background part (graphile-worker's habit): `start()` begins its loop, and
 * the awaited `stop()` takes no new work, waits for the unit of work in flight, and leaves nothing
 * scheduled behind it. A loop never throws out: its errors are logged and it goes on.
 */
export interface Service {
  /** Names the part in the shutdown log. */
  readonly name: string
  start(): void | Promise<void>
  stop(): Promise<void>
}

/**
 * Starts services in order and stops them in the reverse order, so each one stops while what it
 * depends on still runs. A stop that fails is logged and the others still stop.
 */
export class Services {
  readonly #log: Logger
  readonly #started: Service[] = []
  #stopping: Promise<void> | undefined

  constructor(log: Logger) {
    this.#log = log
  }

  async start(service: Service): Promise<void> {
    if (this.#stopping) throw new Error(`cannot start ${service.name}: the services are stopping`)
    await service.start()
    this.#started.push(service)
  }

  /** Reverse start order; idempotent (a second call waits for the first). */
  stopAll(): Promise<void> {
    this.#stopping ??= (async () => {
      for (const service of this.#started.toReversed()) {
        try {
          await service.stop()
          this.#log.info({ service: service.name }, 'service stopped')
        } catch (err) {
          this.#log.error({ err, service: service.name }, 'service failed to stop cleanly')
        }
      }
    })()
    return this.#stopping
  }
}

/** Runs a loop's unit of work: an error is logged, never thrown out of the loop. */
export async function guarded(log: Logger, what: string, work: () => unknown): Promise<void> {
  try {
    await work()
  } catch (err) {
    log.error({ err }, `${what} failed; the loop goes on`)
  }
}

// Event routing of a native helper host (helper-host.ts). Besides answers, a helper writes event
// lines of the watches it was asked to run (an `input` watch while a person demonstrates): each
// names its watch id, and goes to whoever subscribed to that id. A watch belongs to the helper
// that runs it: lines of another helper are dropped, and when it ends its subscribers are told.

import type { TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { Logger } from '../../../lib/logger.ts'
import type { DriverError } from '../../../protocol/driver.ts'
import { HELPER_EVENTS, type HelperEvent, type HelperEventName } from '../../../protocol/helper.ts'

/** A watch's event lines routed to its subscriber; ended by `close()`, or by the helper's exit. */
export interface HelperSubscription {
  /** The id to start the watch with: the helper tags its event lines with it. */
  readonly watch: string
  /** The helper that runs the watch: a new one after a restart knows nothing of it. */
  readonly instance: number
  close(): void
}

/** A line the helper wrote unasked: an event of a watch (checked against HELPER_EVENTS on dispatch). */
export type EventLine = { event: string; watch?: unknown }

interface Subscriber {
  event: HelperEventName
  instance: number
  onEvent: (event: HelperEvent) => void
  onLost?: (error: DriverError) => void
}

const checkers = new Map<TSchema, ReturnType<typeof TypeCompiler.Compile>>()

/** The compiled check of a protocol schema, compiled on first use (results and events alike). */
export function schemaChecker(schema: TSchema) {
  let checker = checkers.get(schema)
  if (!checker) {
    checker = TypeCompiler.Compile(schema)
    checkers.set(schema, checker)
  }
  return checker
}

export function isEventLine(line: unknown): line is EventLine {
  return typeof line === 'object' && line !== null && typeof (line as { event?: unknown }).event === 'string'
}

/** The subscribers of one host, by watch id; watch ids are unique per host, across its helpers. */
export class HelperEvents {
  readonly #subscribers = new Map<string, Subscriber>()
  #nextWatch = 1

  constructor(private readonly log: Logger) {}

  /** Routes the event lines of a new watch id of helper `instance` to `onEvent`. */
  subscribe<E extends HelperEventName>(
    event: E,
    instance: number,
    onEvent: (event: HelperEvent<E>) => void,
    onLost?: (error: DriverError) => void,
  ): HelperSubscription {
    const watch = `w${this.#nextWatch++}`
    this.#subscribers.set(watch, {
      event,
      instance,
      onEvent: onEvent as (event: HelperEvent) => void,
      onLost,
    })
    return { watch, instance, close: () => this.#subscribers.delete(watch) }
  }

  /** An event line to its watch's subscriber; one that is malformed is dropped (never logged whole: it may hold what a person typed). */
  dispatch(instance: number, line: EventLine): void {
    const subscriber = typeof line.watch === 'string' ? this.#subscribers.get(line.watch) : undefined
    if (!subscriber || subscriber.instance !== instance || subscriber.event !== line.event) return
    const event = subscriber.event
    const checker = schemaChecker(HELPER_EVENTS[event])
    if (!checker.Check(line)) {
      const first = checker.Errors(line).First()
      this.log.warn(
        { event, path: first?.path, error: first?.message },
        'native helper event malformed (dropped)',
      )
      return
    }
    try {
      subscriber.onEvent(line as HelperEvent)
    } catch (error) {
      this.log.warn({ event, err: (error as Error).message }, 'a helper event subscriber failed')
    }
  }

  /** Helper `instance` ended with `failure`: its watches end with it, and their subscribers are told. */
  lost(instance: number, failure: DriverError): void {
    for (const [watch, subscriber] of this.#subscribers) {
      if (subscriber.instance !== instance) continue
      this.#subscribers.delete(watch)
      subscriber.onLost?.(failure)
    }
  }
}

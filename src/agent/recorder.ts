// "Show me" on the agent: while a build's `demonstrate` question is open, the server asks the
// agent to record one window. The driver reports what the person does (Driver.watchInput); the
// recorder numbers the events, notes the screen each was made on (a snapshot taken whenever the
// window settles) and a screenshot after each burst of actions, and hands the whole Recording
// over when the server stops it. One recording at a time; values typed into password fields
// never reach it (the driver reports `secret: true` without the value), and its screenshots show
// password fields blacked out.
import type { Logger } from '../lib/logger.ts'
import { type Driver, DriverError } from '../protocol/driver.ts'
import type { Snapshot, WindowInfo } from '../protocol/elements.ts'
import type {
  InputEvent,
  RecordedAction,
  Recording,
  RecordingStatus,
  RemoteInput,
} from '../protocol/recording.ts'
import { redactedScreenshot } from './redacted-screenshot.ts'

/** How long the window must stay unchanged to count as settled before a snapshot is taken. */
const QUIET_MS = 200
/** The most one settle waits for quiet (an animated page never is). */
const SETTLE_MAX_MS = 3_000
/** Bytes of JSON a recording may take, well under the hub's 8 MB frame. */
export const RECORDING_BUDGET = 6 * 1024 * 1024
/** How long one wait for a change of the recorded window lasts. */
const WATCH_MS = 500
/** How many recent actions the status lists. */
const RECENT = 5

interface Session {
  windowId: string
  window: WindowInfo
  startedAt: Date
  t0: number
  actions: RecordedAction[]
  snapshots: Snapshot[]
  /** Actions since the last screenshot: the next settled screen is theirs. */
  pending: RecordedAction[]
  stopWatching: () => Promise<void>
  /** The settle loop; resolves once it has seen `ended`. */
  loop: Promise<void>
  ended: boolean
  /** Set by an event: the window has to be read again even if no change event came. */
  dirty: boolean
  /** Wakes the settle loop (an action was recorded). */
  wake: () => void
}

export class Recorder {
  #session?: Session
  /** A recording being stopped: it still counts as recording until its last screen is read. */
  #stopping?: Session

  constructor(
    private readonly driver: Driver,
    private readonly log: Logger,
  ) {}

  get recording(): boolean {
    return this.#session !== undefined
  }

  /** The window being recorded (also while the recording is being stopped). */
  get windowId(): string | undefined {
    return (this.#session ?? this.#stopping)?.windowId
  }

  async recordStart(windowId: string): Promise<RecordingStatus> {
    const watch = this.driver.watchInput?.bind(this.driver)
    if (!watch)
      throw new DriverError(
        'UNSUPPORTED_ACTION',
        `the ${this.driver.kind} driver cannot record demonstrations`,
      )
    // A recording the server lost track of (it restarted, the question was cancelled) is dropped.
    if (this.#session) await this.#end(this.#session)
    // Read first: a window that gave way to another of its app's (a sign-in dialog to the main
    // window) is followed by the driver, and the recording is of the one shown.
    const first = await this.driver.snapshot(windowId)
    const window = first.window
    const session: Session = {
      windowId,
      window,
      startedAt: new Date(),
      t0: performance.now(),
      actions: [],
      snapshots: [first],
      pending: [],
      stopWatching: async () => {},
      loop: Promise.resolve(),
      ended: false,
      dirty: false,
      wake: () => {},
    }
    this.#session = session
    session.stopWatching = await watch(windowId, (event) => this.#record(session, event))
    session.loop = this.#settleLoop(session)
    this.log.info({ windowId }, 'recording started')
    return this.recordStatus()
  }

  recordStatus(): RecordingStatus {
    const s = this.#session ?? this.#stopping
    if (!s) return { recording: false, actions: 0, recent: [] }
    return {
      recording: true,
      windowId: s.windowId,
      actions: s.actions.length,
      screens: s.snapshots.length,
      recent: s.actions.slice(-RECENT).map(describeAction),
    }
  }

  async recordStop(): Promise<Recording> {
    const s = this.#session
    if (!s) throw new DriverError('PROTOCOL_ERROR', 'nothing is being recorded on this desktop')
    this.#stopping = s
    try {
      await this.#end(s)
      // The screen after the last action, once it settled, closes the recording.
      await this.#settle(s.windowId)
      await this.#capture(s).catch((err) =>
        this.log.warn({ err }, 'the last screen of the recording was not read'),
      )
    } finally {
      if (this.#stopping === s) this.#stopping = undefined
    }
    this.log.info({ windowId: s.windowId, actions: s.actions.length }, 'recording stopped')
    const recording: Recording = {
      window: s.window,
      startedAt: s.startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      actions: s.actions,
      snapshots: s.snapshots,
    }
    return withinFrame(recording)
  }

  /** Input from the dashboard's preview, performed by the driver as a person's would be. */
  async input(windowId: string, input: RemoteInput): Promise<void> {
    if (!this.driver.input)
      throw new DriverError('UNSUPPORTED_ACTION', `the ${this.driver.kind} driver cannot take remote input`)
    await this.driver.input(windowId, input)
  }

  /** Ends a recording without handing it over (the agent stops). */
  async discard(): Promise<void> {
    if (this.#session) await this.#end(this.#session)
  }

  async #end(s: Session): Promise<void> {
    if (this.#session === s) this.#session = undefined
    if (s.ended) return
    s.ended = true
    s.wake()
    await s.stopWatching().catch((err) => this.log.warn({ err }, 'stopping the input watch failed'))
    await s.loop
  }

  #record(s: Session, event: InputEvent): void {
    if (s.ended) return
    const action: RecordedAction = {
      ...event,
      seq: s.actions.length + 1,
      atMs: Math.round(performance.now() - s.t0),
      before: s.snapshots.length - 1,
    }
    // Counts and kinds only: what was typed stays out of the log.
    this.log.debug({ seq: action.seq, kind: action.kind }, 'recorded')
    s.actions.push(action)
    s.pending.push(action)
    s.dirty = true
    s.wake()
  }

  /** Reads the window again each time it settles after a change or an action. */
  async #settleLoop(s: Session): Promise<void> {
    let watchFailed = false
    while (!s.ended) {
      // An action wakes the loop at once: the screen it leads to is read as soon as it settles.
      const woken = new Promise<'changed'>((resolve) => {
        s.wake = () => resolve('changed')
      })
      const change = await Promise.race([
        this.driver.waitForChange(s.windowId, WATCH_MS).catch((err: unknown) => ({ err })),
        woken,
      ])
      if (s.ended) break
      if (typeof change === 'object') {
        // The window or the driver is gone, and waitForChange fails at once: wait out its interval
        // (or the next action) instead of spinning, which would starve the agent's heartbeats.
        if (!watchFailed)
          this.log.warn({ err: change.err, windowId: s.windowId }, 'the recorded window cannot be watched')
        watchFailed = true
        await Promise.race([woken, Bun.sleep(WATCH_MS)])
        continue
      }
      watchFailed = false
      if (change !== 'changed' && !s.dirty) continue
      await this.#settle(s.windowId, s)
      if (s.ended) break
      await this.#capture(s).catch((err) => this.log.debug({ err }, 'a screen during recording was not read'))
    }
  }

  /**
   * Waits until the window has been quiet for QUIET_MS (at most SETTLE_MAX_MS), or, while
   * recording, until the person acts again: they acted on the screen as it is now, so it is read
   * then (someone quicker than the window's redraws, typing into a dialog that just opened,
   * would otherwise leave the dialog's screen unread).
   */
  async #settle(windowId: string, s?: Session): Promise<void> {
    const deadline = performance.now() + SETTLE_MAX_MS
    const acted = s?.actions.length ?? 0
    while (performance.now() < deadline) {
      // An action ends the wait at once, before its own effects change the screen it was made on.
      const acting = new Promise<'acted'>((resolve) => {
        if (s) s.wake = () => resolve('acted')
      })
      const change = await Promise.race([
        this.driver.waitForChange(windowId, QUIET_MS).catch(() => 'timeout' as const),
        acting,
      ])
      if (change === 'timeout') return
      if (s && s.actions.length !== acted) return
    }
  }

  /** Notes the settled screen (when it differs from the last one) and the pending actions' screenshot. */
  async #capture(s: Session): Promise<void> {
    s.dirty = false
    const snapshot = await this.driver.snapshot(s.windowId)
    // A window with nothing in it is a page between two documents: read again once it has some.
    if (snapshot.root.children.length === 0) {
      s.dirty = true
      return
    }
    const last = s.snapshots.at(-1)
    if (!last || !sameScreen(last, snapshot)) s.snapshots.push(snapshot)
    const pending = s.pending.splice(0)
    const latest = pending.at(-1)
    if (!latest) return
    try {
      latest.screenshot = Buffer.from(await redactedScreenshot(this.driver, s.windowId)).toString('base64')
    } catch (err) {
      this.log.debug({ err }, 'no screenshot for a recorded action')
    }
  }
}

/**
 * The recording goes to the server in one message, which the hub caps (MAX_AGENT_FRAME, 8 MB):
 * a long demonstration gives up its oldest screenshots first, never its actions or screens.
 */
export function withinFrame(recording: Recording): Recording {
  let size = JSON.stringify(recording).length
  for (const action of recording.actions) {
    if (size <= RECORDING_BUDGET) break
    if (!action.screenshot) continue
    size -= action.screenshot.length
    delete action.screenshot
  }
  return recording
}

/** Refs differ between snapshots of the same screen: compare what a person would see. */
function sameScreen(a: Snapshot, b: Snapshot): boolean {
  const strip = (s: Snapshot) =>
    JSON.stringify(s.root, (key, value) => (key === 'ref' || key === 'bounds' ? undefined : value))
  return a.window.title === b.window.title && a.window.url === b.window.url && strip(a) === strip(b)
}

/** An action in words, for the dashboard's list while recording. */
export function describeAction(a: RecordedAction): string {
  const what = a.target ? `“${a.target.name || a.target.role}” ${a.target.role}` : 'the window'
  switch (a.kind) {
    case 'click':
      return `Clicked the ${what}`
    case 'input':
      return a.secret ? `Typed a secret into the ${what}` : `Typed “${a.value ?? ''}” into the ${what}`
    case 'select':
      return `Chose “${a.value ?? ''}” in the ${what}`
    case 'check':
      return `${a.value === 'false' ? 'Cleared' : 'Ticked'} the ${what}`
    case 'key':
      return `Pressed ${a.key ?? 'a key'}${a.target ? ` in the ${what}` : ''}`
    case 'navigate':
      return `Went to ${a.url ?? 'another page'}`
  }
}

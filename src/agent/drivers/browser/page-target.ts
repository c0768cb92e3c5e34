// One attached tab: its CDP session plus what the driver must track between calls: the native
// dialog it shows, whether it is loading or waiting on the network, and when it last changed.
import type { ChangeResult } from '../../../protocol/driver.ts'
import { DriverError } from '../../../protocol/driver.ts'
import {
  type CdpConnection,
  CdpSession,
  type CommandName,
  type CommandParams,
  type CommandResult,
} from './cdp-connection.ts'

export interface NativeDialog {
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload'
  message: string
  defaultPrompt: string
  /** What a `fill` on the prompt's textbox typed, sent when OK is clicked. */
  promptText?: string
}

const WORLD = 'deskhook'
const BINDING = '__deskhookChanged'
// Runs in an isolated world (the page's scripts cannot see or break it) of every document, and
// reports DOM mutations and user-visible state changes that do not mutate the DOM (typing, focus).
// Calls are coalesced: one at once, one trailing, so a busy page does not flood the socket.
// A ticker is not a change: an element whose text or attributes are rewritten in place again and
// again (a clock, a countdown, an "updated 5 s ago") changes on its own, whatever anyone does, so
// from its third rewrite within TICK_WINDOW_MS it no longer counts. Without this, a page with a
// clock never settles and every action waits out its longest wait (docs/builder.md, "Waiting").
// Growth (nodes added, not replaced) and style changes (movement, which ends) always count.
const TICKS = 3
const TICK_WINDOW_MS = 3_000
const OBSERVER_SOURCE = `(() => {
  if (globalThis.__deskhookObserver) return
  let timer = 0, pending = false
  const notify = () => {
    if (timer) { pending = true; return }
    globalThis.${BINDING}?.('change')
    timer = setTimeout(() => { timer = 0; if (pending) { pending = false; notify() } }, 30)
  }
  const rewrites = new WeakMap()
  const ticking = (m) => {
    const inPlace = m.type === 'characterData' ||
      (m.type === 'attributes' && m.attributeName !== 'style') ||
      (m.type === 'childList' && m.addedNodes.length === m.removedNodes.length &&
        [...m.addedNodes, ...m.removedNodes].every((n) => n.nodeType === 3))
    if (!inPlace) return false
    const at = m.target.nodeType === 1 ? m.target : m.target.parentElement
    if (!at) return false
    const now = performance.now()
    const times = (rewrites.get(at) || []).filter((t) => now - t < ${TICK_WINDOW_MS})
    times.push(now)
    rewrites.set(at, times)
    return times.length >= ${TICKS}
  }
  globalThis.__deskhookObserver = new MutationObserver((records) => {
    // Every record is counted (no short cut), so a ticker is known by its third rewrite.
    if (!records.map(ticking).every(Boolean)) notify()
  })
  globalThis.__deskhookObserver.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
  for (const type of ['input', 'change', 'focusin', 'focusout', 'transitionend', 'animationend', 'toggle'])
    document.addEventListener(type, notify, true)
})()`

/** Requests a page waits on before it shows their outcome; event streams and beacons never finish. */
const TRACKED_REQUESTS = new Set(['Document', 'XHR', 'Fetch'])
/**
 * A request the page started this long ago is background work (a long-poll, a notification
 * check the server is slow to answer, a call stuck behind a single-threaded server), not the
 * effect of the last action: it stops holding the page "busy". A save that takes longer still
 * changes the page when it ends, and a run waits for that change by its outcome condition.
 */
export const BACKGROUND_REQUEST_MS = 5_000

/** Says whether the app being driven may load a URL (the origin lock); absent: no lock. */
export type OriginCheck = (url: string) => boolean

export class PageTarget {
  dialog: NativeDialog | null = null
  /** Main-frame navigations the origin lock stopped, oldest first. */
  readonly blockedNavigations: string[] = []
  /** HTTP status of each main-frame document load, by loader id (launch refuses error pages). */
  readonly documentStatus = new Map<string, number>()
  private originCheck?: OriginCheck
  /** Bumped by every snapshot; refs carry it so a ref from an older snapshot is refused. */
  generation = 0
  lastActivityAt = performance.now()
  /** Counts changes, so a waiter can tell whether one happened while it was busy looking. */
  changeSeq = 0
  /** changeSeq as of the latest snapshot or waitForChange: what the driver's caller has seen. */
  seenSeq = 0
  /** A main-frame document is loading. */
  loading = false
  /** Our isolated world in the main-frame document (none between two documents). */
  worldContextId?: number
  private readonly inflight = new Map<string, number>()
  private readonly changeWaiters = new Set<() => void>()
  private readonly dialogWaiters = new Set<(dialog: NativeDialog) => void>()
  private readonly unsubscribe: (() => void)[] = []

  private constructor(
    readonly targetId: string,
    readonly session: CdpSession,
  ) {}

  static async attach(connection: CdpConnection, targetId: string): Promise<PageTarget> {
    const { sessionId } = await connection.send('Target.attachToTarget', { targetId, flatten: true })
    const page = new PageTarget(targetId, new CdpSession(connection, sessionId))
    page.listen()
    const { session } = page
    await Promise.all([
      session.send('Page.enable'),
      // Runtime.bindingCalled is only reported with the Runtime domain enabled.
      session.send('Runtime.enable'),
      session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
      session.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD }),
      session.send('Page.addScriptToEvaluateOnNewDocument', { source: OBSERVER_SOURCE, worldName: WORLD }),
    ])
    // The document already loaded when we attached has not run the script: install it there too.
    const { frameTree } = await session.send('Page.getFrameTree')
    const world = await session.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: WORLD,
    })
    await session.send('Runtime.evaluate', {
      expression: OBSERVER_SOURCE,
      contextId: world.executionContextId,
    })
    return page
  }

  /**
   * Routes every request of this tab through `allows` (Fetch interception): requests elsewhere
   * fail before they leave the browser. A main-frame navigation is aborted rather than failed,
   * so the tab stays on the app's page instead of showing an error page.
   */
  async lockOrigins(allows: OriginCheck): Promise<void> {
    const first = !this.originCheck
    this.originCheck = allows
    if (first) await this.session.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] })
  }

  /** Loading a document or waiting on a request the page started. */
  get busy(): boolean {
    return this.loading || this.busyFor() > 0
  }

  /** How much longer the requests in flight count as the page being busy (0: they do not). */
  busyFor(now = performance.now()): number {
    let longest = 0
    for (const started of this.inflight.values())
      longest = Math.max(longest, started + BACKGROUND_REQUEST_MS - now)
    return longest
  }

  /**
   * Sends a command the renderer must answer. A native dialog freezes the renderer, so such a
   * command would hang: refuse it while one is open and abandon it when one opens meanwhile.
   */
  call<M extends CommandName>(
    method: M,
    params?: CommandParams<M>,
    timeoutMs?: number,
  ): Promise<CommandResult<M>> {
    if (this.dialog) return Promise.reject(blocked(this.dialog))
    const command = this.session.send(method, params, timeoutMs)
    let stopWaiting = () => {}
    const opened = new Promise<never>((_, reject) => {
      const onDialog = (dialog: NativeDialog) => reject(blocked(dialog))
      this.dialogWaiters.add(onDialog)
      stopWaiting = () => this.dialogWaiters.delete(onDialog)
    })
    command.catch(() => {}) // settled later, after the dialog closes; nobody waits for it then
    return Promise.race([command, opened]).finally(stopWaiting)
  }

  /**
   * A change since the latest snapshot or wait (so none falls between look and wait), else the
   * next one within timeoutMs. A document still loading has not stayed unchanged (a server slow to
   * answer sends no event): whoever waits for quiet, the recorder reading each screen, waits on.
   */
  async changedSinceSeen(timeoutMs: number): Promise<ChangeResult> {
    const result = this.changeSeq !== this.seenSeq ? 'changed' : await this.nextChange(timeoutMs)
    this.seenSeq = this.changeSeq
    return result === 'timeout' && this.loading ? 'changed' : result
  }

  /** Resolves at the next change (mutation, navigation, request finished, dialog) or after timeoutMs. */
  nextChange(timeoutMs: number): Promise<ChangeResult> {
    return new Promise((resolve) => {
      const done = (result: ChangeResult) => {
        clearTimeout(timer)
        this.changeWaiters.delete(onChange)
        resolve(result)
      }
      const onChange = () => done('changed')
      const timer = setTimeout(() => done('timeout'), Math.max(0, timeoutMs))
      this.changeWaiters.add(onChange)
    })
  }

  dispose(): void {
    for (const off of this.unsubscribe) off()
    for (const wake of this.changeWaiters) wake()
  }

  private changed(): void {
    this.changeSeq++
    this.lastActivityAt = performance.now()
    for (const wake of [...this.changeWaiters]) wake()
  }

  private listen(): void {
    const on = this.session.on.bind(this.session)
    const mainFrame = (frameId: string) => frameId === this.targetId
    this.unsubscribe.push(
      on('Runtime.bindingCalled', (event) => {
        if (event.name === BINDING) this.changed()
      }),
      on('Runtime.executionContextCreated', ({ context }) => {
        const frameId = (context.auxData as { frameId?: string } | undefined)?.frameId
        if (context.name === WORLD && frameId !== undefined && mainFrame(frameId))
          this.worldContextId = context.id
      }),
      on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
        if (executionContextId === this.worldContextId) this.worldContextId = undefined
      }),
      on('Runtime.executionContextsCleared', () => {
        this.worldContextId = undefined
      }),
      on('Page.javascriptDialogOpening', (event) => {
        this.dialog = { type: event.type, message: event.message, defaultPrompt: event.defaultPrompt ?? '' }
        for (const notify of [...this.dialogWaiters]) notify(this.dialog)
        this.changed()
      }),
      on('Page.javascriptDialogClosed', () => {
        this.dialog = null
        this.changed()
      }),
      on('Page.frameStartedLoading', (event) => {
        if (!mainFrame(event.frameId)) return
        this.loading = true
        this.changed()
      }),
      on('Page.frameStoppedLoading', (event) => {
        if (!mainFrame(event.frameId)) return
        this.loading = false
        this.changed()
      }),
      on('Page.frameNavigated', () => this.changed()),
      on('Page.navigatedWithinDocument', () => this.changed()),
      on('Network.requestWillBeSent', (event) => {
        if (!TRACKED_REQUESTS.has(event.type ?? '')) return
        this.inflight.set(event.requestId, performance.now())
        this.changed()
      }),
      on('Network.responseReceived', (event) => {
        if (event.type === 'Document' && event.frameId && mainFrame(event.frameId))
          this.documentStatus.set(event.loaderId, event.response.status)
      }),
      on('Fetch.requestPaused', (event) => {
        const { requestId, request, resourceType, frameId } = event
        if (!this.originCheck || this.originCheck(request.url)) {
          this.session.send('Fetch.continueRequest', { requestId }).catch(() => {})
          return
        }
        const navigation = resourceType === 'Document' && mainFrame(frameId)
        const errorReason = navigation ? 'Aborted' : 'BlockedByClient'
        this.session.send('Fetch.failRequest', { requestId, errorReason }).catch(() => {})
        if (navigation) {
          this.blockedNavigations.push(request.url)
          this.changed()
        }
      }),
      on('Network.loadingFinished', (event) => this.requestDone(event.requestId)),
      on('Network.loadingFailed', (event) => this.requestDone(event.requestId)),
    )
  }

  private requestDone(requestId: string): void {
    if (this.inflight.delete(requestId)) this.changed()
  }
}

function blocked(dialog: NativeDialog): DriverError {
  return new DriverError('BLOCKED_BY_DIALOG', `A ${dialog.type} dialog is open: "${dialog.message}"`)
}

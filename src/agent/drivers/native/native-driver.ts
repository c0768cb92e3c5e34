// The Driver contract over a native accessibility helper (helper-host.ts): the same for every
// native backend (Linux AT-SPI now, Windows UI Automation next); a backend brings its helper's
// command line and its BackendProfile (role and state vocabulary).
import { secretFieldBoxes } from '../../../automation/secret-fields.ts'
import type { Logger } from '../../../lib/logger.ts'
import type { AppSpec } from '../../../protocol/automation.ts'
import { type ChangeResult, type DesktopState, type Driver, DriverError } from '../../../protocol/driver.ts'
import type { ActionResult, Bounds, ElementAction, Snapshot, WindowInfo } from '../../../protocol/elements.ts'
import type { HelperEvent, HelperWindow } from '../../../protocol/helper.ts'
import type { InputEvent, RemoteInput } from '../../../protocol/recording.ts'
import { BuildApps } from './build-apps.ts'
import { closeNotice } from './close-notice.ts'
import { type BackendProfile, mapWindowTree } from './element-mapping.ts'
import type { HelperHost } from './helper-host.ts'
import { watchHelperInput } from './input-watch.ts'
import { recordedTarget } from './recorded-target.ts'
import { ExploreSettings, type SettingsPutBack } from './settings-guard.ts'
import { attachable, refuseRemoteInput } from './spec-checks.ts'
import { WindowSuccession } from './window-follow.ts'

export interface NativeDriverOptions {
  kind: 'desktop' | 'windows'
  host: HelperHost
  profile: BackendProfile
  log: Logger
  /** Most elements one snapshot holds (the rest of a huge window is cut off). */
  maxElements?: number
  /** How long a launched app may take to show its window. */
  launchTimeoutMs?: number
  /** Deadline of a helper call that is not a wait (snapshot, act, screenshot…). */
  callTimeoutMs?: number
  /** The desktop user's settings folder, guarded while a build explores (settings-guard.ts); none: not guarded. */
  settingsRoot?: string
}

/** How many windows' secret fields the driver remembers (the most recently read). */
const REMEMBERED_WINDOWS = 64

/** Extra time a call that waits (launch, waitForChange) gets past its own wait before the host gives up on the helper. */
const WAIT_MARGIN_MS = 5_000

export class NativeDriver implements Driver {
  readonly kind: 'desktop' | 'windows'
  /** Apps this driver started (pid → how): closed again when the driver stops. */
  readonly #launched = new Map<number, AppSpec>()
  /** Where each window's latest snapshot found its secret fields (window pixels). */
  readonly #secretFields = new Map<string, Bounds[]>()
  /** Windows that closed while their app went on in another (window-follow.ts). */
  readonly #windows: WindowSuccession
  /** The settings a build found, while it explores (guardSettings → restoreSettings). */
  readonly #settings: ExploreSettings
  /** The apps a build started, and those it closed that were open before it (build-apps.ts). */
  readonly #build = new BuildApps()
  /** The last of the calls that take turns (#serial). */
  #turn: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: NativeDriverOptions) {
    this.kind = options.kind
    this.#settings = new ExploreSettings(options.settingsRoot)
    this.#windows = new WindowSuccession(options.log)
  }

  /** Calls with the window that stands for this one now (its app's next window once it closed). */
  #on<T>(windowId: string, call: (id: string) => Promise<T>, closed?: () => T): Promise<T> {
    const list = async () => (await this.options.host.call('listWindows', {})).windows
    return this.#windows.follow(windowId, call, list, closed)
  }

  async start(): Promise<void> {
    await this.options.host.start()
  }

  /** Closes the apps this driver launched (as the browser driver closes a browser it launched), then the helper. */
  async stop(): Promise<void> {
    this.#secretFields.clear()
    await this.#closeLaunched()
    await this.options.host.stop()
  }

  /** Closes apps this driver launched (all, or these) as a person closes them (their windows first, then a signal). */
  async #closeLaunched(only?: ReadonlySet<number>): Promise<void> {
    const pids = [...this.#launched.keys()].filter((pid) => !only || only.has(pid))
    for (const pid of pids) this.#launched.delete(pid)
    if (!pids.length) return
    await this.options.host
      .call('close', { pids, timeoutMs: 5_000 }, { timeoutMs: 5_000 + WAIT_MARGIN_MS })
      .catch((error: Error) =>
        this.options.log.warn({ err: error.message, pids }, 'launched apps not closed'),
      )
  }

  /**
   * A build starts exploring: each app's saved settings are read at the build's first fresh start
   * of it, to be put back when it ends (settings-guard.ts), and the apps it starts and closes are
   * followed (build-apps.ts). Resolves whether settings can be guarded here (Linux).
   */
  async guardSettings(): Promise<{ guarded: boolean }> {
    return this.#serial(async () => {
      this.#build.begin()
      return this.#settings.start()
    })
  }

  /**
   * Launches, a build's start and a build's end take turns: the end must not close, put back or
   * start again while a launch of the build (one it no longer waits for: it was cancelled) goes on.
   */
  #serial<T>(call: () => Promise<T>): Promise<T> {
    const turn = this.#turn.then(call, call)
    this.#turn = turn.catch(() => undefined)
    return turn
  }

  /**
   * The build ended: the apps it started are closed as a person closes them (an app saves its
   * settings as it quits), then every settings file of theirs changed, removed or added since
   * guardSettings() is put back as it was; last, an app that was open before the build and closed
   * by one of its fresh starts is started again, so the desktop is left as the build found it.
   */
  restoreSettings(): Promise<SettingsPutBack & { reopened: string[] }> {
    return this.#serial(() => this.#restoreSettings())
  }

  async #restoreSettings(): Promise<SettingsPutBack & { reopened: string[] }> {
    // Only the apps this build started: an app a live run left open is the person's now.
    const { close, reopen } = this.#build.end()
    const done = await this.#settings.end(() => this.#closeLaunched(close))
    if (done.restored.length || done.removed.length)
      this.options.log.info(done, 'settings the build changed were put back')
    const reopened: string[] = []
    // The person's app again, as theirs: not closed when the agent stops, nor taken for the build's.
    for (const app of reopen)
      await this.#start(app, false)
        .then((w) => reopened.push(w.title || app.executable!))
        .catch((err: Error) =>
          this.options.log.warn({ err: err.message, executable: app.executable }, 'app not started again'),
        )
    return { ...done, reopened }
  }

  async listWindows(): Promise<WindowInfo[]> {
    const { windows } = await this.options.host.call('listWindows', {})
    return windows.map((w) => this.#windowInfo(w))
  }

  /**
   * Starts the app afresh: its running instances (same executable, or the same script for an
   * interpreter) are ended first, so a build and a run always begin from the app's start state;
   * resolves with its first window once the accessibility bus reports it. An app spec without an
   * executable attaches to a window that is already open (by title or process name).
   */
  async launch(app: AppSpec): Promise<WindowInfo> {
    if (!app.executable) return this.#attach(app)
    return this.#serial(() => this.#launch(app))
  }

  async #launch(app: AppSpec): Promise<WindowInfo> {
    const { host } = this.options
    const cwd = app.cwd
    const closed = await host.call(
      'close',
      { executable: app.executable, args: app.args, cwd, processName: app.processName, timeoutMs: 5_000 },
      { timeoutMs: 5_000 + WAIT_MARGIN_MS },
    )
    // Processes that ended are forgotten (their pids may be reused by another program).
    for (const pid of closed.pids ?? []) this.#launched.delete(pid)
    this.#build.closed(app, closed.pids ?? [])
    const reset = this.#settings.freshStart(app)
    if (reset.restored.length || reset.removed.length)
      this.options.log.info(reset, 'settings the build changed were put back before a fresh start')
    const window = await this.#start(app)
    const notice = closeNotice(closed)
    if (notice) this.options.log.warn({ locks: closed.staleLocks, executable: app.executable }, notice)
    return { ...window, ...(notice ? { notice } : {}) }
  }

  /** Starts the app's process and resolves with its first window, focused; `own`: this driver's to close. */
  async #start(app: AppSpec, own = true): Promise<WindowInfo> {
    const timeoutMs = this.options.launchTimeoutMs ?? 30_000
    const { window, pid } = await this.options.host.call(
      'launch',
      {
        executable: app.executable!,
        args: app.args,
        cwd: app.cwd,
        titleContains: app.titleContains,
        timeoutMs,
      },
      { timeoutMs: timeoutMs + WAIT_MARGIN_MS },
    )
    if (own) {
      this.#launched.set(pid, app)
      this.#build.started(pid, app)
    }
    this.options.log.info({ pid, executable: app.executable, window: window.title }, 'app launched')
    await this.focusWindow(window.id).catch(() => {})
    return this.#windowInfo(window)
  }

  async #attach(app: AppSpec): Promise<WindowInfo> {
    const found = attachable(app, await this.listWindows())
    await this.focusWindow(found.id)
    return found
  }

  async navigate(): Promise<WindowInfo> {
    throw new DriverError('UNSUPPORTED_ACTION', 'A native app has no addresses to navigate to')
  }

  /** Native apps keep no web session the agent could clear. */
  async clearSession(): Promise<boolean> {
    return false
  }

  async desktopState(): Promise<DesktopState> {
    return (await this.options.host.call('session', {})).state
  }

  async focusWindow(windowId: string): Promise<void> {
    await this.#on(windowId, (id) => this.options.host.call('focus', { windowId: id }))
  }

  snapshot(windowId: string): Promise<Snapshot> {
    return this.#on(windowId, (id) => this.#snapshot(id))
  }

  async #snapshot(windowId: string): Promise<Snapshot> {
    const { host, profile } = this.options
    const maxElements = this.options.maxElements ?? 2_000
    const result = await host.call(
      'snapshot',
      { windowId, maxElements },
      { timeoutMs: this.options.callTimeoutMs },
    )
    const instance = host.instance
    const window = this.#windowInfo(result.window)
    if (result.truncated)
      this.options.log.warn({ windowId, maxElements }, 'snapshot cut short at the element budget')
    const origin = result.window.bounds ?? { x: 0, y: 0 }
    const root = mapWindowTree(result.root, window.title, {
      profile,
      origin,
      ref: (helperRef) => `${instance}/${helperRef}`,
    })
    this.#rememberSecretFields(windowId, secretFieldBoxes(root))
    return { window, root, capturedAt: new Date().toISOString() }
  }

  /**
   * Where the window's latest snapshot found its secret fields. A helper walks the whole tree to
   * find them, too slow for every preview frame, and a snapshot here would make the refs of a
   * build or run stale: the recorder, the runner and the builder snapshot the window as it changes.
   * Only a window nobody has looked at yet is read here (no refs of it are held).
   */
  async secretFieldBounds(windowId: string): Promise<Bounds[]> {
    return this.#secretFields.get(windowId) ?? secretFieldBoxes((await this.snapshot(windowId)).root)
  }

  /** The windows read most recently are remembered; a long-lived agent sees many come and go. */
  #rememberSecretFields(windowId: string, boxes: Bounds[]): void {
    this.#secretFields.delete(windowId)
    this.#secretFields.set(windowId, boxes)
    const oldest = this.#secretFields.keys().next().value
    if (this.#secretFields.size > REMEMBERED_WINDOWS && oldest !== undefined)
      this.#secretFields.delete(oldest)
  }

  async act(windowId: string, action: ElementAction): Promise<ActionResult> {
    const ref = action.ref === undefined ? undefined : this.#helperRef(action.ref)
    const sent = { ...action, ...(ref === undefined ? {} : { ref }) } as ElementAction
    // On the window that stands for this one, but never followed here: keys meant for a dialog
    // that just closed must not land in the main window (its selected row).
    return this.options.host.call(
      'act',
      { windowId: this.#windows.current(windowId), action: sent },
      { timeoutMs: this.options.callTimeoutMs },
    )
  }

  async screenshot(windowId: string): Promise<Uint8Array> {
    const { jpeg } = await this.#on(windowId, (id) =>
      this.options.host.call('screenshot', { windowId: id }, { timeoutMs: this.options.callTimeoutMs }),
    )
    return new Uint8Array(Buffer.from(jpeg, 'base64'))
  }

  async waitForChange(windowId: string, timeoutMs: number): Promise<ChangeResult> {
    const wait = Math.max(0, Math.round(timeoutMs))
    // A window that closed while its app goes on has changed: that is the change waited for.
    const { result } = await this.#on(
      windowId,
      (id) =>
        this.options.host.call(
          'waitForChange',
          { windowId: id, timeoutMs: wait },
          { timeoutMs: wait + WAIT_MARGIN_MS },
        ),
      () => ({ result: 'changed' as const }),
    )
    return result
  }

  /**
   * Reports a person's input in the window until the returned function is called. Values, checks
   * and selections come from the app's accessibility events; clicks and keys from `input()` and,
   * where the X server has RECORD, from the PC's own mouse and keyboard.
   */
  watchInput(windowId: string, onEvent: (event: InputEvent) => void): Promise<() => Promise<void>> {
    const { host, log, callTimeoutMs } = this.options
    return watchHelperInput({
      host,
      log,
      windowId,
      callTimeoutMs,
      onLine: (line) => onEvent(this.#inputEvent(line)),
      onWindow: (call) => this.#on(windowId, call),
    })
  }

  /** A remote viewer's click, typing, key or wheel as real X input at window-relative pixels. */
  async input(windowId: string, input: RemoteInput): Promise<void> {
    refuseRemoteInput(input)
    if (input.kind === 'type' && input.x !== undefined && input.y !== undefined)
      await this.input(windowId, { kind: 'click', x: input.x, y: input.y })
    await this.#on(windowId, (id) =>
      this.options.host.call(
        'input',
        { windowId: id, input: input.kind === 'type' ? { kind: 'type', text: input.text } : input },
        { timeoutMs: (this.options.callTimeoutMs ?? 15_000) + WAIT_MARGIN_MS },
      ),
    )
  }

  #inputEvent(line: HelperEvent<'input'>): InputEvent {
    const event: InputEvent = { kind: line.kind }
    const target = line.target && recordedTarget(line.target, this.options.profile)
    if (target) event.target = target
    if (line.secret) event.secret = true
    else if (line.value !== undefined) event.value = line.value
    if (line.key !== undefined) event.key = line.key
    return event
  }

  /**
   * The model's window. `launchCommand` says how to start its app afresh: as this driver launched
   * it (the app spec's own command), else as its process was started.
   */
  #windowInfo(window: HelperWindow): WindowInfo {
    this.#windows.seen(window)
    const info: WindowInfo = { id: window.id, title: window.title, app: window.app, kind: 'window' }
    const launched = this.#launched.get(window.pid)
    if (launched?.executable)
      info.launchCommand = {
        executable: launched.executable,
        ...(launched.args ? { args: launched.args } : {}),
        ...(launched.cwd ? { cwd: launched.cwd } : {}),
      }
    else if (window.command?.argv.length) {
      const [executable, ...args] = window.command.argv
      info.launchCommand = {
        executable: executable!,
        ...(args.length ? { args } : {}),
        ...(window.command.cwd ? { cwd: window.command.cwd } : {}),
      }
    }
    return info
  }

  /** Refs are `<helper instance>/<helper ref>`: one from before a helper restart points at nothing. */
  #helperRef(ref: string): string {
    const slash = ref.indexOf('/')
    if (slash < 0 || Number(ref.slice(0, slash)) !== this.options.host.instance)
      throw new DriverError(
        'STALE_REF',
        `Ref ${ref} is from before the helper restarted: take a new snapshot`,
      )
    return ref.slice(slash + 1)
  }
}

// The contract between the automation runner / builder and a desktop technology. It lives in
// protocol/ so the runner and the builder (which call drivers) and the agent (which owns them)
// all import it from below, without importing each other. One folder per driver under
// agent/drivers/ (browser over CDP; native desktops through an accessibility helper).
import type { AppSpec } from './automation.ts'
import type { ActionResult, Bounds, ElementAction, Snapshot, WindowInfo } from './elements.ts'
import type { DriverKind } from './messages.ts'
import type { InputEvent, RemoteInput } from './recording.ts'

export type DriverErrorCode =
  /** The ref is from an older snapshot or its node is gone: take a new snapshot. */
  | 'STALE_REF'
  /** Another element (an overlay, a modal) would receive the click. */
  | 'ELEMENT_OBSCURED'
  | 'ELEMENT_DISABLED'
  /** The element cannot take this action (fill on a button, select on a link…). */
  | 'UNSUPPORTED_ACTION'
  | 'OPTION_NOT_FOUND'
  | 'WINDOW_NOT_FOUND'
  /** A native dialog blocks the page: only the dialog can be acted on (and no screenshot taken). */
  | 'BLOCKED_BY_DIALOG'
  | 'LAUNCH_FAILED'
  /** The page tried to leave the app (another origin than the app's own and its allowed ones). */
  | 'NAVIGATION_BLOCKED'
  | 'TIMEOUT'
  | 'DISCONNECTED'
  | 'PROTOCOL_ERROR'
  /** The OS refused (another user's process, an elevated window): the agent lacks the rights. */
  | 'ACCESS_DENIED'
  /** A native driver's helper process did not answer in time; it was killed and is restarted. */
  | 'HELPER_TIMEOUT'
  /** A native driver's helper process died during the call; it is restarted for the next one. */
  | 'HELPER_CRASHED'
  /**
   * The PC's session cannot be reached for now: locked, disconnected (a closed Remote Desktop
   * window) or showing the secure desktop (a UAC prompt). It passes when someone comes back, so a
   * run waits for it (docs/windows.md, "Locked and disconnected sessions").
   */
  | 'DESKTOP_LOCKED'

/**
 * Whether the desktop can be reached now, as the agent reports it at every heartbeat and the
 * dashboard shows it. `no_desktop`: session 0 (the agent started as a service) — it never passes.
 */
export const DESKTOP_STATES = ['active', 'locked', 'disconnected', 'secure_desktop', 'no_desktop'] as const
export type DesktopState = (typeof DESKTOP_STATES)[number]

export class DriverError extends Error {
  override readonly name = 'DriverError'
  constructor(
    readonly code: DriverErrorCode,
    message: string,
  ) {
    super(message)
  }

  /** Failures that a fresh snapshot and another try can cure (the UI was still moving). */
  get retryable(): boolean {
    return this.code === 'STALE_REF' || this.code === 'ELEMENT_OBSCURED' || this.code === 'ELEMENT_DISABLED'
  }
}

export type ChangeResult = 'changed' | 'timeout'

export interface Driver {
  /** browser: Chromium/Edge over CDP; desktop: Linux AT-SPI; windows: UI Automation. */
  readonly kind: DriverKind

  /** Starts or attaches to the UI technology; idempotent. */
  start(): Promise<void>
  /** Releases everything start() acquired (a launched browser is closed, an attached one is left running). */
  stop(): Promise<void>

  listWindows(): Promise<WindowInfo[]>
  /**
   * Opens the app (browser: a tab at app.url, reusing a tab of the same origin so repeated runs
   * do not pile up tabs) and returns its window once it has loaded.
   */
  launch(app: AppSpec): Promise<WindowInfo>
  /**
   * Opens an absolute URL in the window (same tab) and resolves once it has loaded. Fails with
   * NAVIGATION_BLOCKED outside the launched app's origins, LAUNCH_FAILED when it cannot load.
   * Live drivers return the window as loaded; a driver over a recorded screen has none to give.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a recorded screen's driver resolves with nothing
  navigate(windowId: string, url: string): Promise<WindowInfo | void>
  /**
   * Signs the desktop out of the app in the window, so it shows its sign-in form again: the
   * stored session (cookies, site storage) of the window's current origin only, in the agent's
   * own browser profile. Resolves false when there is nothing it may clear (a browser it only
   * attached to, native apps). Builds of jobs with credentials call it first.
   */
  clearSession?(windowId: string): Promise<boolean>
  /**
   * A build starts: the desktop user's saved settings are read, to be put back by
   * restoreSettings() when it ends (native drivers; src/agent/drivers/native/settings-guard.ts).
   */
  guardSettings?(): Promise<{ guarded: boolean }>
  /**
   * The build ended: the apps it started are closed, settings it changed are put back, and apps
   * that were open before it and closed by its fresh starts are started again (`reopened`: their
   * windows' titles).
   */
  restoreSettings?(): Promise<{ restored: string[]; removed: string[]; reopened?: string[] }>
  /** Brings the window to the foreground so input goes to it. */
  focusWindow(windowId: string): Promise<void>

  /** A fresh element tree of the window. Refs in it are valid until the next snapshot of that window. */
  snapshot(windowId: string): Promise<Snapshot>
  /**
   * Acts like a user on an element of the latest snapshot and resolves once the UI has settled
   * (navigation finished, network and DOM quiet, or a dialog opened).
   */
  act(windowId: string, action: ElementAction): Promise<ActionResult>
  /** JPEG bytes of the window as it is now. */
  screenshot(windowId: string): Promise<Uint8Array>
  /**
   * Where the window's secret fields (password boxes, as automation/secret-fields.ts names them)
   * are, in screenshot pixels, found cheaply enough for every frame of a stream: one query of the
   * page, or what the window's latest snapshot found. Unlike a snapshot it leaves refs and change
   * tracking alone. Optional: without it, a caller finds them with a snapshot.
   */
  secretFieldBounds?(windowId: string): Promise<Bounds[]>
  /**
   * Resolves 'changed' at the next UI change in the window (DOM mutation, navigation, dialog
   * opened or closed, focus or value change) or 'timeout' after timeoutMs. Lets callers wait on
   * a condition by re-checking it after every change, with their own deadline, instead of sleeping.
   */
  waitForChange(windowId: string, timeoutMs: number): Promise<ChangeResult>

  /**
   * "Show me": reports what a person does in the window (clicks, typed values, options chosen,
   * keys, navigations) as InputEvents until the returned stop function is called. A password
   * field's value is never reported (`secret: true`). Optional: a driver without it cannot record.
   */
  watchInput?(windowId: string, onEvent: (event: InputEvent) => void): Promise<() => Promise<void>>
  /**
   * Performs input from a remote viewer (the dashboard's live preview) as a person's would be:
   * real pointer and keyboard events at window coordinates, never a call on the element.
   */
  input?(windowId: string, input: RemoteInput): Promise<void>
  /**
   * Whether the desktop can be reached now (cheap: asked at every heartbeat and while a run waits
   * for a locked session). Optional: a driver without it is always reachable (a browser).
   */
  desktopState?(): Promise<DesktopState>
}

/**
 * What each driver can drive, said once for the agent's `--help`, `deskhook desktops list`, the
 * dashboard's desktop page and the README: `short` fits a table column, `summary` a help text.
 */
export const DRIVER_CAPABILITIES: Record<DriverKind, { short: string; summary: string }> = {
  browser: {
    short: 'web apps (Chromium/Edge)',
    summary:
      'web apps in Chromium or Edge over the DevTools protocol: pages, forms, tables, native alert/confirm ' +
      'dialogs, origin-locked tabs; screenshots of the page',
  },
  desktop: {
    short: 'native Linux apps (AT-SPI)',
    summary:
      'native Linux apps (GTK, Qt…) through the AT-SPI accessibility bus: windows and modal dialogs, ' +
      'fields, buttons, menus, combo boxes, lists, spin buttons, tables; screenshots and synthetic input through X11',
  },
  windows: {
    short: 'native Windows apps (UI Automation)',
    summary: 'native Windows apps through UI Automation (the Windows helper)',
  },
}

/** The short capability of a driver named by a stored string (an older agent's, or an unknown one: ''). */
export function drives(driver: string): string {
  return Object.hasOwn(DRIVER_CAPABILITIES, driver) ? DRIVER_CAPABILITIES[driver as DriverKind].short : ''
}

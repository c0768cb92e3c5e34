// The browser driver: Chromium/Edge over the DevTools protocol, one tab per window.

import type { Protocol } from 'devtools-protocol'
import type { AppSpec } from '../../../protocol/automation.ts'
import { type ChangeResult, type Driver, DriverError } from '../../../protocol/driver.ts'
import type { ActionResult, Bounds, ElementAction, Snapshot, WindowInfo } from '../../../protocol/elements.ts'
import type { InputEvent, RemoteInput } from '../../../protocol/recording.ts'
import { performOnNode } from './actions.ts'
import { CdpConnection, CdpSession } from './cdp-connection.ts'
import { actOnDialog, isDialogPart } from './dialogs.ts'
import { pressKeys } from './keyboard.ts'
import {
  type LaunchedBrowser,
  type LaunchOptions,
  launchBrowser,
  resolveDevtoolsUrl,
} from './launch-browser.ts'
import { navigateLeaving } from './navigation.ts'
import { partOf, snapshotPage } from './page-snapshot.ts'
import { passwordFieldBounds } from './password-fields.ts'
import { watchPageInput } from './recording.ts'
import { performRemoteInput } from './remote-input.ts'
import { originOf, TabRegistry } from './tab-registry.ts'
import { settle } from './waiting.ts'

export interface BrowserDriverOptions extends LaunchOptions {
  /** Attach to a running browser (`http://host:port` or its `ws://` URL) instead of launching one. */
  devtoolsUrl?: string
  /** Upper bound on waiting for the page to settle after an action. */
  settleTimeoutMs?: number
  navigationTimeoutMs?: number
}

interface TabApp {
  origin: string
  allowed: Set<string>
  /** The address the tab was launched at: the app's start state. */
  startUrl?: string
}

/** Names every browser resolves without asking anyone (see hostResolverRules). */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]']

/** URLs that never leave the browser: always allowed by the origin lock. */
const LOCAL_SCHEMES = ['about:', 'data:', 'blob:', 'chrome-error:', 'devtools:']

export class BrowserDriver implements Driver {
  readonly kind = 'browser'
  private connection?: CdpConnection
  private tabs?: TabRegistry
  private browser?: LaunchedBrowser
  /**
   * The app each tab of ours was launched for (popups inherit their opener's): its origin and the
   * origins it may load. A tab with an app is origin-locked to them; one without is not locked.
   */
  private readonly apps = new Map<string, TabApp>()
  /** Host names the launched browser can resolve (its --host-resolver-rules). */
  private readonly hosts: Set<string>
  /** Tabs this driver opened or launched an app into, and popups they opened (attached mode). */
  private readonly own = new Set<string>()

  constructor(private readonly options: BrowserDriverOptions = {}) {
    this.hosts = new Set([...LOOPBACK_HOSTS, ...(options.allowHosts ?? [])])
  }

  async start(): Promise<void> {
    if (this.connection && !this.connection.isClosed) return
    if (this.options.devtoolsUrl) {
      this.connection = await CdpConnection.connect(await resolveDevtoolsUrl(this.options.devtoolsUrl))
    } else {
      this.browser = await launchBrowser({ ...this.options, allowHosts: [...this.hosts] })
      this.connection = await CdpConnection.connect(this.browser.wsUrl).catch(async (error) => {
        await this.browser?.dispose()
        throw error
      })
    }
    const tabs = new TabRegistry(this.connection)
    tabs.onTab = (target) => void this.guardTab(target)
    this.tabs = tabs
    await tabs.start()
    // New tabs start paused until we let them run, so a popup of an app is origin-locked
    // before its first request (closing it afterwards would be too late for that request).
    const connection = this.connection
    connection.on('Target.attachedToTarget', (event, from) => {
      if (from === undefined && event.waitingForDebugger) void this.holdNewTarget(connection, event)
    })
    await connection.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
    })
  }

  private async holdNewTarget(
    connection: CdpConnection,
    { sessionId, targetInfo }: Protocol.Target.AttachedToTargetEvent,
  ): Promise<void> {
    const session = new CdpSession(connection, sessionId)
    const { targetId, openerId } = targetInfo
    const app = openerId ? this.apps.get(openerId) : undefined
    try {
      if (app && targetInfo.type === 'page') {
        this.own.add(targetId)
        if (!this.apps.has(targetId)) this.apps.set(targetId, app)
        session.on('Fetch.requestPaused', ({ requestId, request }) => {
          const allowed = this.allows(targetId, request.url)
          const reply = allowed
            ? session.send('Fetch.continueRequest', { requestId })
            : session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' })
          reply.catch(() => {})
        })
        await session.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] })
      }
    } catch {
      // The target went away while paused: nothing to guard.
    } finally {
      await session.send('Runtime.runIfWaitingForDebugger').catch(() => {})
    }
  }

  /** Whether the tab may show the URL: inside the app it was launched for (any URL without one). */
  allows(targetId: string, url: string): boolean {
    const app = this.apps.get(targetId)
    if (!app || LOCAL_SCHEMES.some((scheme) => url.startsWith(scheme))) return true
    return app.allowed.has(originOf(url))
  }

  /** A launched browser is all ours; in someone's own browser only the tabs we opened are. */
  private owns(targetId: string): boolean {
    return this.browser !== undefined || this.own.has(targetId)
  }

  /** A popup the app opens stays inside the app: locked like its opener, closed if it is elsewhere. */
  private async guardTab(target: Protocol.Target.TargetInfo): Promise<void> {
    const { targetId, openerId } = target
    const openerApp = openerId ? this.apps.get(openerId) : undefined
    if (!openerApp) return
    this.own.add(targetId)
    if (!this.apps.has(targetId)) {
      this.apps.set(targetId, openerApp)
      const page = await this.tabs?.page(targetId).catch(() => undefined)
      await page?.lockOrigins((url) => this.allows(targetId, url)).catch(() => {})
    }
    if (target.url && !this.allows(targetId, target.url)) await this.tabs?.close(targetId)
  }

  /** Restarts a launched browser whose resolver rules lack one of the hosts (a new app's host). */
  private async ensureHosts(hosts: string[]): Promise<void> {
    const missing = hosts.filter((host) => host && !this.hosts.has(host))
    if (missing.length === 0) return
    for (const host of missing) this.hosts.add(host)
    if (!this.browser) return
    await this.stop()
    await this.start()
  }

  async stop(): Promise<void> {
    const { connection, browser } = this
    if (this.tabs) this.tabs.onTab = undefined
    this.tabs?.dispose()
    this.connection = this.tabs = this.browser = undefined
    this.apps.clear()
    this.own.clear()
    // Close a browser we launched politely first (it flushes its profile); leave an attached one running.
    let closing = false
    if (connection && browser)
      closing = await connection
        .send('Browser.close', undefined, { timeoutMs: 5_000 })
        .then(() => true)
        .catch(() => false)
    connection?.close()
    await browser?.dispose(closing ? 5_000 : 0)
  }

  async listWindows(): Promise<WindowInfo[]> {
    // A launched tab says where its app starts, so a build starts there, not where the last one left it.
    return this.registry()
      .list()
      .map((w) => {
        const startUrl = this.apps.get(w.id)?.startUrl
        return startUrl ? { ...w, startUrl } : w
      })
  }

  async launch(app: AppSpec): Promise<WindowInfo> {
    // A browser that died (crashed, killed by someone) is started again by the next launch:
    // the agent outlives its browser instead of failing every run from then on.
    if (this.connection?.isClosed) {
      await this.stop()
      await this.start()
    }
    if (!app.url) {
      const title = app.titleContains?.toLowerCase()
      const found = title
        ? this.registry()
            .list()
            .find((w) => w.title.toLowerCase().includes(title))
        : undefined
      if (!found) throw new DriverError('WINDOW_NOT_FOUND', 'The browser driver needs app.url to open an app')
      await this.focusWindow(found.id)
      return found
    }
    const origin = originOf(app.url)
    const allowed = new Set([origin, ...(app.allowOrigins ?? []).map(originOf)])
    await this.ensureHosts([...allowed].flatMap(hostOf))
    const tabs = this.registry()
    // Launching starts afresh: the app's tab (even if it wandered to another page or site), else
    // a tab of ours showing the app or a blank one, else a new tab, is sent to the start URL.
    const ours = tabs.list().filter((w) => this.owns(w.id))
    const appOf = (id: string) => this.apps.get(id)?.origin
    const targetId =
      ours.find((w) => appOf(w.id) === origin)?.id ??
      ours.find((w) => !appOf(w.id) && w.url !== undefined && originOf(w.url) === origin)?.id ??
      ours.find((w) => !appOf(w.id) && w.url === 'about:blank')?.id ??
      (await tabs.open())
    this.own.add(targetId)
    this.apps.set(targetId, { origin, allowed, startUrl: app.url })
    // Tabs of ours left on other sites by earlier builds or runs are closed; other apps' windows stay.
    for (const stray of ours) {
      if (stray.id === targetId || !stray.url || stray.url === 'about:blank') continue
      if (!this.apps.has(stray.id) || !this.allows(stray.id, stray.url)) await tabs.close(stray.id)
    }
    const page = await tabs.page(targetId)
    await page.lockOrigins((url) => this.allows(targetId, url))
    await this.focusWindow(targetId)
    // A dialog left open by an earlier, failed run would block the tab for good: launching starts afresh.
    if (page.dialog) await page.session.send('Page.handleJavaScriptDialog', { accept: false })
    const timeoutMs = this.options.navigationTimeoutMs ?? 30_000
    const blockedBefore = page.blockedNavigations.length
    const { errorText, loaderId } = await navigateLeaving(page, app.url, timeoutMs).catch((error: Error) => {
      throw new DriverError('LAUNCH_FAILED', `Cannot open ${app.url}: ${error.message}`)
    })
    const redirected = page.blockedNavigations[blockedBefore]
    if (redirected !== undefined)
      throw new DriverError(
        'LAUNCH_FAILED',
        `Cannot open ${app.url}: it leads to ${redirected}, outside the app (add ${originOf(redirected)} to app.allowOrigins if that is part of it, e.g. its sign-in)`,
      )
    if (errorText) throw new DriverError('LAUNCH_FAILED', `Cannot open ${app.url}: ${errorText}`)
    await settle(page, { maxMs: timeoutMs })
    const status = loaderId === undefined ? undefined : page.documentStatus.get(loaderId)
    // 401/403 are sign-in pages, which a job can get past; missing pages and server errors are not.
    if (status !== undefined && status >= 400 && status !== 401 && status !== 403)
      throw new DriverError('LAUNCH_FAILED', `Cannot open ${app.url}: the server answered HTTP ${status}`)
    return tabs.fresh(targetId)
  }

  async navigate(windowId: string, url: string): Promise<WindowInfo> {
    const page = await this.registry().page(windowId)
    if (!this.allows(windowId, url)) throw blockedError(url, this.apps.get(windowId))
    if (page.dialog)
      throw new DriverError('BLOCKED_BY_DIALOG', `A ${page.dialog.type} dialog is open: act on it first`)
    const timeoutMs = this.options.navigationTimeoutMs ?? 30_000
    const { errorText } = await navigateLeaving(page, url, timeoutMs)
    if (errorText === 'net::ERR_ABORTED' && page.blockedNavigations.at(-1) === url)
      throw blockedError(url, this.apps.get(windowId))
    if (errorText) throw new DriverError('LAUNCH_FAILED', `Cannot open ${url}: ${errorText}`)
    await settle(page, { maxMs: timeoutMs })
    return this.registry().fresh(windowId)
  }

  /**
   * Signs the browser out of the app in the tab: the cookies, local storage, IndexedDB, caches and
   * service workers of the tab's current origin, and its session storage. Only in a browser the
   * agent launched (its own profile); a browser it attached to is someone's own and kept as it is.
   */
  async clearSession(windowId: string): Promise<boolean> {
    if (!this.browser) return false
    const tabs = this.registry()
    const url = (await tabs.fresh(windowId)).url
    const origin = url ? originOf(url) : ''
    if (!/^https?:\/\//.test(origin)) return false
    const page = await tabs.page(windowId)
    const { cookies } = await page.call('Network.getCookies', { urls: [origin] })
    for (const { name, domain, path } of cookies)
      await page.call('Network.deleteCookies', { name, domain, path })
    await page.call('Storage.clearDataForOrigin', {
      origin,
      storageTypes: 'cookies,local_storage,indexeddb,cache_storage,service_workers',
    })
    await page.call('Runtime.evaluate', { expression: 'try { sessionStorage.clear() } catch {}' })
    return true
  }

  async focusWindow(windowId: string): Promise<void> {
    const page = await this.registry().page(windowId)
    await page.session.connection.send('Target.activateTarget', { targetId: windowId })
    await page.session.send('Page.bringToFront')
  }

  async snapshot(windowId: string): Promise<Snapshot> {
    const tabs = this.registry()
    const page = await tabs.page(windowId)
    try {
      return await snapshotPage(page, () => tabs.fresh(windowId))
    } catch (error) {
      // A dialog opened while the tree was being read: the dialog is what the window shows now.
      if (error instanceof DriverError && error.code === 'BLOCKED_BY_DIALOG') return this.snapshot(windowId)
      throw error
    }
  }

  async act(windowId: string, action: ElementAction): Promise<ActionResult> {
    const page = await this.registry().page(windowId)
    const part = action.ref === undefined ? 'root' : partOf(action.ref, page.generation)
    const blockedBefore = page.blockedNavigations.length
    let result: ActionResult = {}
    if (isDialogPart(part) || (part === 'root' && page.dialog)) {
      result = await actOnDialog(page, part, action)
    } else if (page.dialog) {
      throw new DriverError('BLOCKED_BY_DIALOG', `A ${page.dialog.type} dialog is open: act on it first`)
    } else {
      try {
        if (part !== 'root') result = await performOnNode(page, Number(part), action)
        else if (action.kind === 'keys') await pressKeys(page, action.keys)
        else if (action.kind === 'focus') await this.focusWindow(windowId)
        else throw new DriverError('UNSUPPORTED_ACTION', `Cannot ${action.kind} the window itself`)
      } catch (error) {
        // Input that opened a native dialog froze the page mid-action: the dialog is its outcome.
        if (!(error instanceof DriverError && error.code === 'BLOCKED_BY_DIALOG' && page.dialog)) throw error
      }
    }
    await settle(page, { maxMs: this.options.settleTimeoutMs })
    const blocked = page.blockedNavigations[blockedBefore]
    if (blocked !== undefined) throw blockedError(blocked, this.apps.get(windowId))
    return result
  }

  async screenshot(windowId: string): Promise<Uint8Array> {
    const page = await this.registry().page(windowId)
    const { data } = await page.call('Page.captureScreenshot', { format: 'jpeg', quality: 75 })
    return new Uint8Array(Buffer.from(data, 'base64'))
  }

  /** One query in the page, no snapshot: cheap enough for every frame of the live preview. */
  async secretFieldBounds(windowId: string): Promise<Bounds[]> {
    return passwordFieldBounds(await this.registry().page(windowId))
  }

  async waitForChange(windowId: string, timeoutMs: number): Promise<ChangeResult> {
    return (await this.registry().page(windowId)).changedSinceSeen(timeoutMs)
  }

  /** One recorder per window: watching a window again stops the earlier watcher. */
  async watchInput(windowId: string, onEvent: (event: InputEvent) => void): Promise<() => Promise<void>> {
    return watchPageInput(await this.registry().page(windowId), onEvent)
  }

  async input(windowId: string, input: RemoteInput): Promise<void> {
    await performRemoteInput(await this.registry().page(windowId), input)
  }

  private registry(): TabRegistry {
    if (!this.tabs || !this.connection || this.connection.isClosed) {
      throw new DriverError('DISCONNECTED', 'The browser driver is not started (or the browser has gone)')
    }
    return this.tabs
  }
}

function blockedError(url: string, app: TabApp | undefined): DriverError {
  const inside = app ? [...app.allowed].join(', ') : 'the app'
  return new DriverError(
    'NAVIGATION_BLOCKED',
    `Blocked leaving the app for ${url}: only ${inside} may be opened (add the origin to app.allowOrigins if the app needs it)`,
  )
}

/** The host name of an origin, for the resolver rules (IP literals need no resolving but do no harm). */
function hostOf(origin: string): string[] {
  try {
    const { hostname } = new URL(origin)
    return hostname ? [hostname] : []
  } catch {
    return []
  }
}

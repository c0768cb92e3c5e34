// The browser driver: Chromium/Edge over the DevTools protocol, one tab per window.
import type { AppSpec } from '../../../protocol/automation.ts'
import type {
  ActionResult,
  ElementAction,
  Snapshot,
  UiElement,
  WindowInfo,
} from '../../../protocol/elements.ts'
import { type ChangeResult, type Driver, DriverError } from '../driver.ts'
import { performOnNode } from './actions.ts'
import { mapAxTree } from './ax-tree.ts'
import { CdpConnection } from './cdp-connection.ts'
import { actOnDialog, dialogElement, isDialogPart } from './dialogs.ts'
import { collectDomFacts } from './dom-facts.ts'
import { pressKeys } from './keyboard.ts'
import {
  type LaunchedBrowser,
  type LaunchOptions,
  launchBrowser,
  resolveDevtoolsUrl,
} from './launch-browser.ts'
import { originOf, TabRegistry } from './tab-registry.ts'
import { settle } from './waiting.ts'

export interface BrowserDriverOptions extends LaunchOptions {
  /** Attach to a running browser (`http://host:port` or its `ws://` URL) instead of launching one. */
  devtoolsUrl?: string
  /** Upper bound on waiting for the page to settle after an action. */
  settleTimeoutMs?: number
  navigationTimeoutMs?: number
}

export class BrowserDriver implements Driver {
  readonly kind = 'browser'
  private connection?: CdpConnection
  private tabs?: TabRegistry
  private browser?: LaunchedBrowser

  constructor(private readonly options: BrowserDriverOptions = {}) {}

  async start(): Promise<void> {
    if (this.connection && !this.connection.isClosed) return
    if (this.options.devtoolsUrl) {
      this.connection = await CdpConnection.connect(await resolveDevtoolsUrl(this.options.devtoolsUrl))
    } else {
      this.browser = await launchBrowser(this.options)
      this.connection = await CdpConnection.connect(this.browser.wsUrl).catch(async (error) => {
        await this.browser?.dispose()
        throw error
      })
    }
    this.tabs = new TabRegistry(this.connection)
    await this.tabs.start()
  }

  async stop(): Promise<void> {
    const { connection, browser } = this
    this.tabs?.dispose()
    this.connection = this.tabs = this.browser = undefined
    // Close a browser we launched politely first (it flushes its profile); leave an attached one running.
    if (connection && browser)
      await connection.send('Browser.close', undefined, { timeoutMs: 5_000 }).catch(() => {})
    connection?.close()
    await browser?.dispose()
  }

  async listWindows(): Promise<WindowInfo[]> {
    return this.registry().list()
  }

  async launch(app: AppSpec): Promise<WindowInfo> {
    const tabs = this.registry()
    if (!app.url) {
      const title = app.titleContains?.toLowerCase()
      const found = title ? tabs.list().find((w) => w.title.toLowerCase().includes(title)) : undefined
      if (!found) throw new DriverError('WINDOW_NOT_FOUND', 'The browser driver needs app.url to open an app')
      await this.focusWindow(found.id)
      return found
    }
    const targetId = tabs.findReusable(originOf(app.url)) ?? (await tabs.open())
    const page = await tabs.page(targetId)
    await this.focusWindow(targetId)
    // A dialog left open by an earlier, failed run would block the tab for good: launching starts afresh.
    if (page.dialog) await page.session.send('Page.handleJavaScriptDialog', { accept: false })
    const timeoutMs = this.options.navigationTimeoutMs ?? 30_000
    const { errorText } = await page.call('Page.navigate', { url: app.url }, timeoutMs)
    if (errorText) throw new DriverError('LAUNCH_FAILED', `Cannot open ${app.url}: ${errorText}`)
    await settle(page, { maxMs: timeoutMs })
    return tabs.fresh(targetId)
  }

  async focusWindow(windowId: string): Promise<void> {
    const page = await this.registry().page(windowId)
    await page.session.connection.send('Target.activateTarget', { targetId: windowId })
    await page.session.send('Page.bringToFront')
  }

  async snapshot(windowId: string): Promise<Snapshot> {
    const tabs = this.registry()
    const page = await tabs.page(windowId)
    page.seenSeq = page.changeSeq
    const generation = ++page.generation
    const ref = (part: string | number) => `${generation}:${part}`
    const window = await tabs.fresh(windowId)
    const capturedAt = new Date().toISOString()
    if (page.dialog) {
      const children = [dialogElement(page.dialog, ref)]
      const root: UiElement = { ref: ref('root'), role: 'window', name: window.title, states: [], children }
      return { window, root, capturedAt }
    }
    try {
      const [ax, dom] = await Promise.all([
        page.call('Accessibility.getFullAXTree', {}),
        page.call('DOMSnapshot.captureSnapshot', { computedStyles: [] }),
      ])
      const facts = collectDomFacts(dom)
      const root = mapAxTree(ax.nodes, { facts, ref, rootRef: ref('root'), title: window.title })
      return { window, root, capturedAt }
    } catch (error) {
      // A dialog opened while the tree was being read: the dialog is what the window shows now.
      if (error instanceof DriverError && error.code === 'BLOCKED_BY_DIALOG') return this.snapshot(windowId)
      throw error
    }
  }

  async act(windowId: string, action: ElementAction): Promise<ActionResult> {
    const page = await this.registry().page(windowId)
    const part = action.ref === undefined ? 'root' : partOf(action.ref, page.generation)
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
    return result
  }

  async screenshot(windowId: string): Promise<Uint8Array> {
    const page = await this.registry().page(windowId)
    const { data } = await page.call('Page.captureScreenshot', { format: 'jpeg', quality: 75 })
    return new Uint8Array(Buffer.from(data, 'base64'))
  }

  /** Also counts changes since the latest snapshot (or previous wait), so none falls between look and wait. */
  async waitForChange(windowId: string, timeoutMs: number): Promise<ChangeResult> {
    const page = await this.registry().page(windowId)
    const result = page.changeSeq !== page.seenSeq ? 'changed' : await page.nextChange(timeoutMs)
    page.seenSeq = page.changeSeq
    return result
  }

  private registry(): TabRegistry {
    if (!this.tabs || !this.connection || this.connection.isClosed) {
      throw new DriverError('DISCONNECTED', 'The browser driver is not started (or the browser has gone)')
    }
    return this.tabs
  }
}

/** Refs are `<snapshot generation>:<node>`; one from an older snapshot may point at a changed UI. */
function partOf(ref: string, generation: number): string {
  const colon = ref.indexOf(':')
  if (colon < 0 || Number(ref.slice(0, colon)) !== generation) {
    throw new DriverError('STALE_REF', `Ref ${ref} is not from the latest snapshot of this window`)
  }
  return ref.slice(colon + 1)
}

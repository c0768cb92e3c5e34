// The browser driver: Chromium/Edge over the DevTools protocol. Tabs are windows; each one is
// attached as soon as it appears so that native dialogs and changes are never missed.
import type { Protocol } from 'devtools-protocol'
import type { AppSpec } from '../../../protocol/automation.ts'
import type {
  ActionResult,
  ElementAction,
  Snapshot,
  UiElement,
  WindowInfo,
} from '../../../protocol/elements.ts'
import { type ChangeResult, type Driver, DriverError } from '../driver.ts'
import { checkNode, clickNode, fillNode, focusNode, readNode, selectNode } from './actions.ts'
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
import { PageTarget } from './page-target.ts'
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
  private browser?: LaunchedBrowser
  private readonly targets = new Map<string, Protocol.Target.TargetInfo>()
  private readonly pages = new Map<string, Promise<PageTarget>>()

  constructor(private readonly options: BrowserDriverOptions = {}) {}

  async start(): Promise<void> {
    if (this.connection && !this.connection.isClosed) return
    let wsUrl: string
    if (this.options.devtoolsUrl) {
      wsUrl = await resolveDevtoolsUrl(this.options.devtoolsUrl)
    } else {
      this.browser = await launchBrowser(this.options)
      wsUrl = this.browser.wsUrl
    }
    const connection = await CdpConnection.connect(wsUrl)
    this.connection = connection
    connection.on('Target.targetCreated', ({ targetInfo }) => {
      if (!isTab(targetInfo)) return
      this.targets.set(targetInfo.targetId, targetInfo)
      void this.page(targetInfo.targetId).catch(() => {})
    })
    connection.on('Target.targetInfoChanged', ({ targetInfo }) => {
      if (this.targets.has(targetInfo.targetId)) this.targets.set(targetInfo.targetId, targetInfo)
    })
    connection.on('Target.targetDestroyed', ({ targetId }) => this.forget(targetId))
    connection.on('Target.detachedFromTarget', ({ targetId }) => targetId && this.forget(targetId))
    // Reports the tabs that already exist as targetCreated events, then every new one.
    await connection.send('Target.setDiscoverTargets', { discover: true })
  }

  async stop(): Promise<void> {
    const connection = this.connection
    this.connection = undefined
    for (const id of [...this.targets.keys()]) this.forget(id)
    if (connection && this.browser)
      await connection.send('Browser.close', undefined, { timeoutMs: 5_000 }).catch(() => {})
    connection?.close()
    await this.browser?.dispose()
    this.browser = undefined
  }

  async listWindows(): Promise<WindowInfo[]> {
    this.requireConnection()
    return [...this.targets.values()].map(windowInfo)
  }

  async launch(app: AppSpec): Promise<WindowInfo> {
    const connection = this.requireConnection()
    if (!app.url) {
      const windows = await this.listWindows()
      const title = app.titleContains?.toLowerCase()
      const found = title ? windows.find((w) => w.title.toLowerCase().includes(title)) : undefined
      if (!found) throw new DriverError('WINDOW_NOT_FOUND', 'The browser driver needs app.url to open an app')
      await this.focusWindow(found.id)
      return found
    }
    const origin = originOf(app.url)
    const tabs = [...this.targets.values()]
    let targetId = (tabs.find((t) => originOf(t.url) === origin) ?? tabs.find((t) => t.url === 'about:blank'))
      ?.targetId
    targetId ??= (await connection.send('Target.createTarget', { url: 'about:blank' })).targetId
    const page = await this.page(targetId)
    await this.focusWindow(targetId)
    const timeoutMs = this.options.navigationTimeoutMs ?? 30_000
    const { errorText } = await page.call('Page.navigate', { url: app.url }, timeoutMs)
    if (errorText) throw new DriverError('LAUNCH_FAILED', `Cannot open ${app.url}: ${errorText}`)
    await settle(page, { maxMs: timeoutMs })
    return this.freshWindowInfo(targetId)
  }

  async focusWindow(windowId: string): Promise<void> {
    const page = await this.page(windowId)
    await this.requireConnection().send('Target.activateTarget', { targetId: windowId })
    await page.session.send('Page.bringToFront')
  }

  async snapshot(windowId: string): Promise<Snapshot> {
    const page = await this.page(windowId)
    page.seenSeq = page.changeSeq
    const generation = ++page.generation
    const ref = (part: string | number) => `${generation}:${part}`
    const window = await this.freshWindowInfo(windowId)
    const capturedAt = new Date().toISOString()
    if (page.dialog) {
      const root: UiElement = {
        ref: ref('root'),
        role: 'window',
        name: window.title,
        states: [],
        children: [dialogElement(page.dialog, ref)],
      }
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
    const page = await this.page(windowId)
    const part = action.ref === undefined ? 'root' : partOf(action.ref, page.generation)
    if (isDialogPart(part) || (part === 'root' && page.dialog)) {
      const result = await actOnDialog(page, part, action)
      await settle(page, { maxMs: this.options.settleTimeoutMs })
      return result
    }
    if (page.dialog)
      throw new DriverError('BLOCKED_BY_DIALOG', `A ${page.dialog.type} dialog is open: act on it first`)
    let result: ActionResult = {}
    try {
      result = await this.perform(page, part, action)
    } catch (error) {
      // Input that opened a native dialog froze the page mid-action: the dialog is its outcome.
      if (!(error instanceof DriverError && error.code === 'BLOCKED_BY_DIALOG' && page.dialog)) throw error
    }
    await settle(page, { maxMs: this.options.settleTimeoutMs })
    return result
  }

  async screenshot(windowId: string): Promise<Uint8Array> {
    const page = await this.page(windowId)
    const { data } = await page.call('Page.captureScreenshot', { format: 'jpeg', quality: 75 })
    return new Uint8Array(Buffer.from(data, 'base64'))
  }

  /** Counts changes since the latest snapshot (or previous wait) too, so none falls between look and wait. */
  async waitForChange(windowId: string, timeoutMs: number): Promise<ChangeResult> {
    const page = await this.page(windowId)
    const result = page.changeSeq !== page.seenSeq ? 'changed' : await page.nextChange(timeoutMs)
    page.seenSeq = page.changeSeq
    return result
  }

  private async perform(page: PageTarget, part: string, action: ElementAction): Promise<ActionResult> {
    if (part === 'root') {
      if (action.kind === 'keys') return pressKeys(page, action.keys).then(() => ({}))
      if (action.kind === 'focus') return this.focusWindow(page.targetId).then(() => ({}))
      throw new DriverError('UNSUPPORTED_ACTION', `Cannot ${action.kind} the window itself`)
    }
    const node = Number(part)
    switch (action.kind) {
      case 'click':
        await clickNode(page, node, action)
        return {}
      case 'fill':
        return fillNode(page, node, action.value)
      case 'select':
        return selectNode(page, node, action.values)
      case 'check':
        return checkNode(page, node, action.checked)
      case 'keys':
        await focusNode(page, node)
        await pressKeys(page, action.keys)
        return {}
      case 'focus':
        await focusNode(page, node)
        return {}
      case 'read':
        return readNode(page, node)
    }
  }

  /** The attached tab, attaching on first use (attachment is shared by concurrent callers). */
  private page(targetId: string): Promise<PageTarget> {
    const connection = this.requireConnection()
    const existing = this.pages.get(targetId)
    if (existing) return existing
    if (!this.targets.has(targetId))
      return Promise.reject(new DriverError('WINDOW_NOT_FOUND', `No tab ${targetId}`))
    const attached = PageTarget.attach(connection, targetId)
    this.pages.set(targetId, attached)
    attached.catch(() => this.pages.delete(targetId))
    return attached
  }

  private forget(targetId: string): void {
    this.targets.delete(targetId)
    const page = this.pages.get(targetId)
    this.pages.delete(targetId)
    page?.then((p) => p.dispose()).catch(() => {})
  }

  private async freshWindowInfo(targetId: string): Promise<WindowInfo> {
    const { targetInfo } = await this.requireConnection().send('Target.getTargetInfo', { targetId })
    this.targets.set(targetId, targetInfo)
    return windowInfo(targetInfo)
  }

  private requireConnection(): CdpConnection {
    if (!this.connection || this.connection.isClosed)
      throw new DriverError('DISCONNECTED', 'The browser driver is not started')
    return this.connection
  }
}

function isTab(target: Protocol.Target.TargetInfo): boolean {
  return (
    target.type === 'page' &&
    !target.url.startsWith('devtools://') &&
    !target.url.startsWith('chrome-extension://')
  )
}

function windowInfo(target: Protocol.Target.TargetInfo): WindowInfo {
  return {
    id: target.targetId,
    title: target.title || target.url,
    app: originOf(target.url),
    kind: 'tab',
    url: target.url,
  }
}

function originOf(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.origin !== 'null') return parsed.origin
    return parsed.protocol === 'file:' ? 'file://' : url
  } catch {
    return url
  }
}

/** Refs are `<snapshot generation>:<node>`; one from an older snapshot may point at a changed UI. */
function partOf(ref: string, generation: number): string {
  const colon = ref.indexOf(':')
  const refGeneration = Number(ref.slice(0, colon))
  if (colon < 0 || refGeneration !== generation) {
    throw new DriverError('STALE_REF', `Ref ${ref} is not from the latest snapshot of this window`)
  }
  return ref.slice(colon + 1)
}

// Keeps track of the browser's tabs (our windows) and attaches to each one as soon as it appears,
// so a native dialog or a change in a tab opened by the app (window.open) is never missed.
import type { Protocol } from 'devtools-protocol'
import { DriverError } from '../../../protocol/driver.ts'
import type { WindowInfo } from '../../../protocol/elements.ts'
import type { CdpConnection } from './cdp-connection.ts'
import { PageTarget } from './page-target.ts'

type TargetInfo = Protocol.Target.TargetInfo

export class TabRegistry {
  private readonly targets = new Map<string, TargetInfo>()
  private readonly pages = new Map<string, Promise<PageTarget>>()

  /** Told about every tab that appears or changes address (the driver closes strays). */
  onTab?: (target: TargetInfo) => void

  constructor(private readonly connection: CdpConnection) {}

  async start(): Promise<void> {
    const { connection } = this
    connection.on('Target.targetCreated', ({ targetInfo }) => {
      if (!isTab(targetInfo)) return
      this.targets.set(targetInfo.targetId, targetInfo)
      void this.page(targetInfo.targetId).catch(() => {})
      this.onTab?.(targetInfo)
    })
    connection.on('Target.targetInfoChanged', ({ targetInfo }) => {
      if (!this.targets.has(targetInfo.targetId)) return
      this.targets.set(targetInfo.targetId, targetInfo)
      this.onTab?.(targetInfo)
    })
    connection.on('Target.targetDestroyed', ({ targetId }) => this.forget(targetId))
    connection.on('Target.detachedFromTarget', ({ targetId }) => targetId && this.forget(targetId))
    // Reports the tabs that already exist as targetCreated events, then every new one.
    await connection.send('Target.setDiscoverTargets', { discover: true })
  }

  list(): WindowInfo[] {
    return [...this.targets.values()].map(windowInfo)
  }

  /** A tab already showing the origin, else a blank one to reuse, else undefined. */
  findReusable(origin: string): string | undefined {
    const tabs = [...this.targets.values()]
    return (tabs.find((t) => originOf(t.url) === origin) ?? tabs.find((t) => t.url === 'about:blank'))
      ?.targetId
  }

  info(targetId: string): TargetInfo | undefined {
    return this.targets.get(targetId)
  }

  async close(targetId: string): Promise<void> {
    this.forget(targetId)
    await this.connection.send('Target.closeTarget', { targetId }).catch(() => {})
  }

  async open(): Promise<string> {
    const { targetId } = await this.connection.send('Target.createTarget', { url: 'about:blank' })
    this.targets.set(targetId, (await this.connection.send('Target.getTargetInfo', { targetId })).targetInfo)
    return targetId
  }

  /** The attached tab, attaching on first use (one attachment shared by concurrent callers). */
  page(targetId: string): Promise<PageTarget> {
    const existing = this.pages.get(targetId)
    if (existing) return existing
    if (!this.targets.has(targetId))
      return Promise.reject(new DriverError('WINDOW_NOT_FOUND', `No tab ${targetId}`))
    const attached = PageTarget.attach(this.connection, targetId)
    this.pages.set(targetId, attached)
    attached.catch(() => this.pages.delete(targetId))
    return attached
  }

  /** Window info straight from the browser (titles change after load, events may lag). */
  async fresh(targetId: string): Promise<WindowInfo> {
    const { targetInfo } = await this.connection.send('Target.getTargetInfo', { targetId })
    this.targets.set(targetId, targetInfo)
    return windowInfo(targetInfo)
  }

  dispose(): void {
    for (const id of [...this.targets.keys()]) this.forget(id)
  }

  private forget(targetId: string): void {
    this.targets.delete(targetId)
    const page = this.pages.get(targetId)
    this.pages.delete(targetId)
    page?.then((p) => p.dispose()).catch(() => {})
  }
}

function isTab(target: TargetInfo): boolean {
  return (
    target.type === 'page' &&
    !target.url.startsWith('devtools://') &&
    !target.url.startsWith('chrome-extension://')
  )
}

function windowInfo(target: TargetInfo): WindowInfo {
  return {
    id: target.targetId,
    title: target.title || target.url,
    app: originOf(target.url),
    kind: 'tab',
    url: target.url,
  }
}

/** The app a tab belongs to: its URL origin (`file://` for local files, the URL itself for about:blank). */
export function originOf(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.origin !== 'null') return parsed.origin
    return parsed.protocol === 'file:' ? 'file://' : url
  } catch {
    return url
  }
}

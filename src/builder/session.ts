// One build's working state and its two channels: the desktop (every call guarded, so a lost
// agent becomes DESKTOP_ERROR instead of an exception) and the person teaching (progress, questions).
import type { TargetAction } from '../automation/act-on-target.ts'
import { describeSelector, renderSelector, resolveSelector, type TemplateScope } from '../automation/index.ts'
import type { AppSpec, Selector } from '../protocol/automation.ts'
import type { ActionResult, ElementAction, Snapshot, UiElement, WindowInfo } from '../protocol/elements.ts'
import type { BuildFailureCode, BuildIO, BuildRequest, DesktopPort, Question } from './contract.ts'
import { appeared } from './observe/ui-diff.ts'

export type Stage = 'locate' | 'explore' | 'map' | 'submit' | 'observe' | 'outputs' | 'compose' | 'verify'

/** Ends the build with a failure the person teaching can act on. */
export class BuildFailure extends Error {
  override readonly name = 'BuildFailure'
  constructor(
    readonly code: BuildFailureCode,
    message: string,
  ) {
    super(message)
  }
}

/**
 * A control the desktop could not act on (hidden, covered, disabled, gone): while exploring it is
 * skipped, never the end of the build. A lost desktop or agent is not this.
 */
export function unreachable(error: unknown): boolean {
  return (
    error instanceof BuildFailure &&
    error.code === 'DESKTOP_ERROR' &&
    /ELEMENT_OBSCURED|ELEMENT_DISABLED|ELEMENT_NOT_FOUND|STALE_REF|is not on the screen|matches several elements|click would land on|no visible box/.test(
      error.message,
    )
  )
}

/** How long the UI must stay unchanged to count as settled, and the most a settle may take. */
const QUIET_MS = 400
const SETTLE_MAX_MS = 10_000
/** "Saving…", "Loading...": a text that says the app is still working. */
const WORKING = /(…|\.\.\.)$/

/** Whether this build can be shown: its BuildIO can hand over a recording. */
export function canBeShown(session: BuildSession): boolean {
  return typeof session.io.recording === 'function'
}

export class BuildSession {
  windowId = ''

  constructor(
    readonly port: DesktopPort,
    readonly io: BuildIO,
    readonly request: BuildRequest,
  ) {}

  /** The input as steps see it: the sample plus the job's secrets (`{{$secrets.password}}`), in memory only. */
  scope(input: Record<string, unknown>): Record<string, unknown> {
    const secrets = this.request.secrets
    return secrets && Object.keys(secrets).length ? { ...input, $secrets: secrets } : input
  }

  progress(stage: Stage, message: string, data?: Record<string, unknown>): void {
    this.io.progress(stage, message, data)
  }

  ask(question: Question): Promise<string | string[]> {
    return this.io.ask(question)
  }

  /** Runs a desktop call; anything it throws means the desktop could not do it. */
  async desktop<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      if (error instanceof BuildFailure) throw error
      const reason = error instanceof Error ? error.message : String(error)
      throw new BuildFailure('DESKTOP_ERROR', `${what} failed on desktop “${this.port.name}”: ${reason}`)
    }
  }

  async launch(app: AppSpec): Promise<WindowInfo> {
    const window = await this.desktop('Opening the app', () => this.port.launch(app))
    if (window.notice) this.progress('locate', window.notice)
    this.windowId = window.id
    return window
  }

  async navigate(url: string): Promise<WindowInfo> {
    const window = await this.desktop(`Opening ${url}`, () => this.port.navigate(this.windowId, url))
    this.windowId = window.id
    return window
  }

  snapshot(): Promise<Snapshot> {
    return this.desktop('Reading the window', () => this.port.snapshot(this.windowId))
  }

  /** Acts on the element a selector picks in a fresh snapshot, waiting (bounded) for it to show up. */
  async act(selector: Selector, action: TargetAction, scope: TemplateScope = {}): Promise<ActionResult> {
    const rendered = renderSelector(selector, scope)
    const deadline = performance.now() + SETTLE_MAX_MS
    for (;;) {
      const snapshot = await this.snapshot()
      const resolution = resolveSelector(snapshot.root, rendered)
      if (resolution.status === 'found') {
        const full = { ...action, ref: resolution.element.ref } as ElementAction
        return this.desktop(`${action.kind} on ${describeSelector(rendered)}`, () =>
          this.port.act(this.windowId, full),
        )
      }
      const remaining = deadline - performance.now()
      if (resolution.status === 'ambiguous' || remaining <= 0) {
        const problem =
          resolution.status === 'ambiguous' ? 'matches several elements' : 'is not on the screen'
        throw new BuildFailure('DESKTOP_ERROR', `${describeSelector(rendered)} ${problem}`)
      }
      await this.desktop('Waiting for the window', () => this.port.waitForChange(this.windowId, remaining))
    }
  }

  /**
   * Waits until the window has been quiet for a moment and shows no sign of work in progress
   * (a busy region, a new "Saving…" text, or the caller's own sign), at most SETTLE_MAX_MS.
   */
  async settle(baseline?: UiElement, stillWorking?: (root: UiElement) => boolean): Promise<Snapshot> {
    const started = performance.now()
    const deadline = started + SETTLE_MAX_MS
    for (;;) {
      const remaining = deadline - performance.now()
      const change =
        remaining <= 0
          ? 'timeout'
          : await this.desktop('Waiting for the window', () =>
              this.port.waitForChange(this.windowId, Math.min(QUIET_MS, remaining)),
            )
      if (change === 'changed') continue
      const snapshot = await this.snapshot()
      const working = isWorking(snapshot.root, baseline) || stillWorking?.(snapshot.root) === true
      if (!working || performance.now() >= deadline) return snapshot
    }
  }
}

function isWorking(root: UiElement, baseline: UiElement | undefined): boolean {
  const stack = [root]
  while (stack.length) {
    const element = stack.pop()!
    if (element.states.includes('busy')) return true
    stack.push(...element.children)
  }
  const fresh = baseline ? appeared(baseline, root) : []
  return fresh.some((e) => !ACTIONS.has(e.role) && WORKING.test(e.name))
}

/** Controls whose "…" says they open a dialog ("Accounts...", "Save As…"), not that the app is busy. */
const ACTIONS = new Set(['button', 'link', 'menuitem', 'option', 'tab', 'treeitem'])

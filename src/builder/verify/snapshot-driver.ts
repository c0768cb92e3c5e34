// A Driver that answers from one recorded screen: the builder's way to check the steps after a
// submit without pressing the submit again. Real apps keep their data, so a sample's side effect
// may happen once only (DESIGN §4): the exploring submit is the sample's run, and what follows
// it (the wait, the branches, the reads) is checked by the real runner against the screen that
// submit produced. Clicks (closing a message) are accepted without effect, except one the builder
// saw lead to another screen (opening the record found), which shows that screen.
import { type RunResult, runAutomation } from '../../automation/index.ts'
import type { Automation, Step } from '../../protocol/automation.ts'
import { type Driver, DriverError } from '../../protocol/driver.ts'
import type { ActionResult, ElementAction, Snapshot, UiElement, WindowInfo } from '../../protocol/elements.ts'

export class SnapshotDriver implements Driver {
  readonly kind = 'browser' as const
  readonly #byRef = new Map<string, UiElement>()
  readonly #next: Snapshot[]

  /**
   * `next`: screens a click led to when the builder saw it (a record opened from its row in the
   * results, open-record.ts); each click shows the next one, in order.
   */
  constructor(
    public screen: Snapshot,
    next: Snapshot[] = [],
  ) {
    this.#next = [...next]
    this.#show(screen)
  }

  #show(screen: Snapshot): void {
    this.screen = screen
    this.#byRef.clear()
    const visit = (e: UiElement) => {
      this.#byRef.set(e.ref, e)
      e.children.forEach(visit)
    }
    visit(screen.root)
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
  async listWindows(): Promise<WindowInfo[]> {
    return [this.screen.window]
  }
  async launch(): Promise<WindowInfo> {
    return this.screen.window
  }
  async navigate(): Promise<WindowInfo> {
    throw new DriverError('UNSUPPORTED_ACTION', 'A recorded screen cannot be navigated')
  }
  async focusWindow(): Promise<void> {}
  async snapshot(): Promise<Snapshot> {
    return this.screen
  }
  async screenshot(): Promise<Uint8Array> {
    return new Uint8Array()
  }
  async waitForChange(): Promise<'changed' | 'timeout'> {
    return 'timeout'
  }
  async act(_windowId: string, action: ElementAction): Promise<ActionResult> {
    const element = 'ref' in action && action.ref ? this.#byRef.get(action.ref) : undefined
    if (!element) throw new DriverError('STALE_REF', 'No such element on the recorded screen')
    if (action.kind === 'read') return readOf(element)
    if (action.kind === 'click') {
      const next = this.#next.shift()
      if (next) this.#show(next)
      return {}
    }
    if (action.kind === 'focus') return {}
    throw new DriverError('UNSUPPORTED_ACTION', `A recorded screen cannot take “${action.kind}”`)
  }
}

/** What the browser driver's read returns, from the element tree: a control's value, else its text. */
function readOf(element: UiElement): ActionResult {
  const text = textOf(element)
  if (element.role === 'textbox' || element.role === 'spinbutton' || element.role === 'combobox')
    return { text: element.value ?? text, value: element.value ?? '' }
  return { text }
}

export function textOf(element: UiElement): string {
  if (element.children.length === 0) return element.name
  const inner = element.children.map(textOf).filter(Boolean).join(' ').replace(/\s+/g, ' ').trim()
  // A text's accessible name is its whole rendered text ("Customer C-1042 created"), while its
  // children may hold only the marked-up part ("C-1042"); a container's name is often a label.
  if (!inner || element.name.includes(inner)) return element.name
  return inner
}

/**
 * Runs `automation.steps[from…]` (and any scenario a branch enters) against the recorded screen,
 * with the real runner: the ending's wait, the branches and the reads, exactly as a live run
 * would take them on that screen.
 */
export async function runOnScreen(
  automation: Automation,
  from: number,
  screen: Snapshot,
  input: Record<string, unknown>,
  next: Snapshot[] = [],
): Promise<RunResult> {
  // Nothing changes on a recorded screen: every wait is one look.
  const once = (steps: Step[]): Step[] =>
    steps.map((s) => (s.timeoutMs === undefined ? s : { ...s, timeoutMs: 0 }))
  const rest: Automation = {
    ...automation,
    steps: once(automation.steps.slice(from)),
    scenarios: automation.scenarios.map((s) => ({ ...s, steps: once(s.steps) })),
  }
  return runAutomation(
    new SnapshotDriver(screen, next),
    rest,
    input,
    {},
    {
      screenshots: false,
      defaultStepTimeoutMs: 0,
      recheckMs: 0,
    },
  )
}

import type { DesktopPort } from '../../builder/contract.ts'
import { newId } from '../../lib/ids.ts'
import type { AppSpec, Automation } from '../../protocol/automation.ts'
import type { ActionResult, ElementAction, Snapshot, WindowInfo } from '../../protocol/elements.ts'
import type { StepRecord } from '../../protocol/messages.ts'
import type { AgentHub } from '../agent-hub/index.ts'

/** Verification runs get the server's run timeout's spirit: bounded, but generous for slow apps. */
const VERIFY_TIMEOUT_MS = 120_000

/** The builder's view of a desktop, over the agent connection (remote driver calls and runs). */
export function hubDesktop(hub: AgentHub, desktopId: string, name: string): DesktopPort {
  const call = <T>(method: Parameters<AgentHub['rpc']>[1], ...params: unknown[]) =>
    hub.rpc<T>(desktopId, method, params, 60_000)
  return {
    name,
    listWindows: () => call<WindowInfo[]>('listWindows'),
    launch: (app: AppSpec) => call<WindowInfo>('launch', app),
    navigate: (windowId: string, url: string) => call<WindowInfo>('navigate', windowId, url),
    snapshot: (windowId: string) => call<Snapshot>('snapshot', windowId),
    act: (windowId: string, action: ElementAction) => call<ActionResult>('act', windowId, action),
    // An agent older than this call does not answer it: a short deadline, and the build goes on.
    clearSession: (windowId: string) => hub.rpc<boolean>(desktopId, 'clearSession', [windowId], 15_000),
    waitForChange: (windowId: string, timeoutMs: number) =>
      hub.rpc<'changed' | 'timeout'>(desktopId, 'waitForChange', [windowId, timeoutMs], timeoutMs + 10_000),
    async run(automation: Automation, input: Record<string, unknown>) {
      const steps = new Map<number, StepRecord>()
      const runId = newId()
      const outcome = await hub.run(
        desktopId,
        { runId, automation, input, timeoutMs: VERIFY_TIMEOUT_MS },
        (_event, step) => {
          // The builder reads outcomes, not pictures: keep the verification cheap.
          const { screenshot: _, ...rest } = step
          steps.set(step.executionOrder, rest)
        },
      )
      // A verification run is not recorded anywhere: nothing to wait for before the agent forgets it.
      hub.acknowledge(desktopId, runId)
      return { ...outcome, steps: [...steps.values()].sort((a, b) => a.executionOrder - b.executionOrder) }
    },
  }
}

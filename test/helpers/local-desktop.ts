// A DesktopPort over a driver in this process (the browser, or a native desktop's): the builder's
// desktop in tests, without a server or an agent in between. `run` is the real runner, as an
// agent would execute it.
import { runAutomation } from '../../src/automation/index.ts'
import type { DesktopPort } from '../../src/builder/contract.ts'
import type { Driver } from '../../src/protocol/driver.ts'
import type { WindowInfo } from '../../src/protocol/elements.ts'
import type { StepRecord } from '../../src/protocol/messages.ts'

export function localDesktop(driver: Driver, name = 'test-desktop'): DesktopPort & { runs: number } {
  const port = {
    name,
    runs: 0,
    listWindows: () => driver.listWindows(),
    launch: (app: Parameters<Driver['launch']>[0]) => driver.launch(app),
    navigate: async (windowId: string, url: string) => (await driver.navigate(windowId, url)) as WindowInfo,
    snapshot: (windowId: string) => driver.snapshot(windowId),
    act: (windowId: string, action: Parameters<Driver['act']>[1]) => driver.act(windowId, action),
    waitForChange: (windowId: string, timeoutMs: number) => driver.waitForChange(windowId, timeoutMs),
    clearSession: async (windowId: string) => (await driver.clearSession?.(windowId)) ?? false,
    async run(automation: Parameters<DesktopPort['run']>[0], input: Record<string, unknown>) {
      port.runs++
      const startedAt = new Date().toISOString()
      const result = await runAutomation(driver, automation, input, {}, { screenshots: false })
      const steps: StepRecord[] = result.steps.map((step) => ({
        flowName: step.flowName,
        executionOrder: step.executionOrder,
        totalSteps: step.totalSteps,
        status: step.status,
        result: step.result,
        startedAt: step.startedAt,
        finishedAt: step.finishedAt,
        ...(step.error ? { error: step.error } : {}),
      }))
      return {
        status: result.status,
        scenario: result.scenario,
        outcome: result.outcome,
        result: result.result,
        ...(result.error ? { error: result.error } : {}),
        startedAt,
        finishedAt: new Date().toISOString(),
        steps,
      }
    },
  }
  return port
}

// A DesktopPort over a BrowserDriver in this process: the builder's desktop in tests, without a
// server or an agent in between. `run` is the real runner, as an agent would execute it.
import type { BrowserDriver } from '../../src/agent/drivers/browser/index.ts'
import { runAutomation } from '../../src/automation/index.ts'
import type { DesktopPort } from '../../src/builder/contract.ts'
import type { StepRecord } from '../../src/protocol/messages.ts'

export function localDesktop(driver: BrowserDriver, name = 'test-desktop'): DesktopPort & { runs: number } {
  const port = {
    name,
    runs: 0,
    listWindows: () => driver.listWindows(),
    launch: (app: Parameters<BrowserDriver['launch']>[0]) => driver.launch(app),
    navigate: (windowId: string, url: string) => driver.navigate(windowId, url),
    snapshot: (windowId: string) => driver.snapshot(windowId),
    act: (windowId: string, action: Parameters<BrowserDriver['act']>[1]) => driver.act(windowId, action),
    waitForChange: (windowId: string, timeoutMs: number) => driver.waitForChange(windowId, timeoutMs),
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

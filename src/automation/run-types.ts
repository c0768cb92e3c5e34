// What a run reports: per-step results through hooks (they become status events and the
// replay), and one final result (it becomes the HTTP answer: 200, 207 or 502).
import type { Outcome, RunError, RunStatus, StepStatus } from '../protocol/automation.ts'
import type { Bounds } from '../protocol/elements.ts'

export interface StepStarted {
  /** The step's name. */
  flowName: string
  /** 1-based position in this run. */
  executionOrder: number
  /** Steps this run will take as now known; it changes when a branch switches to a scenario. */
  totalSteps: number
  startedAt: string
}

export interface StepResult extends StepStarted {
  status: StepStatus
  /** JSON: what the step did (`{ value }` filled, `{ customerId: "C-1042" }` read, …); null when it failed. */
  result: unknown
  finishedAt: string
  /** JPEG of the window after the step; absent when none could be taken (no window yet, a native dialog). */
  screenshot?: Uint8Array
  /** Where the element the step acted on or read is in the screenshot; absent when unknown or off screen. */
  target?: Bounds
  error?: RunError
}

export interface RunResult {
  status: RunStatus
  /** Name of the scenario the run ended in (the main path's name when no branch was taken). */
  scenario: string
  outcome: Outcome
  /** The outputs: values read by `read` steps plus the ending scenario's output templates. */
  result: Record<string, unknown>
  error?: RunError
  steps: StepResult[]
}

export interface RunHooks {
  onStepStarted?(step: StepStarted): void | Promise<void>
  onStepFinished?(step: StepResult): void | Promise<void>
}

export interface RunOptions {
  /** Deadline of a step that sets no timeoutMs of its own. Default 10 s. */
  defaultStepTimeoutMs?: number
  /**
   * Longest wait for a UI change before a condition is checked again anyway. Change events are
   * the trigger; this only bounds the cost of a change a driver cannot observe (a CSS animation).
   */
  recheckMs?: number
  /** Stops the run (server cancelled it, run timeout); the current step fails with CANCELLED. */
  signal?: AbortSignal
  /** Take a screenshot after every step (default true). */
  screenshots?: boolean
  now?: () => Date
}

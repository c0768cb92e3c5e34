import type { ExecutionStatus, executionSteps, executions } from '../../db/schema/index.ts'

export type ExecutionRow = typeof executions.$inferSelect
export type StepRow = typeof executionSteps.$inferSelect

export interface StepView {
  flowName: string
  executionOrder: number
  totalSteps: number
  status: string
  result: unknown
  error: Record<string, unknown> | null
  startedAt: string
  finishedAt: string | null
  /** Keyed path of the step's screenshot, when one was taken. */
  screenshotPath: string | null
}

/** `GET /_executions/<id>` (DESIGN §2). */
export interface ExecutionView {
  jobExecutionId: string
  executionId: number
  jobId: string
  status: ExecutionStatus
  done: boolean
  /** Exactly the body a synchronous call returned (or would have). */
  result: unknown
  httpStatus: number | null
  steps: StepView[]
  scenario: string | null
  error: Record<string, unknown> | null
  replayUrl: string
  queuedAt: string
  startedAt: string | null
  finishedAt: string | null
  queuePosition: number | null
  waitReason: string | null
}

/** What a finished run becomes: the terminal status and the HTTP answer a sync caller gets. */
export interface Completion {
  status: ExecutionStatus
  httpStatus: number
  body: unknown
  scenario: string | null
  error: Record<string, unknown> | null
}

export const replayPath = (seq: number) => `/_/runs/${seq}`

import { TERMINAL_STATUSES } from '../../db/schema/index.ts'
import type { ExecutionRow, ExecutionView, StepRow } from './model.ts'
import { replayPath } from './model.ts'

export interface QueueInfo {
  queuePosition(seq: number): number
  waitReason(row: ExecutionRow): string
}

export function toExecutionView(row: ExecutionRow, steps: StepRow[], queue: QueueInfo): ExecutionView {
  const queued = row.status === 'queued'
  return {
    jobExecutionId: row.id,
    executionId: row.seq,
    jobId: row.jobId,
    status: row.status,
    done: TERMINAL_STATUSES.includes(row.status),
    result: row.result ?? null,
    httpStatus: row.httpStatus,
    steps: steps.map((s) => ({
      flowName: s.flowName,
      executionOrder: s.executionOrder,
      totalSteps: s.totalSteps,
      status: s.status,
      result: s.result ?? null,
      error: s.error ?? null,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
      screenshotPath: s.screenshot ? `/_executions/${row.id}/steps/${s.executionOrder}/screenshot` : null,
    })),
    scenario: row.scenario,
    error: row.error ?? null,
    replayUrl: `${row.baseUrl}${replayPath(row.seq)}`,
    queuedAt: row.queuedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    queuePosition: queued ? queue.queuePosition(row.seq) : null,
    waitReason: queued ? queue.waitReason(row) : null,
  }
}

import type { RunOutcome } from '../../protocol/messages.ts'
import type { Completion, ExecutionRow, StepRow } from './model.ts'
import { replayPath } from './model.ts'

const stepSummary = (s: StepRow) => ({
  flowName: s.flowName,
  executionOrder: s.executionOrder,
  totalSteps: s.totalSteps,
  status: s.status,
  result: s.result ?? null,
})

/**
 * Maps a run's report to the HTTP answer (seed §7): 200 with the outputs; 207 for a taught
 * alternate scenario (result, scenario, per-step outcomes); 502 with an error naming the step.
 */
export function completionFromOutcome(exec: ExecutionRow, outcome: RunOutcome, steps: StepRow[]): Completion {
  if (outcome.status === 'succeeded')
    return {
      status: 'succeeded',
      httpStatus: 200,
      body: outcome.result,
      scenario: outcome.scenario,
      error: null,
    }
  if (outcome.status === 'partial')
    return {
      status: 'partial',
      httpStatus: 207,
      body: { result: outcome.result, scenario: outcome.scenario, steps: steps.map(stepSummary) },
      scenario: outcome.scenario,
      error: null,
    }
  const e = outcome.error ?? { code: 'RUN_FAILED', message: 'The run failed' }
  const timedOut = e.code === 'CANCELLED' && /timed out/i.test(e.message)
  return completionFromFailure(exec, timedOut ? 'timed_out' : 'failed', {
    ...e,
    code: timedOut ? 'RUN_TIMED_OUT' : e.code,
    scenario: outcome.scenario,
  })
}

/** A run that ended without a normal report (timeout, agent lost, interrupted by a restart). */
export function completionFromFailure(
  exec: ExecutionRow,
  status: 'failed' | 'timed_out' | 'cancelled',
  error: { code: string; message: string } & Record<string, unknown>,
): Completion {
  const detail = {
    ...error,
    requestId: exec.requestId,
    jobExecutionId: exec.id,
    executionId: exec.seq,
    replayUrl: `${exec.baseUrl}${replayPath(exec.seq)}`,
  }
  return {
    status,
    httpStatus: 502,
    body: { error: detail },
    scenario: (error.scenario as string) ?? null,
    error,
  }
}

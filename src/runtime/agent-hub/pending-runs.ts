import type { RunOutcome, StepRecord } from '../../protocol/messages.ts'

export class AgentLostError extends Error {
  override readonly name = 'AgentLostError'
  readonly code = 'AGENT_LOST'
}

interface PendingRun {
  desktopId: string
  lease: string
  onStep?: (event: 'started' | 'finished', step: StepRecord) => void
  resolve(outcome: RunOutcome): void
  reject(err: Error): void
  /** Set while the run's agent is disconnected: when it fires, the run is lost. */
  graceTimer?: ReturnType<typeof setTimeout>
}

/**
 * Runs handed to an agent and not yet reported, keyed by run id (not by socket), so a report that
 * arrives over a new connection after a reconnect still finds its run.
 */
export class PendingRuns {
  #runs = new Map<string, PendingRun>()

  add(runId: string, run: PendingRun): void {
    this.#runs.set(runId, run)
  }

  get(runId: string): PendingRun | undefined {
    return this.#runs.get(runId)
  }

  /** The report arrived: settle and forget. Returns false for an unknown run. */
  settle(runId: string, outcome: RunOutcome): boolean {
    const run = this.#runs.get(runId)
    if (!run) return false
    clearTimeout(run.graceTimer)
    this.#runs.delete(runId)
    run.resolve(outcome)
    return true
  }

  fail(runId: string, err: Error): void {
    const run = this.#runs.get(runId)
    if (!run) return
    clearTimeout(run.graceTimer)
    this.#runs.delete(runId)
    run.reject(err)
  }

  /** The desktop's socket closed: its runs wait `graceMs` for the agent to come back and report. */
  startGrace(desktopId: string, graceMs: number): void {
    for (const [runId, run] of this.#runs) {
      if (run.desktopId !== desktopId || run.graceTimer) continue
      run.graceTimer = setTimeout(
        () =>
          this.fail(
            runId,
            new AgentLostError(
              `The desktop's agent disconnected during the run and did not report back within ${graceMs} ms`,
            ),
          ),
        graceMs,
      )
    }
  }

  /** The desktop is back: its runs are no longer in danger. */
  cancelGrace(desktopId: string): void {
    for (const run of this.#runs.values()) {
      if (run.desktopId === desktopId && run.graceTimer) {
        clearTimeout(run.graceTimer)
        run.graceTimer = undefined
      }
    }
  }

  failAll(err: Error): void {
    for (const runId of [...this.#runs.keys()]) this.fail(runId, err)
  }
}

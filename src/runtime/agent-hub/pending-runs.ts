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
  /** Its report was handed over and is being recorded: the run ends when that is acknowledged. */
  reported?: boolean
}

/** What became of a report: handed over (`first`), a re-send of one not yet recorded (`again`), or `unknown`. */
export type ReportVerdict = 'first' | 'again' | 'unknown'

/**
 * Runs handed to an agent and not yet recorded, keyed by run id (not by socket), so a report that
 * arrives over a new connection after a reconnect still finds its run. A run stays here after its
 * report until whoever records the report acknowledges it (forget): a report whose write failed
 * (a full disk) is still a known run's when the agent sends it again, never an unknown one
 * (docs/reliability.md, P22).
 */
export class PendingRuns {
  #runs = new Map<string, PendingRun>()

  add(runId: string, run: PendingRun): void {
    this.#runs.set(runId, run)
  }

  get(runId: string): PendingRun | undefined {
    return this.#runs.get(runId)
  }

  /** The report arrived: the first one settles the run; the run is kept until forget(). */
  report(runId: string, outcome: RunOutcome): ReportVerdict {
    const run = this.#runs.get(runId)
    if (!run) return 'unknown'
    if (run.reported) return 'again'
    run.reported = true
    clearTimeout(run.graceTimer)
    run.graceTimer = undefined
    run.resolve(outcome)
    return 'first'
  }

  /** The run's end is recorded (or nobody records it): nothing more to wait for. */
  forget(runId: string): void {
    const run = this.#runs.get(runId)
    if (!run) return
    clearTimeout(run.graceTimer)
    this.#runs.delete(runId)
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
      // A reported run is not lost with its agent: its report is here, being recorded.
      if (run.desktopId !== desktopId || run.graceTimer || run.reported) continue
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

import type { AppContext } from '../../context.ts'
import type { Completion, ExecutionRow } from '../../modules/executions/model.ts'
import { completionFromFailure } from '../../modules/executions/response.ts'
import { runningExecutions } from '../../modules/executions/service.ts'
import type { RunOutcome } from '../../protocol/messages.ts'
import type { AgentHub } from '../agent-hub/index.ts'

type Finish = (row: ExecutionRow, outcome: RunOutcome | null, fallback?: Completion) => void

/**
 * Executions that were `running` when the server stopped were handed to an agent and must not run
 * again. Their agent may still report (from its journal, or because it is still at it): wait for
 * that; otherwise, after the grace period, end them `failed` with INTERRUPTED.
 */
export class RunRecovery {
  #orphans = new Map<
    string,
    { row: ExecutionRow; timer: ReturnType<typeof setTimeout>; reported?: boolean }
  >()
  #listeners: (() => void)[] = []

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: AgentHub,
    private readonly finish: Finish,
  ) {}

  start(): void {
    for (const row of runningExecutions(this.ctx)) this.#watch(row, this.ctx.config.agentGraceMs)
    this.hub.setOrphanHandler((_desktopId, runId, lease, outcome) => {
      const orphan = this.#orphans.get(runId)
      if (!orphan || orphan.row.lease !== lease) return false
      // Its report is here: no INTERRUPTED. The orphan stays known until the end is written
      // (ended()), so a copy sent again after a failed write is written, not acknowledged unread.
      clearTimeout(orphan.timer)
      orphan.reported = true
      this.finish(orphan.row, outcome)
      return true
    })
    // An agent that comes back still busy with the run gets until the run's own deadline.
    const onOnline = (desktopId: string) => {
      const runId = this.hub.busyRunOf(desktopId)
      const orphan = runId ? this.#orphans.get(runId) : undefined
      if (!orphan || orphan.reported || orphan.row.desktopId !== desktopId) return
      const deadline =
        Date.parse(orphan.row.startedAt ?? '') + orphan.row.timeoutMs + this.ctx.config.agentGraceMs
      this.#watch(orphan.row, Math.max(0, deadline - Date.now()))
    }
    this.ctx.events.on('desktop.online', onOnline)
    this.#listeners.push(() => this.ctx.events.off('desktop.online', onOnline))
  }

  /** The execution's end is written: forget it. */
  ended(id: string): void {
    this.#release(id)
  }

  stop(): void {
    for (const off of this.#listeners) off()
    for (const id of [...this.#orphans.keys()]) this.#release(id)
  }

  #watch(row: ExecutionRow, ms: number): void {
    this.#release(row.id)
    const timer = setTimeout(() => {
      this.#orphans.delete(row.id)
      this.finish(
        row,
        null,
        completionFromFailure(row, 'failed', {
          code: 'INTERRUPTED',
          message: 'The server stopped during the run and the desktop did not report its result in time',
        }),
      )
    }, ms)
    this.#orphans.set(row.id, { row, timer })
  }

  #release(id: string): void {
    const orphan = this.#orphans.get(id)
    if (orphan) clearTimeout(orphan.timer)
    this.#orphans.delete(id)
  }
}

import type { DashboardState } from '../dashboard/gate.ts'
import type { AgentHub } from './agent-hub/index.ts'
import type { ExecutionWaiters } from './execution-waiters.ts'
import type { Scheduler } from './scheduler/index.ts'

/**
 * The long-lived parts the HTTP layer talks to. It lives here, not in app.ts, so route files
 * never import the composition root (which imports them).
 */
export interface Runtime {
  hub: AgentHub
  scheduler: Scheduler
  waiters: ExecutionWaiters
  dashboard: DashboardState
}

import { Elysia } from 'elysia'
import type { AppContext } from './context.ts'
import type { DashboardState } from './dashboard/gate.ts'
import { dashboardRoutes } from './dashboard/index.ts'
import { httpPlugin } from './http/http-plugin.ts'
import { agentInstallRoutes } from './modules/agent-install/index.ts'
import { buildsRoutes } from './modules/builds/index.ts'
import { desktopsRoutes } from './modules/desktops/index.ts'
import { executionsRoutes } from './modules/executions/index.ts'
import { healthRoutes } from './modules/health/index.ts'
import { jobsRoutes } from './modules/jobs/index.ts'
import { openapiRoutes } from './modules/openapi/index.ts'
import { recordingsRoutes } from './modules/recordings/index.ts'
import { triggerRoutes } from './modules/triggers/index.ts'
import type { AgentHub } from './runtime/agent-hub/index.ts'
import type { ExecutionWaiters } from './runtime/execution-waiters.ts'
import type { Scheduler } from './runtime/scheduler/index.ts'

/** The long-lived parts the HTTP layer talks to. */
export interface Runtime {
  hub: AgentHub
  scheduler: Scheduler
  waiters: ExecutionWaiters
  dashboard: DashboardState
}

/** The HTTP surface: reserved paths first, then the catch-all job trigger. */
export function createApp(ctx: AppContext, runtime: Runtime) {
  return new Elysia({ name: 'deskhook' })
    .use(httpPlugin(ctx))
    .use(healthRoutes(ctx))
    .use(openapiRoutes(ctx))
    .use(jobsRoutes(ctx))
    .use(buildsRoutes(ctx))
    .use(recordingsRoutes(ctx, runtime.hub))
    .use(executionsRoutes(ctx, runtime))
    .use(desktopsRoutes(ctx, runtime.hub))
    .use(agentInstallRoutes(ctx))
    .use(dashboardRoutes(ctx, runtime))
    .use(triggerRoutes(ctx, runtime))
}

export type App = ReturnType<typeof createApp>

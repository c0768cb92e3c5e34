import { Elysia } from 'elysia'
import type { AppContext } from './context.ts'
import { dashboardRoutes } from './dashboard/index.ts'
import type { ApiKeyCheck } from './http/api-key-check.ts'
import { httpPlugin } from './http/http-plugin.ts'
import { agentInstallRoutes } from './modules/agent-install/index.ts'
import { buildsRoutes } from './modules/builds/index.ts'
import { desktopsRoutes } from './modules/desktops/index.ts'
import { executionsRoutes } from './modules/executions/index.ts'
import { healthRoutes } from './modules/health/index.ts'
import { jobsRoutes } from './modules/jobs/index.ts'
import { metricsRoutes } from './modules/metrics/index.ts'
import { openapiRoutes } from './modules/openapi/index.ts'
import { recordingsRoutes } from './modules/recordings/index.ts'
import { screenRoutes } from './modules/screen/index.ts'
import { triggerRoutes } from './modules/triggers/index.ts'
import type { Runtime } from './runtime/index.ts'

/** The HTTP surface: reserved paths first, then the catch-all job trigger. */
export function createApp(ctx: AppContext, runtime: Runtime, keys: ApiKeyCheck) {
  return (
    new Elysia({ name: 'deskhook' })
      .use(httpPlugin(ctx, keys))
      .use(healthRoutes(ctx))
      // Before the trigger routes: it counts their calls once they are answered.
      .use(metricsRoutes(ctx, runtime.hub))
      .use(openapiRoutes(ctx))
      .use(jobsRoutes(ctx))
      .use(buildsRoutes(ctx))
      .use(recordingsRoutes(ctx, runtime.hub))
      .use(screenRoutes(ctx, runtime.hub))
      .use(executionsRoutes(ctx, runtime))
      .use(desktopsRoutes(ctx, runtime.hub))
      .use(agentInstallRoutes(ctx))
      .use(dashboardRoutes(ctx, runtime))
      .use(triggerRoutes(ctx, runtime))
  )
}

export type App = ReturnType<typeof createApp>

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { METRICS_PATH } from './access.ts'
import { scrape, startCollectors } from './collectors.ts'
import { countJobCall } from './job-calls.ts'
import { CONTENT_TYPE } from './registry.ts'

/**
 * `GET /_metrics` in the Prometheus text format. The HTTP plugin guards it: an API key, or a
 * client address inside `--metrics-allow`. Register before the routes whose calls it counts.
 */
export const metricsRoutes = (ctx: AppContext, hub: AgentHub) => {
  startCollectors(ctx)
  return new Elysia({ name: 'routes.metrics' })
    .onAfterResponse({ as: 'global' }, ({ request, set }) => countJobCall(ctx, request, set.status))
    .get(METRICS_PATH, ({ set }) => {
      set.headers['content-type'] = CONTENT_TYPE
      set.headers['cache-control'] = 'no-store'
      return scrape(ctx, hub)
    })
}

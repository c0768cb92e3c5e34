import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { buildOwner } from '../builds/service.ts'
import { hideOutsideKey } from '../keys/job-reach.ts'
import { buildScreen } from './service.ts'

/** `GET /_builds/<id>/screen`: the build's window while it asks about it, to point at (service.ts). */
export const screenRoutes = (ctx: AppContext, hub: AgentHub) =>
  new Elysia({ name: 'routes.screen' })
    .onBeforeHandle(({ request, params }) =>
      hideOutsideKey(ctx, requestState(request).apiKey, params.id, buildOwner(ctx)),
    )
    .get('/_builds/:id/screen', ({ params }) => buildScreen(ctx, hub, params.id))

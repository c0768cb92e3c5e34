import { Elysia } from 'elysia'
import type { AppContext } from '../context.ts'
import { AppError } from '../lib/errors.ts'
import { followExternalSessionChanges } from '../modules/users/session-watch.ts'
import type { Runtime } from '../runtime/index.ts'
import { assetResponse, findAsset } from './assets.ts'
import type { DashboardState } from './gate.ts'
import { apiDocsPage } from './pages/api-docs.tsx'
import { authPages } from './pages/auth.tsx'
import { buildPage } from './pages/build.tsx'
import { createJobPage } from './pages/create-job.tsx'
import { desktopsPage } from './pages/desktops.tsx'
import { jobPage } from './pages/job.tsx'
import { jobsListPage } from './pages/jobs-list.tsx'
import { runsPages } from './pages/runs.tsx'
import { settingsPages } from './pages/settings/index.tsx'

/**
 * The dashboard under `/_/` (PocketBase's convention): server-rendered pages, a few islands, and
 * the embedded assets. The session gate and CSRF check run for every `/_/` path in the HTTP
 * plugin, before any handler here.
 */
export const dashboardRoutes = (ctx: AppContext, runtime: Runtime & { dashboard: DashboardState }) => {
  // A person the CLI removes (or gives a new password) loses their open event streams too.
  followExternalSessionChanges(ctx)
  return new Elysia({ name: 'dashboard' })
    .get('/_/assets/*', ({ request, path }) => {
      const asset = findAsset(path)
      if (!asset) throw new AppError('NOT_FOUND', 'No such file (an old link after an upgrade?)')
      return assetResponse(asset, request)
    })
    .use(authPages(ctx, runtime.dashboard))
    .use(jobsListPage(ctx))
    .use(createJobPage(ctx))
    .use(jobPage(ctx))
    .use(buildPage(ctx, runtime.hub))
    .use(desktopsPage(ctx, runtime.hub))
    .use(apiDocsPage(ctx))
    .use(runsPages(ctx))
    .use(settingsPages(ctx))
}

// Django admin (development set, bench/builder-split.md): a stock admin site for inventory and staff.
import type { ThirdPartyApp } from '../types.ts'
import { type DjangoAdmin, startDjangoAdmin } from './app.ts'
import { djangoAdminJobs } from './jobs.ts'

export const app: ThirdPartyApp<DjangoAdmin> = {
  name: 'django-admin',
  kind: 'stock Python admin site (inventory and staff), behind a sign-in',
  start: startDjangoAdmin,
  jobs: djangoAdminJobs,
}

// DAViCal (development set, bench/builder-split.md): a CalDAV/CardDAV server's web admin (PHP on
// PostgreSQL), behind a sign-in; its users, resources and groups are "principals".
import type { ThirdPartyApp } from '../types.ts'
import { type Davical, startDavical } from './app.ts'
import { davicalJobs } from './jobs.ts'

export const app: ThirdPartyApp<Davical> = {
  name: 'davical',
  kind: "groupware admin (CalDAV server's web admin, PHP on PostgreSQL), behind a sign-in",
  start: startDavical,
  jobs: davicalJobs,
}

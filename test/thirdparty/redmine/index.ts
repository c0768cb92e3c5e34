// Redmine (development set, bench/builder-split.md): Debian's issue tracker behind a sign-in.
import type { ThirdPartyApp } from '../types.ts'
import { type Redmine, startRedmine } from './app.ts'
import { redmineJobs } from './jobs.ts'

export const app: ThirdPartyApp<Redmine> = {
  name: 'redmine',
  kind: 'issue tracker (Rails), behind a sign-in',
  start: startRedmine,
  jobs: redmineJobs,
}

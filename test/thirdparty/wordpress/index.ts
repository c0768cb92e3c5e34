// WordPress on a private MariaDB, for the builder's development set (bench/builder-split.md).
import type { ThirdPartyApp } from '../types.ts'
import { startWordPress, type WordPress } from './app.ts'
import { wordpressJobs } from './jobs.ts'

export const app: ThirdPartyApp<WordPress> = {
  name: 'wordpress',
  kind: 'CMS (PHP) on MariaDB, behind a sign-in',
  start: startWordPress,
  jobs: wordpressJobs,
}

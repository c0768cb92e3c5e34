// Tiny Tiny RSS for the builder bench's held-out set (bench/builder-split.md).
import type { ThirdPartyApp } from '../types.ts'
import { startTtRss, type TtRss } from './app.ts'
import { ttRssJobs } from './jobs.ts'

export const app: ThirdPartyApp<TtRss> = {
  name: 'tt-rss',
  kind: 'feed reader (PHP, JS front end), behind a sign-in',
  start: startTtRss,
  jobs: ttRssJobs,
}

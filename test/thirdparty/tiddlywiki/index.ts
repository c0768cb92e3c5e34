// TiddlyWiki for the builder bench's held-out set (bench/builder-split.md).
import type { ThirdPartyApp } from '../types.ts'
import { startTiddlyWiki, type TiddlyWiki } from './app.ts'
import { tiddlyWikiJobs } from './jobs.ts'

export const app: ThirdPartyApp<TiddlyWiki> = {
  name: 'tiddlywiki',
  kind: 'single-page wiki (its own JS framework)',
  start: startTiddlyWiki,
  jobs: tiddlyWikiJobs,
}

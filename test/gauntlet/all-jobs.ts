// Every gauntlet app with its jobs, for the bench (the test files run the same jobs, one app each).
import { startAdminerEditor } from './apps/adminer-editor.ts'
import { startDokuWiki } from './apps/dokuwiki.ts'
import { startFossil } from './apps/fossil.ts'
import { startMediaWiki } from './apps/mediawiki.ts'
import { startPhpLiteAdmin } from './apps/phpliteadmin.ts'
import { startRadicale } from './apps/radicale.ts'
import { adminerEditorJobs } from './jobs/adminer-editor-jobs.ts'
import { dokuWikiJobs } from './jobs/dokuwiki-jobs.ts'
import { fossilJobs } from './jobs/fossil-jobs.ts'
import { mediaWikiJobs } from './jobs/mediawiki-jobs.ts'
import { phpLiteAdminJobs } from './jobs/phpliteadmin-jobs.ts'
import { radicaleJobs } from './jobs/radicale-jobs.ts'
import type { GauntletJob, RunningApp } from './types.ts'

export interface GauntletApp {
  name: string
  start(): Promise<RunningApp>
  jobs: GauntletJob<never>[]
}

export const GAUNTLET: GauntletApp[] = [
  { name: 'fossil', start: startFossil, jobs: fossilJobs as GauntletJob<never>[] },
  { name: 'radicale', start: startRadicale, jobs: radicaleJobs as GauntletJob<never>[] },
  { name: 'dokuwiki', start: startDokuWiki, jobs: dokuWikiJobs as GauntletJob<never>[] },
  { name: 'mediawiki', start: startMediaWiki, jobs: mediaWikiJobs as GauntletJob<never>[] },
  { name: 'phpliteadmin', start: startPhpLiteAdmin, jobs: phpLiteAdminJobs as GauntletJob<never>[] },
  { name: 'adminer-editor', start: startAdminerEditor, jobs: adminerEditorJobs as GauntletJob<never>[] },
]

import { startDokuWiki } from './apps/dokuwiki.ts'
import { dokuWikiJobs } from './jobs/dokuwiki-jobs.ts'
import { gauntletSuite } from './suite.ts'

// Debian's DokuWiki, a wiki nobody here wrote, taught over HTTP alone (real server, real agent,
// real Chromium); each job is promoted, called live twice, and checked in the page files. The
// note is a page named by the caller, opened by the address the wiki's own links show
// (doku.php?id=<page>&do=edit); the search returns its results list as an array.
gauntletSuite('dokuwiki', startDokuWiki, dokuWikiJobs)

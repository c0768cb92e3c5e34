import { startMediaWiki } from './apps/mediawiki.ts'
import { mediaWikiJobs } from './jobs/mediawiki-jobs.ts'
import { gauntletSuite } from './suite.ts'

// Debian's MediaWiki, installed by its own installer on SQLite and taught over HTTP alone; pages
// are checked with MediaWiki's own scripts. Writing a page opens it by the address its links show
// (index.php?title=<page>&action=edit), and leaving its editor answers "Leave site?" the way a
// fresh start must; the search returns its results list as an array.
gauntletSuite('mediawiki', startMediaWiki, mediaWikiJobs)

import { startRadicale } from './apps/radicale.ts'
import { radicaleJobs } from './jobs/radicale-jobs.ts'
import { gauntletSuite } from './suite.ts'

// Debian's Radicale (contacts and calendars) behind its sign-in screen, taught over HTTP with
// job secrets; its collections folder is checked for what the live calls created and changed.
// Both jobs act on one card among several: the new book's address is read in the card showing
// its title, and "Edit" is pressed in the card of the title the caller gives.
gauntletSuite('radicale', startRadicale, radicaleJobs)

import { startPhpLiteAdmin } from './apps/phpliteadmin.ts'
import { phpLiteAdminJobs } from './jobs/phpliteadmin-jobs.ts'
import { gauntletSuite } from './suite.ts'

// Debian's phpLiteAdmin (the admin UI of SQLite databases, behind a password screen), taught over
// HTTP with the password as a job secret; the database file is read back to check the live calls.
// Its forms are laid out as tables (field name | type | operator | value box): each box is found by
// its row's name, and the search's results table comes back as a list.
gauntletSuite('phpliteadmin', startPhpLiteAdmin, phpLiteAdminJobs)

import { startFossil } from './apps/fossil.ts'
import { fossilJobs } from './jobs/fossil-jobs.ts'
import { gauntletSuite } from './suite.ts'

// Debian's fossil, a ticket tracker nobody here wrote, taught over HTTP alone (real server, real
// agent, real Chromium); each job is then promoted and called live twice with new inputs, and
// the repository is checked for what the calls really did.
gauntletSuite('fossil', startFossil, fossilJobs)

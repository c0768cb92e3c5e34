// The representative slice of the third-party apps in CI (the rest runs in `bun run
// bench:builder`): Django's stock admin site from the development set (bench/builder-split.md),
// behind its sign-in. Each job is taught over HTTP, promoted, its app's sessions cleared, and
// called live twice; the answers and the app's own data are checked (test/gauntlet/run-job.ts).
// One more job is taught by showing it: the owner's demonstration is made over HTTP, as the
// dashboard's preview makes it.
import { gauntletSuite } from '../gauntlet/suite.ts'
import { app } from './django-admin/index.ts'
import { addItemShown } from './django-admin/jobs.ts'

gauntletSuite(app.name, app.start, [...app.jobs, addItemShown])

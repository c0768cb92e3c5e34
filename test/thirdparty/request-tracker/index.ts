// Request Tracker (development set): Debian's helpdesk ticket system (Perl) behind a sign-in.
import type { ThirdPartyApp } from '../types.ts'
import { type RequestTracker, startRequestTracker } from './app.ts'
import { requestTrackerJobs } from './jobs.ts'

export const app: ThirdPartyApp<RequestTracker> = {
  name: 'request-tracker',
  kind: 'helpdesk ticket system (Perl, Mason), behind a sign-in',
  start: startRequestTracker,
  jobs: requestTrackerJobs,
}

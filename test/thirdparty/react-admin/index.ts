// react-admin (development set): a React + Material UI back office for customers and orders, on
// json-server as its REST backend.
import type { ThirdPartyApp } from '../types.ts'
import { type ReactAdmin, startReactAdmin } from './app.ts'
import { reactAdminJobs } from './jobs.ts'

export const app: ThirdPartyApp<ReactAdmin> = {
  name: 'react-admin',
  kind: 'single-page admin app (React, Material UI) on a json-server REST API',
  start: startReactAdmin,
  jobs: reactAdminJobs,
}

// Syncthing (development set, bench/builder-split.md): a file-sync daemon's web GUI, a single-page
// app (AngularJS) whose folders and remote devices are added and edited in modal dialogs with tabs.
import type { ThirdPartyApp } from '../types.ts'
import { type Syncthing, startSyncthing } from './app.ts'
import { syncthingJobs } from './jobs.ts'

export const app: ThirdPartyApp<Syncthing> = {
  name: 'syncthing',
  kind: 'single-page app (AngularJS) whose records are edited in modal dialogs with tabs',
  start: startSyncthing,
  jobs: syncthingJobs,
}

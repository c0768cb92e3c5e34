// Tryton (development set, bench/builder-split.md): an ERP's customer register (parties) in its
// web client sao, behind a sign-in.
import type { ThirdPartyApp } from '../types.ts'
import { startTryton, type Tryton } from './app.ts'
import { trytonJobs } from './jobs.ts'

export const app: ThirdPartyApp<Tryton> = {
  name: 'tryton',
  kind: 'ERP / CRM (Tryton parties in its web client sao), behind a sign-in',
  start: startTryton,
  jobs: trytonJobs,
}

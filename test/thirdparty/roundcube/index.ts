// Roundcube webmail on a private Dovecot, for the builder's development set (bench/builder-split.md).
import type { ThirdPartyApp } from '../types.ts'
import { type Roundcube, startRoundcube } from './app.ts'
import { roundcubeJobs } from './jobs.ts'

export const app: ThirdPartyApp<Roundcube> = {
  name: 'roundcube',
  kind: 'webmail (PHP) on an IMAP server, behind a sign-in',
  start: startRoundcube,
  jobs: roundcubeJobs,
}

import type { ThirdPartyApp } from '../types.ts'
import { type PostfixAdmin, startPostfixAdmin } from './app.ts'
import { postfixAdminJobs } from './jobs.ts'

export const app: ThirdPartyApp<PostfixAdmin> = {
  name: 'postfixadmin',
  kind: 'mail-domain admin (PHP), behind a sign-in',
  start: startPostfixAdmin,
  jobs: postfixAdminJobs,
}

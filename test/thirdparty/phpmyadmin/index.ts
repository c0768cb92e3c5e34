import type { ThirdPartyApp } from '../types.ts'
import { type PhpMyAdmin, startPhpMyAdmin } from './app.ts'
import { phpMyAdminJobs } from './jobs.ts'

export const app: ThirdPartyApp<PhpMyAdmin> = {
  name: 'phpmyadmin',
  kind: 'database admin (CRUD on MariaDB), behind a sign-in',
  start: startPhpMyAdmin,
  jobs: phpMyAdminJobs,
}

import type { Job } from '../../modules/jobs/service.ts'

export interface DesktopRef {
  id: string
  name: string
}

/**
 * Which desktops may run a job: its pool (ids or names) when set; else the desktop it was taught
 * on; else (e.g. an imported job) any online desktop.
 */
export function mayRun(job: Job, desktop: DesktopRef): boolean {
  if (job.desktopPool?.length)
    return job.desktopPool.includes(desktop.id) || job.desktopPool.includes(desktop.name)
  if (job.desktopId) return job.desktopId === desktop.id
  return true
}

export function describePool(job: Job): string {
  if (job.desktopPool?.length) return `its pool (${job.desktopPool.join(', ')})`
  if (job.desktopId) return `the desktop it was taught on (${job.desktopId})`
  return 'any desktop'
}

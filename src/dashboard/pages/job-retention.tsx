import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { getJob, type Job } from '../../modules/jobs/service.ts'
import {
  getJobRetention,
  type JobRetention,
  parseRetentionAge,
  setJobRetention,
} from '../../modules/retention/job-overrides.ts'
import { getRetention, type RetentionPolicy } from '../../modules/retention/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { retentionTaskFor } from '../../runtime/retention.ts'
import { redirect } from '../http.ts'
import { Csrf } from '../ui/layout.tsx'

export interface JobRetentionView {
  own: JobRetention
  workspace: RetentionPolicy
}

export const jobRetentionView = (ctx: AppContext, jobId: string): JobRetentionView => ({
  own: getJobRetention(ctx, jobId),
  workspace: getRetention(ctx),
})

/** The job's own retention ages (blank: the workspace setting), like `deskhook jobs retention`. */
export function RetentionSection(props: { job: Job; signedIn: SignedIn; view: JobRetentionView }) {
  const { own, workspace } = props.view
  const field = (name: 'screenshots' | 'runs', label: string, days: number | undefined, dflt: number) => (
    <label>
      {label} <span class="muted small">(e.g. 7d or 2w; blank: the workspace's {dflt} days)</span>
      <input name={name} type="text" inputMode="text" value={days === undefined ? '' : `${days}d`} />
    </label>
  )
  return (
    <section class="card" aria-labelledby="retention-h">
      <h2 id="retention-h">Retention</h2>
      <form method="post" action={`/_/jobs/${props.job.id}/retention`} class="stack">
        <Csrf signedIn={props.signedIn} />
        {field('screenshots', 'Keep step screenshots', own.screenshotDays, workspace.screenshotDays)}
        {field('runs', 'Keep finished runs', own.runDays, workspace.runDays)}
        <div>
          <button type="submit" class="secondary">
            Save retention
          </button>
        </div>
      </form>
    </section>
  )
}

/** POST /_/jobs/:id/retention: sets or clears the job's own ages, then asks for a pass. */
export const jobRetentionRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.job-retention' }).post('/_/jobs/:id/retention', ({ params, body }) => {
    const job = getJob(ctx, params.id)
    if (!job) throw new AppError('JOB_NOT_FOUND', 'No such job (it may have been deleted)')
    const form = (body ?? {}) as Record<string, string | undefined>
    setJobRetention(ctx, job.id, {
      screenshotDays: parseRetentionAge('Keep step screenshots', form.screenshots ?? ''),
      runDays: parseRetentionAge('Keep finished runs', form.runs ?? ''),
    })
    retentionTaskFor(ctx)?.runSoon()
    return redirect(`/_/jobs/${job.id}?done=retention`)
  })

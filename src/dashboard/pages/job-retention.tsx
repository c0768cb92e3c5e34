import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import { userActor } from '../../modules/audit/actor.ts'
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
import { requireAdmin } from '../gate.ts'
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

/**
 * The job's own retention ages (blank: the workspace setting), like `deskhook jobs retention`.
 * Retention is a setting: admins change it, members see what is kept.
 */
export function RetentionSection(props: { job: Job; signedIn: SignedIn; view: JobRetentionView }) {
  const { own, workspace } = props.view
  const isAdmin = props.signedIn.user.role === 'admin'
  const field = (name: 'screenshots' | 'runs', label: string, days: number | undefined, dflt: number) => (
    <label>
      {label} <span class="muted small">(e.g. 7d or 2w; blank: the workspace's {dflt} days)</span>
      <input name={name} type="text" inputMode="text" value={days === undefined ? '' : `${days}d`} />
    </label>
  )
  const kept = (days: number | undefined, dflt: number) =>
    days === undefined ? `${dflt} days (the workspace's setting)` : `${days} days`
  return (
    <section class="card" aria-labelledby="retention-h">
      <h2 id="retention-h">Retention</h2>
      {isAdmin ? (
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
      ) : (
        <>
          <p>
            Step screenshots are kept {kept(own.screenshotDays, workspace.screenshotDays)}; finished runs{' '}
            {kept(own.runDays, workspace.runDays)}.
          </p>
          <p class="muted small">Only a workspace admin can change this.</p>
        </>
      )}
    </section>
  )
}

/** POST /_/jobs/:id/retention (admins, like the settings page): sets or clears the job's own ages, audited, then asks for a pass. */
export const jobRetentionRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.job-retention' }).post(
    '/_/jobs/:id/retention',
    ({ params, body, request }) => {
      const signedIn = requireAdmin(requestState(request).signedIn)
      const job = getJob(ctx, params.id)
      if (!job) throw new AppError('JOB_NOT_FOUND', 'No such job (it may have been deleted)')
      const form = (body ?? {}) as Record<string, string | undefined>
      setJobRetention(
        ctx,
        job.id,
        {
          screenshotDays: parseRetentionAge('Keep step screenshots', form.screenshots ?? ''),
          runDays: parseRetentionAge('Keep finished runs', form.runs ?? ''),
        },
        userActor(signedIn.user),
      )
      retentionTaskFor(ctx)?.runSoon()
      return redirect(`/_/jobs/${job.id}?done=retention`)
    },
  )

import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { AppError } from '../../../lib/errors.ts'
import { userActor } from '../../../modules/audit/actor.ts'
import { recordAudit } from '../../../modules/audit/record.ts'
import {
  getRetention,
  lastRetentionRun,
  MAX_RETENTION_DAYS,
  MIN_RETENTION_DAYS,
  type RetentionReport,
  setRetention,
} from '../../../modules/retention/service.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { retentionTaskFor } from '../../../runtime/retention.ts'
import { htmlResponse, redirect } from '../../http.ts'
import { Csrf } from '../../ui/layout.tsx'
import { Notice, Time } from '../../ui/parts.tsx'
import { adminOf, type Form, formOf, plural, SettingsPage } from './shell.tsx'

function LastRun({ report }: { report: RetentionReport | null }) {
  if (!report)
    return (
      <p class="muted">Not run yet. The server applies retention shortly after it starts, then every hour.</p>
    )
  const ms = Date.parse(report.finishedAt) - Date.parse(report.startedAt)
  return (
    <div class="stack">
      <dl class="facts">
        <div>
          <dt>Last ran</dt>
          <dd>
            <Time at={report.startedAt} />
          </dd>
        </div>
        <div>
          <dt>Took</dt>
          <dd>{ms < 1000 ? `${Math.max(ms, 0)} ms` : `${(ms / 1000).toFixed(1)} s`}</dd>
        </div>
        <div>
          <dt>Removed</dt>
          <dd>
            {plural(report.screenshots, 'screenshot')} · {plural(report.runs, 'finished run')}
          </dd>
        </div>
        <div>
          <dt>With</dt>
          <dd>
            screenshots {report.policy.screenshotDays} d · runs {report.policy.runDays} d
          </dd>
        </div>
      </dl>
      {report.error && (
        <Notice kind="error">
          <p>It stopped on an error (the next pass tries again): {report.error}</p>
        </Notice>
      )}
    </div>
  )
}

function RetentionPage(props: {
  ctx: AppContext
  signedIn: SignedIn
  values: Form
  last: RetentionReport | null
  error?: string
  done?: string
}) {
  const v = props.values
  return (
    <SettingsPage
      ctx={props.ctx}
      signedIn={props.signedIn}
      tab="retention"
      title="Retention"
      sub="How long run replays keep their screenshots, and how long finished runs are kept at all. Queued and running calls are never removed."
      error={props.error}
      done={props.done}
    >
      <section class="card" aria-labelledby="keep-h">
        <h2 id="keep-h">Keep</h2>
        <form method="post" action="/_/settings/retention" class="stack">
          <Csrf signedIn={props.signedIn} />
          <label>
            Screenshots, in days{' '}
            <span class="muted small">(a run older than this keeps its steps without pictures)</span>
            <input
              name="screenshotDays"
              type="number"
              inputMode="numeric"
              required
              min={MIN_RETENTION_DAYS}
              max={MAX_RETENTION_DAYS}
              value={v.screenshotDays ?? ''}
            />
          </label>
          <label>
            Finished runs, in days{' '}
            <span class="muted small">(older runs are removed with their steps and status events)</span>
            <input
              name="runDays"
              type="number"
              inputMode="numeric"
              required
              min={MIN_RETENTION_DAYS}
              max={MAX_RETENTION_DAYS}
              value={v.runDays ?? ''}
            />
          </label>
          <div>
            <button type="submit">Save and apply</button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="last-h">
        <h2 id="last-h">Last pass</h2>
        <LastRun report={props.last} />
        <form method="post" action="/_/settings/retention/run">
          <Csrf signedIn={props.signedIn} />
          <button type="submit" class="secondary">
            Apply now
          </button>
        </form>
      </section>
    </SettingsPage>
  )
}

const DONE: Record<string, string> = {
  saved: 'Saved. Retention is being applied now; reload to see what it removed.',
  started: 'Retention is being applied now; reload to see what it removed.',
}

/** Asks this server's retention task for a pass (absent only outside a running server). */
function applyNow(ctx: AppContext): void {
  const task = retentionTaskFor(ctx)
  if (!task) throw new AppError('SERVICE_UNAVAILABLE', 'Retention is not running in this process')
  task.runSoon()
}

export const settingsRetentionPages = (ctx: AppContext) => {
  const render = (
    signedIn: SignedIn,
    extra: { values?: Form; error?: string; done?: string },
    status = 200,
  ) => {
    const policy = getRetention(ctx)
    const values = extra.values ?? {
      screenshotDays: String(policy.screenshotDays),
      runDays: String(policy.runDays),
    }
    return htmlResponse(
      <RetentionPage
        ctx={ctx}
        signedIn={signedIn}
        values={values}
        last={lastRetentionRun(ctx)}
        error={extra.error}
        done={extra.done}
      />,
      { status },
    )
  }
  return new Elysia({ name: 'dashboard.settings.retention' })
    .get('/_/settings/retention', ({ request, query }) => {
      const signedIn = adminOf(request)
      return render(signedIn, { done: typeof query.done === 'string' ? DONE[query.done] : undefined })
    })
    .post('/_/settings/retention', ({ request, body }) => {
      const signedIn = adminOf(request)
      const form = formOf(body)
      try {
        const policy = setRetention(ctx, { screenshotDays: form.screenshotDays, runDays: form.runDays })
        ctx.log.info({ ...policy, by: signedIn.user.id }, 'retention changed')
        recordAudit(ctx, {
          actor: userActor(signedIn.user),
          action: 'settings.changed',
          target: { kind: 'setting', id: 'retention' },
          details: { ...policy },
        })
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error
        const values = { screenshotDays: form.screenshotDays, runDays: form.runDays }
        return render(signedIn, { values, error: error.message }, 400)
      }
      applyNow(ctx)
      return redirect('/_/settings/retention?done=saved')
    })
    .post('/_/settings/retention/run', ({ request }) => {
      adminOf(request)
      applyNow(ctx)
      return redirect('/_/settings/retention?done=started')
    })
}

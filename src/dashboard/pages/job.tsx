import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import { requestActor } from '../../modules/audit/request-actor.ts'
import { demoteJob, getJob, type Job, promoteJob, rollbackJob } from '../../modules/jobs/service.ts'
import { openApiCache } from '../../modules/openapi/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { htmlResponse, redirect } from '../http.ts'
import { curlExamples } from '../ui/curl.ts'
import { JsonField } from '../ui/json-field.tsx'
import { Csrf, Layout } from '../ui/layout.tsx'
import { Badge, Copyable, Json, Notice, PageHead } from '../ui/parts.tsx'
import { type JobPageData, loadJobPage } from './job-data.ts'
import {
  type JobRetentionView,
  jobRetentionRoutes,
  jobRetentionView,
  RetentionSection,
} from './job-retention.tsx'
import { RunsAndBuilds, SamplesSection, StabilitySection, VersionsSection } from './job-sections.tsx'
import { StepsSection } from './job-steps.tsx'
import { type FormField, teachFromForm } from './teach-call.ts'

type Form = Record<string, string | undefined>

interface TeachState {
  values: Form
  error: { status: number; field: FormField | null; message: string }
}

/** What the page says after an action; fixed words, so nothing from the URL is echoed. */
const DONE: Record<string, (job: Job) => string> = {
  promoted: (job) => `${job.method} ${job.path} is live: calls run version ${job.liveVersion}.`,
  demoted: (job) => `${job.method} ${job.path} is back to learning: live calls get 409 until it is promoted.`,
  'rolled-back': (job) => `${job.method} ${job.path} is live on version ${job.liveVersion}.`,
  retention: (job) => `Retention of ${job.method} ${job.path} saved; it applies from the next pass.`,
}

const hasParams = (path: string) => path.includes('/:')

function TeachSection(props: { data: JobPageData; signedIn: SignedIn; state?: TeachState }) {
  const { job } = props.data
  const v = props.state?.values ?? {}
  const err = props.state?.error
  const fieldError = (f: FormField) => (err?.field === f ? err.message : undefined)
  return (
    <section class="card" aria-labelledby="teach-h">
      <h2 id="teach-h">Teach another sample</h2>
      <p class="small muted">
        The same as a teaching call to {job.method} {job.path}: the sample is stored and a build starts; a new
        outcome becomes a new scenario.
      </p>
      <form method="post" action={`/_/jobs/${job.id}/teach`} class="stack" id="teach-form">
        <Csrf signedIn={props.signedIn} />
        {hasParams(job.path) && (
          <label>
            Call path <span class="muted">(fill in the parameters, e.g. the id)</span>
            <input name="path" required value={v.path ?? job.path} />
          </label>
        )}
        <JsonField
          name="input"
          label="Input (JSON)"
          value={v.input ?? JSON.stringify(props.data.exampleInput, null, 2)}
          error={fieldError('input')}
        />
        <JsonField
          name="expect"
          label={
            <span>
              Expected result (JSON, optional; <code>{'{"$type": "string"}'}</code> for a generated value)
            </span>
          }
          value={v.expect ?? ''}
          optional
          rows={4}
          error={fieldError('expect')}
        />
        <label>
          Prompt <span class="muted">(optional: a new description replaces the job's)</span>
          <textarea name="prompt" rows={2} maxLength={4000}>
            {v.prompt ?? ''}
          </textarea>
        </label>
        <div>
          <button type="submit">Teach this sample</button>
        </div>
      </form>
    </section>
  )
}

function ModeActions({ job, signedIn }: { job: Job; signedIn: SignedIn }) {
  const canPromote =
    job.draftVersion !== null && (job.mode !== 'live' || job.liveVersion !== job.draftVersion)
  return (
    <>
      {canPromote && (
        <form method="post" action={`/_/jobs/${job.id}/promote`}>
          <Csrf signedIn={signedIn} />
          <button type="submit">
            {job.mode === 'live' ? `Promote version ${job.draftVersion} to live` : 'Promote to live'}
          </button>
        </form>
      )}
      {job.mode === 'live' && (
        <form
          method="post"
          action={`/_/jobs/${job.id}/demote`}
          data-confirm={`Live calls of ${job.method} ${job.path} will get 409 until it is promoted again. Continue?`}
        >
          <Csrf signedIn={signedIn} />
          <button type="submit" class="secondary">
            Back to learning
          </button>
        </form>
      )}
      {job.draftVersion === null && <span class="muted small">Promote once a build has succeeded.</span>}
    </>
  )
}

export function JobPage(props: {
  signedIn: SignedIn
  workspace: string
  data: JobPageData
  teach?: TeachState
  done?: string
  retention?: JobRetentionView
}) {
  const { data, signedIn } = props
  const { job, view } = data
  const shownVersion =
    data.versions.find((v) => v.version === (job.mode === 'live' ? job.liveVersion : job.draftVersion)) ??
    data.versions[0]
  const curl = curlExamples(view, data.exampleInput)
  const done = props.done ? DONE[props.done] : undefined
  return (
    <Layout
      title={`${job.method} ${job.path}`}
      section="jobs"
      signedIn={signedIn}
      workspace={props.workspace}
    >
      <div class="job-page">
        <PageHead
          title={
            <span class="route">
              <span class="method">{job.method}</span> {job.path} <Badge value={job.mode} />
            </span>
          }
          sub={job.prompt}
        >
          <ModeActions job={job} signedIn={signedIn} />
        </PageHead>
        {done && <Notice kind="ok">{done(job)}</Notice>}
        {props.teach && (
          <Notice kind="error">
            The sample was not taught: {props.teach.error.message} (<a href="#teach-form">the form</a>)
          </Notice>
        )}
        <section class="card stack" aria-labelledby="call-h">
          <h2 id="call-h">Call it</h2>
          <Copyable text={view.triggerUrl} label={`trigger URL of ${job.method} ${job.path}`} />
          <p class="small">
            API key:{' '}
            {data.keyPrefix ? (
              <span>
                <code>{data.keyPrefix}…</code> <span class="muted">(shown in full only when created)</span>
              </span>
            ) : (
              <span class="muted">no active key; an admin creates one in Settings</span>
            )}{' '}
            · live version: {job.mode === 'live' ? `v${job.liveVersion}` : 'none (learning)'} · draft:{' '}
            {job.draftVersion === null ? 'none' : `v${job.draftVersion}`}
          </p>
          <details>
            <summary>curl</summary>
            <Copyable multiline text={curl.sync} label="synchronous curl" />
            <Copyable multiline text={curl.async} label="asynchronous curl" />
          </details>
          {data.secretNames.length > 0 && (
            <p class="small">
              Secrets: {data.secretNames.join(', ')} <span class="muted">(values never shown)</span>
            </p>
          )}
        </section>
        <StabilitySection score={job.stabilityScore} b={data.stability} scenarios={data.scenarios} />
        <StepsSection version={shownVersion} job={job} />
        <VersionsSection job={job} versions={data.versions} count={data.versionCount} signedIn={signedIn} />
        <SamplesSection samples={data.samples} count={data.sampleCount} />
        <RunsAndBuilds runs={data.runs} builds={data.builds} />
        <TeachSection data={data} signedIn={signedIn} state={props.teach} />
        {props.retention && <RetentionSection job={job} signedIn={signedIn} view={props.retention} />}
        <section aria-labelledby="openapi-h">
          <h2 id="openapi-h">OpenAPI operation</h2>
          {data.operation ? (
            <details>
              <summary>As served in /swagger.json</summary>
              <Json value={data.operation} />
            </details>
          ) : (
            <p class="muted">Not in the document yet.</p>
          )}
        </section>
      </div>
    </Layout>
  )
}

function jobOr404(ctx: AppContext, id: string): Job {
  const job = getJob(ctx, id)
  if (!job) throw new AppError('JOB_NOT_FOUND', 'No such job (it may have been deleted)')
  return job
}

const pageAfter = (id: string, done: keyof typeof DONE) => redirect(`/_/jobs/${id}?done=${done}`)

/** Members may do all of this: only keys, people, desktops and settings are admin-only. */
export const jobPage = (ctx: AppContext) => {
  const openApi = openApiCache(ctx)
  const render = (request: Request, id: string, extra: { teach?: TeachState; done?: string } = {}) =>
    htmlResponse(
      <JobPage
        signedIn={requestState(request).signedIn!}
        workspace={workspaceName(ctx)}
        data={loadJobPage(ctx, openApi, id)}
        retention={jobRetentionView(ctx, id)}
        {...extra}
      />,
      { status: extra.teach?.error.status ?? 200 },
    )
  return new Elysia({ name: 'dashboard.job' })
    .use(jobRetentionRoutes(ctx))
    .get('/_/jobs/:id', ({ request, params, query }) =>
      render(request, params.id, { done: typeof query.done === 'string' ? query.done : undefined }),
    )
    .post('/_/jobs/:id/promote', ({ request, params }) => {
      const job = jobOr404(ctx, params.id)
      promoteJob(ctx, job.method, job.path, requestActor(ctx, request))
      return pageAfter(job.id, 'promoted')
    })
    .post('/_/jobs/:id/demote', ({ request, params }) => {
      const job = jobOr404(ctx, params.id)
      demoteJob(ctx, job.method, job.path, requestActor(ctx, request))
      return pageAfter(job.id, 'demoted')
    })
    .post('/_/jobs/:id/rollback', ({ request, params, body }) => {
      const job = jobOr404(ctx, params.id)
      const raw = ((body ?? {}) as Form).version ?? ''
      if (!/^\d{1,9}$/.test(raw.trim()))
        throw new AppError(
          'INVALID_REQUEST',
          `Choose a version to roll back to (a number); got ${JSON.stringify(raw)}`,
        )
      rollbackJob(ctx, job.id, Number(raw.trim()), requestActor(ctx, request))
      return pageAfter(job.id, 'rolled-back')
    })
    .post('/_/jobs/:id/teach', ({ request, params, body }) => {
      const job = jobOr404(ctx, params.id)
      const form = (body ?? {}) as Form
      const outcome = teachFromForm(ctx, {
        method: job.method,
        path: hasParams(job.path) ? (form.path ?? job.path) : job.path,
        pattern: job.path,
        prompt: form.prompt,
        input: form.input ?? '',
        expect: form.expect,
      })
      if (outcome.ok) return redirect(`/_/builds/${outcome.result.response.buildId}`)
      return render(request, job.id, { teach: { values: form, error: outcome } })
    })
}

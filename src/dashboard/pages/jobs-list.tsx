import { desc, sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { executions, samples } from '../../db/schema/index.ts'
import { baseUrl } from '../../http/base-url.ts'
import { requestState } from '../../http/request-state.ts'
import { type JobView, listJobs } from '../../modules/jobs/service.ts'
import { listKeys } from '../../modules/keys/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { htmlResponse } from '../http.ts'
import { curlExamples } from '../ui/curl.ts'
import { Csrf, Layout } from '../ui/layout.tsx'
import { Badge, Copyable, Empty, PageHead, Time } from '../ui/parts.tsx'

interface LastRun {
  seq: number
  status: string
  queuedAt: string
}

/** The newest run of every job, in one query (the executions_job index serves it). */
function lastRuns(ctx: AppContext): Map<string, LastRun> {
  const rows = ctx.db
    .select({
      jobId: executions.jobId,
      seq: executions.seq,
      status: executions.status,
      queuedAt: executions.queuedAt,
    })
    .from(executions)
    .where(sql`${executions.seq} IN (SELECT max(seq) FROM executions GROUP BY job_id)`)
    .all()
  return new Map(rows.map((r) => [r.jobId, r]))
}

/** Each job's newest sample input, for its curl example. */
function latestSamples(ctx: AppContext): Map<string, unknown> {
  const rows = ctx.db
    .select({ jobId: samples.jobId, input: samples.input })
    .from(samples)
    .where(
      sql`${samples.createdAt} = (SELECT max(s2.created_at) FROM samples s2 WHERE s2.job_id = ${samples.jobId})`,
    )
    .orderBy(desc(samples.createdAt))
    .all()
  return new Map(rows.map((r) => [r.jobId, stripHttp(r.input)]))
}

/** A sample's input holds `_http` (query, headers) beside the body's members; curl sends the body. */
export function stripHttp(input: Record<string, unknown>): Record<string, unknown> {
  const { _http: _, ...body } = input
  return body
}

export const scenarioLine = (job: JobView) =>
  job.scenarios.length === 0
    ? 'no samples yet'
    : `${job.scenarios.length} scenario${job.scenarios.length === 1 ? '' : 's'}`

export function JobsPage(props: {
  signedIn: SignedIn
  workspace: string
  jobs: JobView[]
  runs: Map<string, LastRun>
  examples: Map<string, unknown>
  keyPrefix: string | null
}) {
  const { signedIn } = props
  const admin = signedIn.user.role === 'admin'
  return (
    <Layout title="Jobs" section="jobs" signedIn={signedIn} workspace={props.workspace}>
      <PageHead title="Jobs" sub="Every job is an HTTP endpoint. Call its trigger URL with an API key.">
        <a class="button" href="/_/jobs/new">
          Create a job
        </a>
      </PageHead>
      <section class="card key-card" aria-label="API key">
        <div>
          <strong>API key</strong>{' '}
          {props.keyPrefix ? (
            <span>
              <code>{props.keyPrefix}…</code>{' '}
              <span class="muted">(keys are shown in full only once, when created)</span>
            </span>
          ) : (
            <span class="muted">no active key</span>
          )}
        </div>
        {admin ? (
          <form method="post" action="/_/settings/keys">
            <Csrf signedIn={signedIn} />
            <input type="hidden" name="name" value={`key for ${signedIn.user.email}`} />
            <button type="submit" class="secondary">
              Create a key
            </button>
          </form>
        ) : (
          <span class="muted small">Ask an admin for a key.</span>
        )}
      </section>
      {props.jobs.length === 0 ? (
        <Empty>
          No jobs yet. <a href="/_/jobs/new">Create a job</a>, or teach one by calling its future URL with a
          teach envelope (see the <a href="/_/api">API docs</a>).
        </Empty>
      ) : (
        <ul class="jobs">
          {props.jobs.map((job) => {
            const run = props.runs.get(job.id)
            const curl = curlExamples(job, props.examples.get(job.id))
            return (
              <li class="card job" key={job.id}>
                <div class="job-head">
                  <a href={`/_/jobs/${job.id}`} class="route">
                    <span class="method">{job.method}</span> {job.path}
                  </a>
                  <Badge value={job.mode} />
                </div>
                <p class="prompt">{job.prompt}</p>
                <dl class="facts">
                  <div>
                    <dt>Stability</dt>
                    <dd>{Math.round(job.stabilityScore)}%</dd>
                  </div>
                  <div>
                    <dt>Scenarios</dt>
                    <dd>{scenarioLine(job)}</dd>
                  </div>
                  <div>
                    <dt>Last run</dt>
                    <dd>
                      {run ? (
                        <a href={`/_/runs/${run.seq}`}>
                          <Badge value={run.status} /> <Time at={run.queuedAt} />
                        </a>
                      ) : (
                        <span class="muted">never</span>
                      )}
                    </dd>
                  </div>
                </dl>
                <Copyable text={job.triggerUrl} label={`trigger URL of ${job.method} ${job.path}`} />
                <details>
                  <summary>curl</summary>
                  <p class="small muted">Synchronous (waits for the result):</p>
                  <Copyable multiline text={curl.sync} label="synchronous curl" />
                  <p class="small muted">
                    Asynchronous (answers 202 at once; poll the resultPath or pass callback_url):
                  </p>
                  <Copyable multiline text={curl.async} label="asynchronous curl" />
                </details>
              </li>
            )
          })}
        </ul>
      )}
    </Layout>
  )
}

export const jobsListPage = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.jobs-list' }).get('/_/', ({ request }) => {
    const signedIn = requestState(request).signedIn!
    const active = listKeys(ctx).filter((k) => !k.revokedAt)
    return htmlResponse(
      <JobsPage
        signedIn={signedIn}
        workspace={workspaceName(ctx)}
        jobs={listJobs(ctx, baseUrl(ctx))}
        runs={lastRuns(ctx)}
        examples={latestSamples(ctx)}
        keyPrefix={active.at(-1)?.prefix ?? null}
      />,
    )
  })

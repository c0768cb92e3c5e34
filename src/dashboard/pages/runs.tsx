import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { htmlResponse } from '../http.ts'
import { Layout } from '../ui/layout.tsx'
import { Badge, Empty, Notice, PageHead, Time } from '../ui/parts.tsx'
import { runPage } from './run.tsx'
import {
  durationMs,
  FilterError,
  formatDuration,
  type JobChoice,
  jobChoices,
  listRuns,
  parseRunQuery,
  RUN_STATUSES,
  type RunFilters,
  type RunPage,
  type RunQuery,
  runsHref,
} from './runs-data.ts'

function Filters({ filters, jobs }: { filters: RunFilters; jobs: JobChoice[] }) {
  return (
    <form method="get" action="/_/runs" class="filters" aria-label="Filter runs">
      <label>
        Job
        <select name="job">
          <option value="">All jobs</option>
          {jobs.map((j) => (
            <option value={j.id} selected={filters.job === j.id} key={j.id}>
              {j.method} {j.path}
            </option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select name="status">
          <option value="">Any status</option>
          {RUN_STATUSES.map((s) => (
            <option value={s} selected={filters.status === s} key={s}>
              {s.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input type="date" name="from" value={filters.from} />
      </label>
      <label>
        To
        <input type="date" name="to" value={filters.to} />
      </label>
      <button type="submit">Filter</button>
      <a href="/_/runs">Clear</a>
    </form>
  )
}

function RunsTable({ page }: { page: RunPage }) {
  return (
    <div class="table-wrap runs-table">
      <table>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Job</th>
            <th scope="col">Status</th>
            <th scope="col">Queued</th>
            <th scope="col">Started</th>
            <th scope="col">Finished</th>
            <th scope="col">Duration</th>
            <th scope="col">Scenario</th>
          </tr>
        </thead>
        <tbody>
          {page.rows.map((r) => {
            const ms = durationMs(r.startedAt, r.finishedAt)
            return (
              <tr key={r.seq}>
                <td>
                  <a href={`/_/runs/${r.seq}`}>#{r.seq}</a>
                </td>
                <td>
                  {r.method ? (
                    <a href={`/_/jobs/${r.jobId}`} class="route">
                      <span class="method">{r.method}</span> {r.path}
                    </a>
                  ) : (
                    <span class="muted">deleted job</span>
                  )}
                </td>
                <td>
                  <Badge value={r.status} />
                </td>
                <td>
                  <Time at={r.queuedAt} />
                </td>
                <td>
                  <Time at={r.startedAt} />
                </td>
                <td>
                  <Time at={r.finishedAt} />
                </td>
                <td>{ms === undefined ? <span class="muted">—</span> : formatDuration(ms)}</td>
                <td>{r.scenario ?? <span class="muted">—</span>}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

export function RunsPage(props: {
  signedIn: SignedIn
  workspace: string
  jobs: JobChoice[]
  query: RunQuery
  page?: RunPage
  error?: string
}) {
  const { query, page } = props
  const filtered = !!(query.job || query.status || query.from || query.to)
  const paged = query.before !== undefined || query.after !== undefined
  return (
    <Layout title="Runs" section="runs" signedIn={props.signedIn} workspace={props.workspace}>
      <PageHead
        title="Runs"
        sub="Every live call, newest first (times and days in UTC). Open a run to replay it step by step."
      />
      <Filters filters={query} jobs={props.jobs} />
      {props.error && (
        <Notice kind="error">
          <p>{props.error}</p>
        </Notice>
      )}
      {page && page.rows.length === 0 && (
        <Empty>
          {paged ? (
            <>
              No runs on this page. <a href={runsHref(query)}>Show the newest runs</a>
            </>
          ) : filtered ? (
            'No runs match these filters.'
          ) : (
            'No runs yet. Runs appear here when a live job is called.'
          )}
        </Empty>
      )}
      {page && page.rows.length > 0 && <RunsTable page={page} />}
      {page && (page.newer !== undefined || page.older !== undefined) && (
        <nav class="pager" aria-label="Pages of runs">
          {page.newer !== undefined ? (
            <a href={runsHref(query, { after: page.newer })} rel="prev">
              ← Newer
            </a>
          ) : (
            <span />
          )}
          {page.older !== undefined && (
            <a href={runsHref(query, { before: page.older })} rel="next">
              Older →
            </a>
          )}
        </nav>
      )}
    </Layout>
  )
}

export const runsPages = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.runs' })
    .get('/_/runs', ({ request }) => {
      const state = requestState(request)
      const jobs = jobChoices(ctx)
      const common = { signedIn: state.signedIn!, workspace: workspaceName(ctx), jobs }
      let query: RunQuery
      try {
        query = parseRunQuery(state.url.searchParams, new Set(jobs.map((j) => j.id)))
      } catch (error) {
        if (!(error instanceof FilterError)) throw error
        // The form again with what was sent, so the person can correct it.
        const p = state.url.searchParams
        const sent = {
          job: p.get('job') ?? '',
          status: p.get('status') ?? '',
          from: p.get('from') ?? '',
          to: p.get('to') ?? '',
        }
        return htmlResponse(<RunsPage {...common} query={sent} error={error.message} />, { status: 400 })
      }
      return htmlResponse(<RunsPage {...common} query={query} page={listRuns(ctx, query)} />)
    })
    .use(runPage(ctx))

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { stepScreenshotFile } from '../../modules/executions/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { htmlResponse, securityHeaders } from '../http.ts'
import { Layout } from '../ui/layout.tsx'
import { Badge, Empty, Json, Notice, PageHead, Time } from '../ui/parts.tsx'
import { findRunBySeq, initialStep, loadRun, type RunDelivery, type RunDetail } from './run-data.ts'
import { Duration, Replay, stepHref } from './run-replay.tsx'

function Facts({ run }: { run: RunDetail }) {
  return (
    <dl class="facts card">
      <div>
        <dt>Status</dt>
        <dd>
          <Badge value={run.status} />
        </dd>
      </div>
      <div>
        <dt>Scenario</dt>
        <dd>{run.scenario ?? <span class="muted">—</span>}</dd>
      </div>
      <div>
        <dt>HTTP answer</dt>
        <dd>{run.httpStatus ?? <span class="muted">—</span>}</dd>
      </div>
      <div>
        <dt>Queued</dt>
        <dd>
          <Time at={run.queuedAt} />
        </dd>
      </div>
      <div>
        <dt>Started</dt>
        <dd>
          <Time at={run.startedAt} />
        </dd>
      </div>
      <div>
        <dt>Finished</dt>
        <dd>
          <Time at={run.finishedAt} />
        </dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>
          <Duration ms={run.durationMs} />
        </dd>
      </div>
      <div>
        <dt>Desktop</dt>
        <dd>{run.desktop ?? <span class="muted">—</span>}</dd>
      </div>
    </dl>
  )
}

function Deliveries({ run }: { run: RunDetail }) {
  if (!run.callback) return <Empty>No status events: the call gave no callback_url.</Empty>
  if (run.deliveries.length === 0) return <Empty>No status events were queued for this run.</Empty>
  return (
    <>
      <p class="small muted">
        Sent to <code>{run.callback}</code>
      </p>
      <div class="table-wrap deliveries">
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">Delivered</th>
            </tr>
          </thead>
          <tbody>
            {run.deliveries.map((d: RunDelivery) => (
              <tr key={d.id}>
                <td>
                  <code>{d.eventType}</code>
                </td>
                <td>
                  <Badge value={d.status} />
                </td>
                <td>{d.attempts}</td>
                <td>
                  {d.lastStatusCode ?? ''}
                  {d.lastStatusCode !== null && d.lastError ? ' · ' : ''}
                  {d.lastError ?? ''}
                  {d.lastStatusCode === null && !d.lastError && <span class="muted">—</span>}
                </td>
                <td>
                  <Time at={d.deliveredAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

export function RunPage(props: { signedIn: SignedIn; workspace: string; run: RunDetail; selected?: number }) {
  const { run } = props
  const failedStep = run.steps.find((s) => s.status === 'FAILED')
  return (
    <Layout title={`Run #${run.seq}`} section="runs" signedIn={props.signedIn} workspace={props.workspace}>
      <PageHead
        title={`Run #${run.seq}`}
        sub={
          run.method ? (
            <>
              <a href={`/_/jobs/${run.jobId}`} class="route">
                <span class="method">{run.method}</span> {run.path}
              </a>{' '}
              · version {run.jobVersion}
            </>
          ) : (
            'of a job that has been deleted'
          )
        }
      >
        <a class="button secondary" href={`/_/runs?job=${encodeURIComponent(run.jobId)}`}>
          Runs of this job
        </a>
      </PageHead>
      <Facts run={run} />
      {run.error && (
        <Notice kind="error">
          <p>
            <strong>{String(run.error.code ?? 'Error')}</strong>: {String(run.error.message ?? '')}
          </p>
          {failedStep ? (
            <p>
              At step{' '}
              <a href={stepHref(run.seq, failedStep.n)} data-step={failedStep.n}>
                {failedStep.n}: {failedStep.name}
              </a>
            </p>
          ) : (
            typeof run.error.step === 'string' && <p>At step “{run.error.step}”</p>
          )}
        </Notice>
      )}
      <h2>Steps</h2>
      {run.steps.length === 0 ? (
        <Empty>
          {run.status === 'queued'
            ? 'No steps yet: the run is waiting for a desktop.'
            : 'No steps were recorded for this run.'}
        </Empty>
      ) : (
        <Replay run={run} selected={props.selected} />
      )}
      <div class="grid2">
        <section aria-labelledby="run-input">
          <h2 id="run-input">Input</h2>
          <Json value={run.input} />
        </section>
        <section aria-labelledby="run-output">
          <h2 id="run-output">Output</h2>
          {run.output === null ? <p class="muted">None yet.</p> : <Json value={run.output} />}
        </section>
      </div>
      <h2>Status events</h2>
      <Deliveries run={run} />
    </Layout>
  )
}

export const runPage = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.run' })
    .get('/_/runs/:seq', ({ request, params }) => {
      const state = requestState(request)
      const run = loadRun(ctx, findRunBySeq(ctx, params.seq))
      return htmlResponse(
        <RunPage
          signedIn={state.signedIn!}
          workspace={workspaceName(ctx)}
          run={run}
          selected={initialStep(run, state.url.searchParams.get('step'))}
        />,
      )
    })
    .get('/_/runs/:seq/steps/:n/screenshot', async ({ params }) => {
      const row = findRunBySeq(ctx, params.seq)
      const file = await stepScreenshotFile(ctx, row, params.n, `run #${row.seq}`)
      return new Response(file, {
        headers: {
          ...securityHeaders(),
          'content-type': 'image/jpeg',
          // Behind a session: only this browser keeps it; a step's picture never changes.
          'cache-control': 'private, max-age=86400',
        },
      })
    })

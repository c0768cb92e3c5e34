import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import type { BuildProgressEntry, BuildQuestion } from '../../db/schema/index.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import { schemaProblems } from '../../lib/validation.ts'
import { AnswerBody } from '../../modules/builds/model.ts'
import { answerQuestion, getBuild } from '../../modules/builds/service.ts'
import type { SignedIn } from '../../modules/users/sessions.ts'
import { workspaceName } from '../../modules/users/workspace.ts'
import { pointOf } from '../../protocol/questions.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { htmlResponse, redirect } from '../http.ts'
import { Csrf, Layout } from '../ui/layout.tsx'
import { Badge, Json, Notice, PageHead, Time } from '../ui/parts.tsx'
import { buildCancelRoute, CancelBuildForm } from './build-cancel.tsx'
import { type BuildPageData, buildPageData, FINISHED } from './build-data.ts'
import { type DemonstrateCard, DemonstrateQuestion, demonstrateCard } from './build-demonstrate.tsx'
import { buildEventStream } from './build-events.ts'
import { Outcome } from './build-outcome.tsx'
import { buildScreenRoute, isPointable, PointForm, pointFromForm } from './build-point.tsx'
import { buildRecordingRoutes } from './build-recordings.ts'

/** A progress line's time: the seconds matter while a build runs (the full instant on hover). */
export const clockTime = (at: string) => `${new Date(at).toISOString().slice(11, 19)} UTC`

function ProgressEntry({ entry }: { entry: BuildProgressEntry }) {
  return (
    <li>
      <time datetime={entry.at} title={entry.at}>
        {clockTime(entry.at)}
      </time>
      <span class="stage">{entry.stage}</span>
      <span class="message">{entry.message}</span>
    </li>
  )
}

/** A free-text answer, or a multiple question without options (one value per line is not asked). */
const isFreeText = (q: BuildQuestion) => q.kind === 'free_text' || q.options.length === 0

function QuestionForm(props: {
  buildId: string
  question: BuildQuestion
  signedIn: SignedIn
  chosen: string[]
}) {
  const { question: q, chosen } = props
  const free = isFreeText(q)
  return (
    <form method="post" action={`/_/builds/${props.buildId}/answers`} class="stack question-form">
      <Csrf signedIn={props.signedIn} />
      <input type="hidden" name="questionId" value={q.id} />
      {free ? (
        <label>
          {q.text}
          <input
            type="text"
            name="answer"
            required
            autocomplete="off"
            value={chosen[0] ?? ''}
            list={q.options.length ? `options-${q.id}` : undefined}
          />
          {q.options.length > 0 && (
            <datalist id={`options-${q.id}`}>
              {q.options.map((o) => (
                <option value={o.value} key={o.value}>
                  {o.label}
                </option>
              ))}
            </datalist>
          )}
        </label>
      ) : (
        <fieldset class="choices">
          <legend>{q.text}</legend>
          {q.multiple && <p class="small muted">Choose every option that applies.</p>}
          {q.options.map((o) => (
            <label class="inline" key={o.value}>
              <input
                type={q.multiple ? 'checkbox' : 'radio'}
                name="answer"
                value={o.value}
                checked={chosen.includes(o.value)}
                required={!q.multiple}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </fieldset>
      )}
      <div>
        <button type="submit">Answer</button>
      </div>
    </form>
  )
}

/** An answer as the page says it: a recording, a spot pointed at, the options chosen, the text. */
function answerWords(a: { kind: string; answer: string | string[] }): string {
  if (a.kind === 'demonstrate') return 'shown in a recording'
  const spot = pointOf(a.answer)
  if (spot) return `pointed at ${spot.x}, ${spot.y} on the window`
  return Array.isArray(a.answer) ? a.answer.join(', ') : a.answer
}

export function BuildPage(props: {
  signedIn: SignedIn
  workspace: string
  data: BuildPageData
  error?: string
  notice?: string
  chosen?: string[]
  /** A `demonstrate` question's card: where it records and who holds the desktop. */
  demonstrate?: DemonstrateCard
}) {
  const { build, job } = props.data
  const finished = FINISHED.has(build.status)
  const route = job ? `${job.method} ${job.path}` : 'a deleted job'
  return (
    <Layout title={`Build of ${route}`} section="jobs" signedIn={props.signedIn} workspace={props.workspace}>
      <PageHead
        title="Build"
        sub={
          <>
            Teaching{' '}
            {job ? (
              <a href={`/_/jobs/${job.id}`} class="route">
                <span class="method">{job.method}</span> {job.path}
              </a>
            ) : (
              route
            )}{' '}
            a sample · started <Time at={build.createdAt} />
          </>
        }
      />
      <section
        class="build-live"
        aria-label="Build status"
        data-build-live={finished ? undefined : build.id}
        data-question-id={build.question?.id ?? ''}
      >
        <p class="build-status">
          Status:{' '}
          <span data-build-status>
            <Badge value={build.status} />
          </span>
        </p>
        {!finished && <CancelBuildForm buildId={build.id} signedIn={props.signedIn} />}
        {props.error && (
          <Notice kind="error">
            <p>{props.error}</p>
          </Notice>
        )}
        {props.notice && (
          <Notice kind="ok">
            <p>{props.notice}</p>
          </Notice>
        )}
        {build.question?.kind === 'demonstrate' && props.demonstrate ? (
          <DemonstrateQuestion
            buildId={build.id}
            question={build.question}
            signedIn={props.signedIn}
            card={props.demonstrate}
          />
        ) : (
          build.question && (
            <section class="card" aria-labelledby="question-head">
              <h2 id="question-head">The builder asks</h2>
              <QuestionForm
                buildId={build.id}
                question={build.question}
                signedIn={props.signedIn}
                chosen={props.chosen ?? []}
              />
              {isPointable(build.question) && (
                <PointForm buildId={build.id} question={build.question} signedIn={props.signedIn} />
              )}
            </section>
          )
        )}
        {finished && (
          <section class="card" aria-labelledby="outcome-head">
            <h2 id="outcome-head">Outcome</h2>
            <Outcome data={props.data} />
          </section>
        )}
        <h2>Progress</h2>
        <ol class="progress" data-build-progress aria-live="polite">
          {build.progress.map((entry, i) => (
            <ProgressEntry entry={entry} key={i} />
          ))}
        </ol>
      </section>
      <h2>The sample</h2>
      {props.data.input ? (
        <>
          <Json value={props.data.input} />
          {props.data.http !== null && (
            <details>
              <summary>Query, path parameters and kept headers</summary>
              <Json value={props.data.http} />
            </details>
          )}
        </>
      ) : (
        <p class="muted">The sample was removed.</p>
      )}
      {build.answers.length > 0 && (
        <>
          <h2>Answers given</h2>
          <ul class="answers">
            {build.answers.map((a) => (
              <li key={a.questionId}>
                {a.questionText} <strong>{answerWords(a)}</strong>{' '}
                <span class="small muted">
                  <Time at={a.answeredAt} />
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Layout>
  )
}

/** The dashboard's words for an answer the build refused; the page shows the build as it is now. */
function refusal(err: AppError): string {
  switch (err.code) {
    case 'NO_OPEN_QUESTION':
      return 'This question is no longer open: it was answered (perhaps by someone else) or the build moved on. Nothing was recorded.'
    case 'QUESTION_MISMATCH':
      return 'That question was replaced by a newer one (below). Nothing was recorded: answer the open question.'
    default:
      return err.message
  }
}

const REFUSALS = new Set(['NO_OPEN_QUESTION', 'QUESTION_MISMATCH', 'INVALID_ANSWER', 'INVALID_REQUEST'])

/**
 * The form's fields as the API's answer body: a list for a multiple-choice question, a spot for a
 * click on the window's picture, else one string.
 */
function answerFromForm(form: Record<string, unknown>, open: BuildQuestion | null) {
  const questionId = typeof form.questionId === 'string' ? form.questionId : ''
  const point = pointFromForm(form)
  if (point) return { body: { questionId, answer: point }, values: [] }
  const raw = form.answer
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
    (v): v is string => typeof v === 'string',
  )
  const current = open && open.id === questionId ? open : null
  if (current?.multiple && !isFreeText(current)) {
    if (values.length === 0) throw new AppError('INVALID_ANSWER', 'Choose at least one option')
    return { body: { questionId, answer: values }, values }
  }
  if (current && !isFreeText(current) && !values[0])
    throw new AppError('INVALID_ANSWER', 'Choose one of the options')
  const answer = current?.multiple ? values.filter((v) => v.trim()) : (values[0] ?? '')
  if (Array.isArray(answer) && answer.length === 0)
    throw new AppError('INVALID_ANSWER', 'The answer is empty')
  return { body: { questionId, answer }, values }
}

export const buildPage = (ctx: AppContext, hub: AgentHub) => {
  /** The page as it is now, with what the last action said; a `demonstrate` card asks the desktop's state. */
  const page = async (
    request: Request,
    id: string,
    extra: Partial<Parameters<typeof BuildPage>[0]> = {},
    status = 200,
  ) => {
    const signedIn = requestState(request).signedIn!
    const data = buildPageData(ctx, id)
    const demonstrate =
      data.build.question?.kind === 'demonstrate'
        ? await demonstrateCard(ctx, hub, getBuild(ctx, id), signedIn)
        : undefined
    return htmlResponse(
      <BuildPage
        signedIn={signedIn}
        workspace={workspaceName(ctx)}
        data={data}
        demonstrate={demonstrate}
        {...extra}
      />,
      { status },
    )
  }
  return new Elysia({ name: 'dashboard.build' })
    .get('/_/builds/:id', ({ params, request }) => {
      const query = new URL(request.url).searchParams
      const notice = query.has('answered')
        ? 'Your answer was recorded; the build goes on.'
        : query.has('cancelled')
          ? 'The recording was cancelled; nothing of it was kept.'
          : query.has('build-cancelled')
            ? 'The build was cancelled and its desktop freed. The sample stays on the job: remove it or teach it again.'
            : undefined
      return page(request, params.id, { notice })
    })
    .post('/_/builds/:id/answers', async ({ params, request, body }) => {
      const open = getBuild(ctx, params.id).question ?? null // 404 before 409s
      let chosen: string[] = []
      try {
        const parsed = answerFromForm((body ?? {}) as Record<string, unknown>, open)
        chosen = parsed.values
        const problems = schemaProblems(AnswerBody, parsed.body, '')
        if (problems.length) throw new AppError('INVALID_REQUEST', problems.join('; '))
        answerQuestion(ctx, params.id, parsed.body as AnswerBody)
      } catch (err) {
        if (!(err instanceof AppError) || !REFUSALS.has(err.code)) throw err
        // Keep the person's choice only on the very question they answered.
        const sent = (body as { questionId?: unknown } | null)?.questionId
        const now = getBuild(ctx, params.id).question
        const same = now != null && now.id === sent
        return page(request, params.id, { error: refusal(err), chosen: same ? chosen : [] }, err.status)
      }
      return redirect(`/_/builds/${encodeURIComponent(params.id)}?answered=1`)
    })
    .use(buildScreenRoute(ctx, hub))
    .use(buildCancelRoute(ctx, (request, id, err) => page(request, id, { error: err.message }, err.status)))
    .use(
      buildRecordingRoutes(ctx, hub, (request, id, err) =>
        page(request, id, { error: refusal(err) }, err.status),
      ),
    )
    .get('/_/builds/:id/events', ({ params, request, server }) => {
      const response = buildEventStream(ctx, params.id, request.signal, {
        sessionId: requestState(request).signedIn?.sessionId,
      })
      // The stream stays open for as long as the page does: exempt it from the idle timeout.
      server?.timeout(request, 0)
      return response
    })
}

import { and, eq, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { preparedFor } from '../../db/prepared.ts'
import {
  type BuildAnswer,
  type BuildProgressEntry,
  type BuildQuestion,
  type BuildStatus,
  builds,
  jobAnswers,
} from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { isDecline, NONE_OF_THESE, type Question } from '../../protocol/questions.ts'
import { findRecording } from '../recordings/repo.ts'
import { isPointBody, pointedAnswer } from '../screen/service.ts'
import { maskUrlCredentials, maskUrlCredentialsIn } from '../secrets/url-credentials.ts'
import type { AnswerBody } from './model.ts'

export type Build = typeof builds.$inferSelect

export interface BuildView {
  id: string
  jobId: string
  sampleId: string
  status: BuildStatus
  question: BuildQuestion | null
  answers: BuildAnswer[]
  progress: BuildProgressEntry[]
  scenario: string | null
  error: { code: string; message: string } | null
  createdAt: string
  updatedAt: string
}

export const toBuildView = (b: Build): BuildView => ({
  id: b.id,
  jobId: b.jobId,
  sampleId: b.sampleId,
  status: b.status,
  question: b.question ?? null,
  answers: b.answers,
  progress: b.progress,
  scenario: b.scenario,
  error: b.error ?? null,
  createdAt: b.createdAt,
  updatedAt: b.updatedAt,
})

/** Called inside the teach transaction, so the build exists exactly when its sample does. */
export function insertBuild(
  db: Pick<Db, 'insert'>,
  now: string,
  row: {
    jobId: string
    sampleId: string
    scenario: string | null
    desktop: string | null
    demonstrate?: boolean
  },
): Build {
  const build: Build = {
    id: newId(),
    ...row,
    demonstrate: row.demonstrate ?? false,
    status: 'queued',
    question: null,
    answers: [],
    progress: [{ at: now, stage: 'queued', message: 'Sample received; waiting for the builder to start' }],
    error: null,
    createdAt: now,
    updatedAt: now,
  }
  db.insert(builds).values(build).run()
  return build
}

const buildById = preparedFor((db) =>
  db
    .select()
    .from(builds)
    .where(eq(builds.id, sql.placeholder('id')))
    .prepare(),
)

export const buildNotFound = (id: string) => new AppError('BUILD_NOT_FOUND', `No build with id ${id}`)

/** The build, or undefined (no 404), for callers that decide themselves. */
export const findBuild = (ctx: AppContext, id: string): Build | undefined => buildById(ctx.db).get({ id })

/** Whose build it is, for the key check on `/_builds/:id/…` (builds and recordings alike). */
export const buildOwner = (ctx: AppContext) => ({
  jobOf: (id: string) => findBuild(ctx, id)?.jobId,
  notFound: buildNotFound,
})

export function getBuild(ctx: AppContext, id: string): Build {
  const build = findBuild(ctx, id)
  if (!build) throw buildNotFound(id)
  return build
}

/** Writes a change to a build and tells live build pages (`build.changed`). */
function update(
  ctx: AppContext,
  build: Build,
  patch: Partial<Build>,
  progress?: Omit<BuildProgressEntry, 'at'>,
): Build {
  const next = write(ctx, build, patch, progress)
  ctx.events.emit('build.changed', build.id)
  return next
}

/** `update` without the event, for a caller's transaction: it emits once that has committed. */
function write(
  ctx: AppContext,
  build: Build,
  patch: Partial<Build>,
  progress?: Omit<BuildProgressEntry, 'at'>,
): Build {
  const now = ctx.clock.now().toISOString()
  const next: Build = {
    ...build,
    ...patch,
    progress: progress ? [...build.progress, { at: now, ...progress }] : build.progress,
    updatedAt: now,
  }
  ctx.db
    .update(builds)
    .set({ ...patch, progress: next.progress, updatedAt: now })
    .where(eq(builds.id, build.id))
    .run()
  return next
}

/** Records what the builder looked at, tried or decided, so a person can follow the build. */
export function recordProgress(
  ctx: AppContext,
  id: string,
  entry: Omit<BuildProgressEntry, 'at'>,
  status?: BuildStatus,
): Build {
  // An app's credentials in the addresses the builder reads (`?key=…`) never reach the record.
  return update(ctx, getBuild(ctx, id), status ? { status } : {}, maskUrlCredentialsIn(entry))
}

/** The answer every choice question accepts: none of its options fits (the builder then asks otherwise). */
const NONE_OPTION = { value: NONE_OF_THESE, label: 'None of these' }

/** A question with options to choose from (not free text, not "show me") can always be declined. */
function withDecline(q: Omit<BuildQuestion, 'id'>): Omit<BuildQuestion, 'id'> {
  if (q.kind === 'free_text' || q.kind === 'demonstrate' || q.options.length === 0) return q
  if (q.options.some((o) => o.value === NONE_OF_THESE)) return q
  return { ...q, options: [...q.options, NONE_OPTION] }
}

/** The builder asks; the build waits for `POST /_builds/<id>/answers`. */
export function askQuestion(ctx: AppContext, id: string, question: Omit<BuildQuestion, 'id'>): Build {
  const build = getBuild(ctx, id)
  if (build.status === 'succeeded' || build.status === 'failed')
    throw new AppError('INVALID_REQUEST', `Build ${id} has finished; it cannot ask a question`)
  const offered = withDecline(question)
  const asked: BuildQuestion = {
    id: newId(),
    ...offered,
    text: maskUrlCredentials(offered.text),
    options: offered.options.map((o) => ({ ...o, label: maskUrlCredentials(o.label) })),
  }
  return update(
    ctx,
    build,
    { status: 'waiting_for_answer', question: asked },
    { stage: 'question', message: `Asked: ${asked.text}`, data: { questionId: asked.id, kind: asked.kind } },
  )
}

export function answerQuestion(ctx: AppContext, id: string, body: AnswerBody): Build {
  const result = ctx.db.transaction(
    () => {
      const build = getBuild(ctx, id)
      const q = build.question
      if (!q || build.status !== 'waiting_for_answer')
        throw new AppError('NO_OPEN_QUESTION', `Build ${id} has no open question (status: ${build.status})`)
      if (body.questionId !== q.id)
        throw new AppError(
          'QUESTION_MISMATCH',
          `Question ${body.questionId} is not the open question of build ${id}; the open one is ${q.id}`,
          { openQuestionId: q.id },
        )
      const answer =
        q.kind === 'demonstrate'
          ? demonstration(ctx, build, body.answer)
          : isPointBody(body.answer)
            ? pointedAnswer(ctx, build, body.answer)
            : validateAnswer(q, body.answer)
      const now = ctx.clock.now().toISOString()
      const answers = [
        ...build.answers,
        { questionId: q.id, kind: q.kind, questionText: q.text, answer, answeredAt: now },
      ]
      // A demonstration or a point shows this build's screen: a later build must be shown again.
      // A decline is no reusable answer: the next build must look again (the screen may differ).
      const declined = q.kind !== 'demonstrate' && isDecline(answer)
      if (q.kind !== 'demonstrate' && !isPointBody(body.answer) && !declined)
        rememberAnswer(ctx, build, q, answer, now)
      const shown =
        q.kind === 'demonstrate'
          ? `recording ${answer}`
          : declined
            ? 'none of these'
            : Array.isArray(answer)
              ? answer.join(', ')
              : answer
      return write(
        ctx,
        build,
        { status: 'exploring', question: null, answers },
        { stage: 'answer', message: `Answer received for "${q.text}": ${shown}`, data: { questionId: q.id } },
      )
    },
    { behavior: 'immediate' },
  )
  ctx.events.emit('build.changed', id)
  ctx.events.emit('build.answered', id)
  return result
}

/** A question's identity across builds: its kind, its words and the options it offered. */
const optionsKey = (q: Pick<Question, 'options'>) =>
  // The builder asks without "none of these" and the build stores it with: one key for both.
  JSON.stringify(
    q.options
      .map((o) => o.value)
      .filter((v) => v !== NONE_OF_THESE)
      .sort(),
  )

/** The job keeps every answer, so a later build (after a failed one, or a removed sample) need not ask again. */
function rememberAnswer(
  ctx: AppContext,
  build: Build,
  q: BuildQuestion,
  answer: string | string[],
  now: string,
) {
  const row = {
    jobId: build.jobId,
    kind: q.kind,
    questionText: q.text,
    optionsKey: optionsKey(q),
    answer,
    buildId: build.id,
    answeredAt: now,
  }
  ctx.db
    .insert(jobAnswers)
    .values(row)
    .onConflictDoUpdate({
      target: [jobAnswers.jobId, jobAnswers.kind, jobAnswers.questionText, jobAnswers.optionsKey],
      set: { answer, buildId: build.id, answeredAt: now },
    })
    .run()
}

/** The answer an earlier build of the job got to this very question (same kind, text and options). */
export function earlierAnswer(
  ctx: AppContext,
  jobId: string,
  q: Question,
): { answer: string | string[]; buildId: string } | undefined {
  return ctx.db
    .select({ answer: jobAnswers.answer, buildId: jobAnswers.buildId })
    .from(jobAnswers)
    .where(
      and(
        eq(jobAnswers.jobId, jobId),
        eq(jobAnswers.kind, q.kind),
        eq(jobAnswers.questionText, q.text),
        eq(jobAnswers.optionsKey, optionsKey(q)),
      ),
    )
    .get()
}

/**
 * A `demonstrate` question is answered with `{"recordingId"}`: a stopped recording of this build
 * with at least one action. The recording's id is stored as the answer.
 */
function demonstration(ctx: AppContext, build: Build, answer: AnswerBody['answer']): string {
  if (typeof answer !== 'object' || Array.isArray(answer) || !('recordingId' in answer))
    throw new AppError(
      'INVALID_ANSWER',
      'This question is answered with a recording: {"recordingId": "…"} (start one with POST /_builds/<id>/recordings)',
      { field: 'answer' },
    )
  const recording = findRecording(ctx, answer.recordingId)
  if (!recording || recording.buildId !== build.id)
    throw new AppError(
      'RECORDING_NOT_FOUND',
      `Build ${build.id} has no recording with id ${answer.recordingId}`,
      {
        field: 'answer.recordingId',
      },
    )
  if (recording.status === 'recording')
    throw new AppError(
      'RECORDING_IN_PROGRESS',
      `Recording ${recording.id} is still recording: stop it first, then answer with it`,
    )
  if (recording.status !== 'done')
    throw new AppError(
      'RECORDING_NOT_ACTIVE',
      `Recording ${recording.id} ${recording.status === 'cancelled' ? 'was cancelled' : 'failed'}${recording.error ? ` (${recording.error})` : ''}; record the task again`,
      { status: recording.status },
    )
  if (recording.actions.length === 0)
    throw new AppError(
      'EMPTY_RECORDING',
      'The recording has no actions: record the task again, doing it this time',
    )
  return recording.id
}

function validateAnswer(q: BuildQuestion, answer: AnswerBody['answer']): string | string[] {
  if (typeof answer === 'object' && !Array.isArray(answer))
    throw new AppError(
      'INVALID_ANSWER',
      'point' in answer
        ? 'This question is not about something on the screen: answer with one of its options'
        : 'Only a "demonstrate" question is answered with a recording',
      { field: 'answer' },
    )
  const invalid = (message: string) =>
    new AppError('INVALID_ANSWER', message, {
      field: 'answer',
      options: q.options.map((o) => o.value),
    })
  if (q.multiple) {
    const values = Array.isArray(answer) ? answer : [answer]
    // `[]` declines a multiple choice, like `["__none__"]`; none cannot be chosen beside others.
    if (values.length === 0 && q.options.length === 0) throw invalid('The answer is empty')
    if (values.length > 1 && values.includes(NONE_OF_THESE))
      throw invalid(`${NONE_OF_THESE} (none of these) cannot be chosen together with other options`)
    if (new Set(values).size !== values.length) throw invalid('The answer lists a value twice')
    const allowed = new Set(q.options.map((o) => o.value))
    const unknown = values.filter((v) => !allowed.has(v))
    if (q.options.length && unknown.length)
      throw invalid(`Not among the options: ${unknown.join(', ')}. Choose from: ${[...allowed].join(', ')}`)
    return values
  }
  if (Array.isArray(answer)) throw invalid('This question takes a single answer (a string), not a list')
  if (q.options.length === 0) {
    if (!answer.trim()) throw invalid('The answer is empty')
    return answer
  }
  if (!q.options.some((o) => o.value === answer))
    throw invalid(
      `${JSON.stringify(answer)} is not among the options. Choose from: ${q.options.map((o) => o.value).join(', ')}`,
    )
  return answer
}

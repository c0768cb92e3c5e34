import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import { requestActor } from '../../modules/audit/request-actor.ts'
import { answerQuestion, getBuild } from '../../modules/builds/service.ts'
import {
  cancelRecording,
  sendInput,
  startRecording,
  stopRecording,
} from '../../modules/recordings/service.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { jsonResponse, redirect, securityHeaders } from '../http.ts'
import { actorOf, currentRecording, mayDemonstrate } from './build-demonstrate.tsx'

/** Refusals the build page explains in place (the build as it is now, with the reason on top). */
const REFUSALS = new Set([
  'NOT_DEMONSTRATING',
  'DESKTOP_IN_USE',
  'RECORDING_NOT_ACTIVE',
  'RECORDING_NOT_FOUND',
  'RECORDING_IN_PROGRESS',
  'EMPTY_RECORDING',
  'NO_OPEN_QUESTION',
  'QUESTION_MISMATCH',
  'INVALID_ANSWER',
  'SERVICE_UNAVAILABLE',
])

/** Renders the build page with a refusal's words (build.tsx owns the page). */
export type RefusalPage = (request: Request, buildId: string, err: AppError) => Promise<Response>

const buildUrl = (id: string) => `/_/builds/${encodeURIComponent(id)}`

/**
 * "Show me" on the build page: start a recording of the build's desktop, send it the person's
 * clicks and keys from the live preview, and end it with Done (stop, then answer the question
 * with the recording, in one post) or Cancel. The person who started holds the desktop; the
 * service refuses everyone else. The island polls `…/recordings/current` for who holds it.
 */
export const buildRecordingRoutes = (ctx: AppContext, hub: AgentHub, refused: RefusalPage) => {
  const person = (request: Request) => {
    const signedIn = requestState(request).signedIn!
    if (!mayDemonstrate(signedIn.user))
      throw new AppError('FORBIDDEN', 'Only people who may teach jobs can demonstrate on a desktop')
    return signedIn
  }
  /** A form's action: on a refusal, the build page says why; else the next page. */
  const formAction = async (request: Request, buildId: string, act: () => Promise<string>) => {
    try {
      return redirect(await act())
    } catch (err) {
      if (err instanceof AppError && REFUSALS.has(err.code)) return refused(request, buildId, err)
      throw err
    }
  }
  return new Elysia({ name: 'dashboard.build-recordings' })
    .post('/_/builds/:id/recordings', ({ params, request }) => {
      const by = actorOf(person(request))
      return formAction(request, params.id, async () => {
        await startRecording(ctx, hub, params.id, by, requestActor(ctx, request))
        return `${buildUrl(params.id)}#question-head`
      })
    })
    .get('/_/builds/:id/recordings/current', async ({ params, request }) => {
      const signedIn = requestState(request).signedIn!
      const build = getBuild(ctx, params.id)
      const r =
        build.question?.kind === 'demonstrate'
          ? await currentRecording(ctx, hub, build, signedIn, { live: true })
          : null
      return jsonResponse({
        recording: r && {
          id: r.id,
          by: r.startedBy,
          mine: r.mine,
          actions: r.actionCount,
          recent: r.recent,
        },
      })
    })
    .post('/_/builds/:id/recordings/:rid/input', async ({ params, request, body }) => {
      const by = actorOf(person(request))
      await sendInput(ctx, hub, params.id, params.rid, by, body)
      return new Response(null, { status: 204, headers: securityHeaders() })
    })
    .post('/_/builds/:id/recordings/:rid/done', ({ params, request, body, server }) => {
      const by = actorOf(person(request))
      // Handing over the recording may outlast Bun's idle timeout (the RPC's own bounds it).
      server?.timeout(request, 0)
      const form = (body ?? {}) as Record<string, unknown>
      const questionId = typeof form.questionId === 'string' ? form.questionId : ''
      return formAction(request, params.id, async () => {
        await stopRecording(ctx, hub, params.id, params.rid, by)
        answerQuestion(ctx, params.id, { questionId, answer: { recordingId: params.rid } })
        return `${buildUrl(params.id)}?answered=1`
      })
    })
    .post('/_/builds/:id/recordings/:rid/cancel', ({ params, request }) => {
      const by = actorOf(person(request))
      return formAction(request, params.id, async () => {
        await cancelRecording(ctx, hub, params.id, params.rid, by)
        return `${buildUrl(params.id)}?cancelled=1`
      })
    })
}

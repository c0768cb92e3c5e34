import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import type { AgentHub } from '../../runtime/agent-hub/index.ts'
import { requestActor } from '../audit/request-actor.ts'
import { buildOwner } from '../builds/service.ts'
import { hideOutsideKey } from '../keys/job-reach.ts'
import { readJsonObject } from '../triggers/read-body.ts'
import type { RecordingStarted } from './model.ts'
import {
  apiKeyActor,
  cancelRecording,
  recordingScreenshot,
  recordingStatus,
  sendInput,
  startRecording,
  stopRecording,
} from './service.ts'
import { screenPath } from './view.ts'

/** RemoteInput is small: a click, a key, or at most 2,000 characters of text. */
const INPUT_BODY_LIMIT = 16 * 1024

/**
 * "Show me" over the API: record a demonstration on a build's desktop while the build asks
 * `demonstrate`, then answer the question with the recording. Keyed like every `/_` path; the
 * key that starts a recording holds the desktop until it stops or cancels it.
 */
export const recordingsRoutes = (ctx: AppContext, hub: AgentHub) => {
  const actor = (request: Request) => {
    const key = requestState(request).apiKey
    if (!key) throw new AppError('UNAUTHORIZED', 'An API key is required: send it in the x-api-key header')
    return apiKeyActor(ctx, key.id)
  }
  return (
    new Elysia({ name: 'routes.recordings' })
      // To a key limited to some jobs, another job's build has no recordings to see or drive.
      .onBeforeHandle(({ request, params }) =>
        hideOutsideKey(ctx, requestState(request).apiKey, params.id, buildOwner(ctx)),
      )
      .post(
        '/_builds/:id/recordings',
        async ({ params, request, set }): Promise<RecordingStarted> => {
          const r = await startRecording(ctx, hub, params.id, actor(request), requestActor(ctx, request))
          set.status = 201
          return {
            recordingId: r.id,
            status: r.status,
            windowId: r.windowId,
            screenUrl: screenPath(params.id),
          }
        },
        { parse: 'none' },
      )
      .get('/_builds/:id/recordings/:rid', ({ params }) => recordingStatus(ctx, hub, params.id, params.rid))
      .get('/_builds/:id/recordings/:rid/screenshots/:seq', async ({ params }) => {
        const file = await recordingScreenshot(ctx, params.id, params.rid, params.seq)
        return new Response(file, {
          headers: { 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=86400' },
        })
      })
      .post(
        '/_builds/:id/recordings/:rid/stop',
        ({ params, request, server }) => {
          // The desktop may take up to a minute to settle and hand over the recording, longer than
          // Bun's idle timeout would hold the connection; the RPC's own timeout bounds it.
          server?.timeout(request, 0)
          return stopRecording(ctx, hub, params.id, params.rid, actor(request))
        },
        { parse: 'none' },
      )
      .post(
        '/_builds/:id/recordings/:rid/cancel',
        ({ params, request }) => cancelRecording(ctx, hub, params.id, params.rid, actor(request)),
        { parse: 'none' },
      )
      .post(
        '/_builds/:id/recordings/:rid/input',
        async ({ params, request, set }) => {
          const body = await readJsonObject(request, INPUT_BODY_LIMIT)
          if (!body)
            throw new AppError(
              'INVALID_REQUEST',
              'Send the input as the body, e.g. {"kind": "click", "x": 120, "y": 48} or {"kind": "type", "text": "…"}',
            )
          await sendInput(ctx, hub, params.id, params.rid, actor(request), body)
          set.status = 204
        },
        { parse: 'none' },
      )
  )
}

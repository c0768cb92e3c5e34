import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import { schemaProblems } from '../../lib/validation.ts'
import { hideOutsideKey } from '../keys/job-reach.ts'
import { readJsonObject } from '../triggers/read-body.ts'
import { cancelBuild } from './cancel.ts'
import { AnswerBody } from './model.ts'
import { answerQuestion, buildOwner, getBuild, toBuildView } from './service.ts'

export const buildsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'routes.builds' })
    // To a key limited to some jobs, another job's build does not exist (before its body is read).
    .onBeforeHandle(({ request, params }) =>
      hideOutsideKey(ctx, requestState(request).apiKey, params.id, buildOwner(ctx)),
    )
    .get('/_builds/:id', ({ params }) => toBuildView(getBuild(ctx, params.id)))
    .post(
      '/_builds/:id/answers',
      async ({ params, request }) => {
        // Same body rules as job calls (size limit, JSON only, clear errors), read by hand.
        const body = await readJsonObject(request, ctx.config.bodyLimit)
        if (!body)
          throw new AppError('INVALID_REQUEST', 'Send {"questionId": "…", "answer": "…"} as the body')
        const problems = schemaProblems(AnswerBody, body, '')
        if (problems.length) throw new AppError('INVALID_REQUEST', problems.join('; '), { problems })
        getBuild(ctx, params.id) // 404 before 409s
        return toBuildView(answerQuestion(ctx, params.id, body as AnswerBody))
      },
      { parse: 'none' },
    )
    // Ends the build (failed, BUILD_CANCELLED); the worker stops it and frees its desktop once it wound down.
    .post('/_builds/:id/cancel', ({ params }) =>
      toBuildView(cancelBuild(ctx, params.id, 'cancelled over the API')),
    )

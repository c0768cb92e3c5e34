import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { baseUrl } from '../../http/base-url.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import type { Runtime } from '../../runtime/index.ts'
import { isReservedPath } from '../jobs/path-pattern.ts'
import { jobNotFound, matchJob } from '../jobs/service.ts'
import { requireScope } from '../keys/scopes.ts'
import { noteJobCall } from '../metrics/job-calls.ts'
import { keepHeaderSecrets, keptHeaderValues } from '../secrets/kept-headers.ts'
import { ENVELOPE_KEY } from '../teach/model.ts'
import { teach } from '../teach/service.ts'
import { httpInfo, mergeInput, queryObject } from './job-input.ts'
import { liveCall } from './live-call.ts'
import { readJsonObject } from './read-body.ts'

/**
 * Every path that is not reserved is a job trigger. The body is read by hand (`parse: 'none'`) so
 * the size limit holds before buffering and JSON errors get deskhook's own codes.
 */
export const triggerRoutes = (ctx: AppContext, runtime: Runtime) =>
  new Elysia({ name: 'routes.triggers' }).all(
    '/*',
    async ({ request, set, server }) => {
      const { url } = requestState(request)
      const path = url.pathname
      const method = request.method.toUpperCase()
      const body = await readJsonObject(request, ctx.config.bodyLimit)
      const { input, envelope, teaching } = mergeInput(queryObject(url.searchParams), body)
      // The gate let a key with `call` or `teach` through on this path; now it is known which one
      // this call needs, and on which method: a live call runs the request's method; a teaching
      // call teaches `deskhook.method` (teach checks that, with the pattern it resolves).
      const grant = requestState(request).apiKey
      requireScope(grant, teaching ? 'teach' : 'call', method, path, !teaching)

      if (teaching) {
        const { response, job } = teach(ctx, {
          method,
          path,
          envelope,
          input,
          http: httpInfo(request, path, {}),
          authorize: (taught, at) => requireScope(grant, 'teach', taught, at),
        })
        keepHeaderSecrets(ctx, job, request)
        noteJobCall(request, job)
        set.status = 202
        set.headers.location = response.buildPath
        return response
      }
      if (isReservedPath(path)) throw new AppError('NOT_FOUND', `No such endpoint: ${method} ${path}`)
      const match = matchJob(ctx, method, path)
      if (!match) throw jobNotFound(ctx, method, path)
      noteJobCall(request, match.job)
      if (match.job.mode !== 'live')
        throw new AppError(
          'JOB_NOT_LIVE',
          `${match.job.method} ${match.job.path} is still learning: promote it to live in the dashboard (or \`deskhook jobs promote\`), or send a teaching call with the ${ENVELOPE_KEY} envelope`,
          { jobId: match.job.id, mode: match.job.mode },
        )
      const state = requestState(request)
      const http = httpInfo(request, path, match.params)
      // The call's own kept credential headers: a secret input of this call (kept-headers.ts).
      Object.assign(http.headers, keptHeaderValues(match.job, request))
      const answer = await liveCall(ctx, runtime, {
        request,
        server,
        job: match.job,
        method,
        path,
        input: { ...input, _http: http },
        apiKeyId: state.apiKey?.id ?? null,
        requestId: state.id,
        baseUrl: baseUrl(ctx),
        query: url.searchParams,
      })
      set.status = answer.status
      Object.assign(set.headers, answer.headers)
      return answer.body
    },
    { parse: 'none' },
  )

import { Elysia } from 'elysia'
import type { AppContext } from '../context.ts'
import { checkCsrf, gateDashboard, isDashboardPath } from '../dashboard/gate.ts'
import { dashboardError } from '../dashboard/pages/errors.tsx'
import { AppError, errorBody } from '../lib/errors.ts'
import { withoutDataDir } from '../modules/health/public-text.ts'
import { METRICS_PATH, metricsOpenTo } from '../modules/metrics/access.ts'
import { isStorageError, noteStorageFailure, storageUnavailable } from '../runtime/storage-guard.ts'
import type { ApiKeyCheck } from './api-key-check.ts'
import { isPublicPath } from './public-paths.ts'
import { beginRequest, requestState } from './request-state.ts'
import { accessFor } from './route-access.ts'

/**
 * Cross-cutting HTTP behaviour, applied to every route: a request id (echoed in `x-request-id`,
 * in every log line and every error body), the API-key gate (before any body is read, so an
 * unauthenticated caller cannot make the server parse anything), one error shape, and an access log.
 */
export const httpPlugin = (ctx: AppContext, keys: ApiKeyCheck) =>
  new Elysia({ name: 'plugin.http' })
    .onRequest(({ request, set, server }) => {
      const state = beginRequest(request)
      set.headers['x-request-id'] = state.id
      const path = state.url.pathname
      // The database file is gone or replaced: nothing may be accepted (and lost); health says why.
      if (ctx.storage.lost && path !== '/_health') throw storageUnavailable(ctx.storage.lost)
      if (isPublicPath(request.method, path)) return
      // Scrapers on the allowed networks need no key (`--metrics-allow`); anyone else needs one.
      if (path === METRICS_PATH && metricsOpenTo(ctx.config, server?.requestIP(request)?.address)) return
      // The dashboard opens with a session cookie only; the trigger host with an API key only.
      if (isDashboardPath(path)) {
        state.signedIn = gateDashboard(ctx, request, path)
        return
      }
      // The key's grant, or 401 (with WWW-Authenticate), 429 (with Retry-After) or 403 FORBIDDEN_SCOPE.
      state.apiKey = keys.authorize(request.headers.get('x-api-key'), accessFor(request.method, path))
    })
    .onBeforeHandle({ as: 'global' }, ({ request, body }) => {
      const state = requestState(request)
      if (isDashboardPath(state.url.pathname)) checkCsrf(request, body, state.signedIn)
    })
    .onError({ as: 'global' }, ({ code, error, request, set }) => {
      const state = requestState(request)
      if (isStorageError(error)) noteStorageFailure(ctx, error)
      let appError = toAppError(code, error)
      // Before a key or session is shown, no message says where the data lives (the log does).
      if (!state.apiKey && !state.signedIn) appError = publicError(ctx, appError)
      if (appError.status >= 500) ctx.log.error({ reqId: state.id, err: error }, 'request failed')
      set.status = appError.status
      if (isDashboardPath(state.url.pathname)) {
        const page = dashboardError(appError, request, state)
        set.status = page.status
        return page
      }
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': state.id,
        ...appError.headers,
      }
      return new Response(JSON.stringify(errorBody(appError, state.id)), { status: appError.status, headers })
    })
    .onAfterResponse({ as: 'global' }, ({ request, set }) => {
      const state = requestState(request)
      // A request that changed something and succeeded wrote it: storage works again.
      if (ctx.storage.failing && request.method !== 'GET' && Number(set.status ?? 200) < 400)
        ctx.storage.failing = undefined
      if (!ctx.log.isLevelEnabled('info')) return
      ctx.log.info(
        {
          reqId: state.id,
          method: request.method,
          path: state.url.pathname,
          status: set.status,
          ms: Math.round((performance.now() - state.startedAt) * 100) / 100,
          apiKeyId: state.apiKey?.id,
          userId: state.signedIn?.user.id,
        },
        'request',
      )
    })

function publicError(ctx: AppContext, e: AppError): AppError {
  const message = withoutDataDir(ctx.config.dataDir, e.message)
  return message === e.message ? e : new AppError(e.code, message, e.details, e.headers)
}

function toAppError(code: string | number, error: unknown): AppError {
  if (error instanceof AppError) return error
  if (isStorageError(error))
    return storageUnavailable(
      'The server cannot write to its database (the disk may be full or failing); nothing was accepted, retry later',
    )
  switch (code) {
    case 'NOT_FOUND':
      return new AppError('NOT_FOUND', 'No such endpoint')
    case 'PARSE':
      return new AppError('INVALID_JSON', 'The body is not valid JSON')
    case 'VALIDATION':
      return new AppError('INVALID_REQUEST', validationMessage(error))
    default:
      return new AppError(
        'INTERNAL',
        'Something went wrong on the server; the request id identifies it in the logs',
      )
  }
}

function validationMessage(error: unknown): string {
  const e = error as { all?: { path?: string; summary?: string; message?: string }[] }
  const first = e.all?.[0]
  if (!first) return 'The request is not valid'
  const member = first.path?.split('/').filter(Boolean).join('.') || 'body'
  return `${member}: ${first.summary ?? first.message ?? 'is not valid'}`
}

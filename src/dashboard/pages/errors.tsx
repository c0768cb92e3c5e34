import type { RequestState } from '../../http/request-state.ts'
import { type AppError, errorBody } from '../../lib/errors.ts'
import { htmlResponse, jsonResponse, redirect } from '../http.ts'
import { Layout } from '../ui/layout.tsx'
import { Notice } from '../ui/parts.tsx'

const wantsJson = (request: Request) =>
  /application\/json|text\/event-stream/.test(request.headers.get('accept') ?? '') ||
  request.headers.has('x-csrf-token')

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Not now',
  429: 'Too many attempts',
}

/**
 * Errors on dashboard paths: a person gets a page (or, without a session, the sign-in page and
 * then back to where they were going); an island's fetch gets the usual JSON error body.
 */
export function dashboardError(error: AppError, request: Request, state: RequestState): Response {
  if (wantsJson(request)) return jsonResponse(errorBody(error, state.id), error.status)
  if (error.code === 'UNAUTHORIZED' && (request.method === 'GET' || request.method === 'HEAD')) {
    const next = state.url.pathname + state.url.search
    return redirect(`/_/sign-in?next=${encodeURIComponent(next)}`)
  }
  if (error.code === 'UNAUTHORIZED') return redirect('/_/sign-in')
  const title = TITLES[error.status] ?? 'Something went wrong'
  return htmlResponse(
    <Layout title={title} signedIn={state.signedIn} section="none">
      <h1>{title}</h1>
      <Notice kind="error">
        <p>{error.status >= 500 ? 'Something went wrong on the server.' : error.message}</p>
      </Notice>
      <p class="muted">
        Request id <code>{state.id}</code> (the server's log has the details).
      </p>
      <p>
        <a href="/_/">Back to the jobs</a>
      </p>
    </Layout>,
    { status: error.status },
  )
}

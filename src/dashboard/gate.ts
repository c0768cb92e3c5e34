import type { AppContext } from '../context.ts'
import { AppError } from '../lib/errors.ts'
import { readSession, SESSION_COOKIE, type SignedIn, sameToken } from '../modules/users/sessions.ts'
import { SignInThrottle } from '../modules/users/throttle.ts'

/** Dashboard state that lives with the server process. */
export interface DashboardState {
  /** While nobody has an account: the one-time token in the setup link the server prints. */
  setupToken: string | null
  throttle: SignInThrottle
}

export function createDashboardState(needsSetup: boolean): DashboardState {
  return {
    setupToken: needsSetup
      ? Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
      : null,
    throttle: new SignInThrottle(),
  }
}

export const isDashboardPath = (path: string) => path === '/_' || path.startsWith('/_/')

/** Pages anyone may open: signing in, first-run setup, and the static files they use. */
const isOpenPage = (path: string) =>
  path === '/_/sign-in' || path === '/_/setup' || path.startsWith('/_/assets/')

/** The pre-session CSRF cookie of the setup and sign-in forms (double-submit). */
export const FORM_COOKIE = 'dh_form'

export function cookies(request: Request): Bun.CookieMap {
  return new Bun.CookieMap(request.headers.get('cookie') ?? '')
}

/**
 * Resolves the session of a dashboard request, before any body is read. Only the session cookie
 * opens the dashboard; an `x-api-key` header is ignored here (and the trigger host ignores cookies).
 * A request without a session to anything but the open pages is refused (pages answer it with a
 * redirect to sign-in; see errors.tsx).
 */
export function gateDashboard(ctx: AppContext, request: Request, path: string): SignedIn | undefined {
  const signedIn = readSession(ctx, cookies(request).get(SESSION_COOKIE) ?? undefined) ?? undefined
  if (!signedIn && !isOpenPage(path)) throw new AppError('UNAUTHORIZED', 'Sign in to use the dashboard')
  // Before any body is read or validated: another site's request gets the same 403 on every route.
  checkSameSite(request)
  return signedIn
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

const otherSite = () => new AppError('FORBIDDEN', 'This request came from another site and was refused')

/**
 * A state-changing request another site started is refused: an Origin of another host, one that
 * is no URL at all (a 403 like any other site's, not a parse error's 500: issue 23, N8), or
 * `Sec-Fetch-Site: cross-site`. `Origin: null` (privacy-sensitive contexts) is left to the token.
 */
function checkSameSite(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return
  const origin = request.headers.get('origin')
  if (origin && origin !== 'null' && URL.parse(origin)?.host !== new URL(request.url).host) throw otherSite()
  if (request.headers.get('sec-fetch-site') === 'cross-site') throw otherSite()
}

/**
 * Every state-changing dashboard request carries the CSRF token: the session's token for signed-in
 * people (form field `_csrf` or header `x-csrf-token`), the form cookie's value before sign-in. A
 * request another site started (Origin of another host, `Sec-Fetch-Site: cross-site`) is refused
 * outright.
 */
export function checkCsrf(request: Request, body: unknown, signedIn: SignedIn | undefined): void {
  if (SAFE_METHODS.has(request.method)) return
  checkSameSite(request)
  const sent =
    request.headers.get('x-csrf-token') ??
    (body && typeof body === 'object' && typeof (body as { _csrf?: unknown })._csrf === 'string'
      ? (body as { _csrf: string })._csrf
      : '')
  const expected = signedIn ? signedIn.csrf : (cookies(request).get(FORM_COOKIE) ?? '')
  if (!sent || !expected || !sameToken(sent, expected))
    throw new AppError(
      'FORBIDDEN',
      'The form had expired or was not sent from this dashboard; reload the page and try again',
      {
        reason: 'csrf',
      },
    )
}

export function requireAdmin(signedIn: SignedIn | undefined): SignedIn {
  if (!signedIn) throw new AppError('UNAUTHORIZED', 'Sign in to use the dashboard')
  if (signedIn.user.role !== 'admin')
    throw new AppError('FORBIDDEN', 'Only a workspace admin can do this; ask an admin of this workspace')
  return signedIn
}

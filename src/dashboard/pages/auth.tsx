import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { requestState } from '../../http/request-state.ts'
import { AppError } from '../../lib/errors.ts'
import {
  countUsers,
  createUser,
  MIN_PASSWORD_LENGTH,
  normaliseEmail,
  verifyCredentials,
} from '../../modules/users/service.ts'
import {
  endSession,
  SESSION_COOKIE,
  SESSION_MAX_MS,
  sameToken,
  startSession,
} from '../../modules/users/sessions.ts'
import { setWorkspaceName, workspaceName } from '../../modules/users/workspace.ts'
import { cookies, type DashboardState, FORM_COOKIE } from '../gate.ts'
import { htmlResponse, redirect, safeNext } from '../http.ts'
import { Layout } from '../ui/layout.tsx'
import { Notice } from '../ui/parts.tsx'
import { NewPasswordField } from '../ui/password-field.tsx'

type Form = Record<string, string | undefined>

/** Cookies are Secure when people reach the dashboard over TLS (directly or via --public-url). */
const isTls = (ctx: AppContext, request: Request) =>
  new URL(request.url).protocol === 'https:' || (ctx.config.publicUrl ?? '').startsWith('https:')

function cookie(ctx: AppContext, request: Request, name: string, value: string, maxAgeS: number): string {
  return new Bun.Cookie(name, value, {
    path: '/_/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isTls(ctx, request),
    maxAge: maxAgeS,
  }).serialize()
}

/** The double-submit token of the setup and sign-in forms: reuse the cookie's, or make one. */
function formToken(request: Request): { token: string; fresh: boolean } {
  const existing = cookies(request).get(FORM_COOKIE)
  if (existing && /^[A-Za-z0-9_-]{20,64}$/.test(existing)) return { token: existing, fresh: false }
  return { token: Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url'), fresh: true }
}

function formPage(
  ctx: AppContext,
  request: Request,
  node: (token: string) => preact.VNode,
  status = 200,
): Response {
  const { token, fresh } = formToken(request)
  return htmlResponse(node(token), {
    status,
    headers: fresh ? { 'set-cookie': cookie(ctx, request, FORM_COOKIE, token, 60 * 60 * 24) } : {},
  })
}

function SetupPage(props: {
  token: string
  setupToken?: string
  error?: string
  values?: Form
  missingLink?: boolean
}) {
  const v = props.values ?? {}
  return (
    <Layout title="Set up deskhook" section="none">
      <div class="narrow">
        <h1>Set up this deskhook</h1>
        {props.missingLink ? (
          <Notice kind="info">
            <p>
              Open the <strong>setup link</strong> the server printed when it started (it holds a one-time
              code), or create the first admin on the server with{' '}
              <code>deskhook users create --role admin --email you@example.com</code>.
            </p>
          </Notice>
        ) : (
          <form method="post" action="/_/setup" class="stack">
            <p class="sub">
              Name the workspace and create its first admin. You can invite people afterwards.
            </p>
            {props.error && <Notice kind="error">{props.error}</Notice>}
            <input type="hidden" name="_csrf" value={props.token} />
            <input type="hidden" name="setup" value={props.setupToken} />
            <label>
              Workspace name
              <input
                name="workspace"
                required
                maxLength={80}
                value={v.workspace ?? ''}
                placeholder="Accounts team"
              />
            </label>
            <label>
              Your email
              <input name="email" type="email" required autocomplete="username" value={v.email ?? ''} />
            </label>
            <NewPasswordField>
              Password <span class="muted">(at least {MIN_PASSWORD_LENGTH} characters)</span>
            </NewPasswordField>
            <button type="submit">Create the workspace</button>
          </form>
        )}
      </div>
    </Layout>
  )
}

function SignInPage(props: {
  token: string
  next: string
  error?: string
  email?: string
  workspace: string
}) {
  return (
    <Layout title="Sign in" section="none" workspace={props.workspace}>
      <div class="narrow">
        <h1>Sign in{props.workspace ? ` to ${props.workspace}` : ''}</h1>
        <form method="post" action="/_/sign-in" class="stack">
          {props.error && <Notice kind="error">{props.error}</Notice>}
          <input type="hidden" name="_csrf" value={props.token} />
          <input type="hidden" name="next" value={props.next} />
          <label>
            Email
            <input name="email" type="email" required autocomplete="username" value={props.email ?? ''} />
          </label>
          <label>
            Password
            <input name="password" type="password" required autocomplete="current-password" />
          </label>
          <button type="submit">Sign in</button>
        </form>
        <p class="muted small">
          Forgot your password? An admin can set a new one (Settings → People, or{' '}
          <code>deskhook users reset-password</code>).
        </p>
      </div>
    </Layout>
  )
}

const clientAddress = (
  request: Request,
  server: { requestIP(r: Request): { address: string } | null } | null,
) => server?.requestIP(request)?.address ?? 'unknown'

export const authPages = (ctx: AppContext, state: DashboardState) =>
  new Elysia({ name: 'dashboard.auth' })
    .get('/_/setup', ({ request, query }) => {
      if (countUsers(ctx) > 0) return redirect('/_/sign-in')
      const given = typeof query.token === 'string' ? query.token : ''
      const valid = !!state.setupToken && !!given && sameToken(given, state.setupToken)
      return formPage(ctx, request, (token) => (
        <SetupPage token={token} setupToken={given} missingLink={!valid} />
      ))
    })
    .post('/_/setup', async ({ request, body }) => {
      const form = (body ?? {}) as Form
      if (countUsers(ctx) > 0) return redirect('/_/sign-in')
      if (!state.setupToken || !form.setup || !sameToken(form.setup, state.setupToken))
        throw new AppError(
          'FORBIDDEN',
          'The setup link is not valid; open the link the server printed when it started',
        )
      // Claimed before the password hash is awaited, so concurrent posts of the link cannot each
      // create an admin (issue 23, N6); given back only if this attempt created nobody.
      const claimed = state.setupToken
      state.setupToken = null
      try {
        setWorkspaceName(ctx, form.workspace ?? '')
        const user = await createUser(
          ctx,
          { email: form.email ?? '', password: form.password ?? '', role: 'admin' },
          'self',
        )
        ctx.log.info({ userId: user.id }, 'workspace set up; first admin created')
        return signedInRedirect(ctx, request, user.id, '/_/')
      } catch (error) {
        if (countUsers(ctx) === 0) state.setupToken = claimed
        if (!(error instanceof AppError) || error.status !== 400) throw error
        return formPage(
          ctx,
          request,
          (token) => <SetupPage token={token} setupToken={form.setup} error={error.message} values={form} />,
          400,
        )
      }
    })
    .get('/_/sign-in', ({ request, query }) => {
      if (countUsers(ctx) === 0) return redirect('/_/setup')
      if (requestState(request).signedIn) return redirect(safeNext(query.next))
      return formPage(ctx, request, (token) => (
        <SignInPage token={token} next={safeNext(query.next)} workspace={workspaceName(ctx)} />
      ))
    })
    .post('/_/sign-in', async ({ request, body, server }) => {
      const form = (body ?? {}) as Form
      const next = safeNext(form.next)
      let email = (form.email ?? '').trim().toLowerCase()
      const page = (error: string, status: number, headers: Record<string, string> = {}) => {
        const res = formPage(
          ctx,
          request,
          (token) => (
            <SignInPage
              token={token}
              next={next}
              error={error}
              email={email}
              workspace={workspaceName(ctx)}
            />
          ),
          status,
        )
        for (const [k, v] of Object.entries(headers)) res.headers.set(k, v)
        return res
      }
      try {
        email = normaliseEmail(email)
      } catch {
        return page('Enter the email address you sign in with', 400)
      }
      const keys = [`email:${email}`, `ip:${clientAddress(request, server)}`]
      // Checked and counted before the hash is awaited: parallel attempts cannot all pass the check.
      const wait = state.throttle.begin(keys)
      if (wait > 0) {
        const minutes = Math.ceil(wait / 60_000)
        ctx.log.warn({ email }, 'sign-in refused: too many failed attempts')
        return page(
          `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          429,
          { 'retry-after': String(Math.ceil(wait / 1000)) },
        )
      }
      const user = await verifyCredentials(ctx, email, form.password ?? '')
      if (!user) {
        ctx.log.info({ email }, 'sign-in failed')
        return page('That email and password do not match an account here', 401)
      }
      state.throttle.succeed(keys)
      return signedInRedirect(ctx, request, user.id, next)
    })
    .post('/_/sign-out', ({ request }) => {
      const signedIn = requestState(request).signedIn
      if (signedIn) endSession(ctx, signedIn.sessionId)
      return redirect('/_/sign-in', { 'set-cookie': cookie(ctx, request, SESSION_COOKIE, '', 0) })
    })

function signedInRedirect(ctx: AppContext, request: Request, userId: string, next: string): Response {
  const token = startSession(ctx, userId, request.headers.get('user-agent'))
  return redirect(next, { 'set-cookie': cookie(ctx, request, SESSION_COOKIE, token, SESSION_MAX_MS / 1000) })
}

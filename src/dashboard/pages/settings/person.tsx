import { and, count, eq, gt } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { sessions } from '../../../db/schema/index.ts'
import { AppError } from '../../../lib/errors.ts'
import { userActor } from '../../../modules/audit/actor.ts'
import {
  getUser,
  MIN_PASSWORD_LENGTH,
  removeUser,
  resetPassword,
  setRole,
  toUserView,
  USER_ROLES,
  type UserView,
} from '../../../modules/users/service.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { htmlResponse, redirect } from '../../http.ts'
import { Csrf } from '../../ui/layout.tsx'
import { Badge, Time } from '../../ui/parts.tsx'
import { NewPasswordField } from '../../ui/password-field.tsx'
import { FormCard } from './settings-parts.tsx'
import { adminOf, formOf, SettingsPage } from './shell.tsx'

export const personHref = (id: string) => `/_/settings/people/${encodeURIComponent(id)}`

/** The role field (a label around its select, so the label names it). */
export function RoleField({ value }: { value: string }) {
  return (
    <label>
      Role
      <select name="role">
        {USER_ROLES.map((r) => (
          <option value={r} selected={r === value} key={r}>
            {r === 'admin'
              ? 'admin (manages keys, people, desktops, settings)'
              : 'member (sees and calls jobs)'}
          </option>
        ))}
      </select>
    </label>
  )
}

const DONE: Record<string, string> = {
  role: 'Role changed.',
  password: 'Password set. Every session of theirs has ended; they sign in with the new password.',
}

const activeSessions = (ctx: AppContext, userId: string) =>
  ctx.db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, ctx.clock.now().toISOString())))
    .get()?.n ?? 0

function PersonPage(props: {
  ctx: AppContext
  signedIn: SignedIn
  person: UserView
  sessions: number
  error?: string
  done?: string
}) {
  const { person, signedIn } = props
  const self = person.id === signedIn.user.id
  const base = personHref(person.id)
  return (
    <SettingsPage
      ctx={props.ctx}
      signedIn={signedIn}
      tab="people"
      title={person.email}
      sub={self ? 'This is you.' : undefined}
      error={props.error}
      done={props.done}
    >
      <section class="card">
        <dl class="facts">
          <div>
            <dt>Role</dt>
            <dd>
              <Badge value={person.role} />
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <Time at={person.createdAt} />
            </dd>
          </div>
          <div>
            <dt>Last sign-in</dt>
            <dd>
              {person.lastSignInAt ? <Time at={person.lastSignInAt} /> : <span class="muted">never</span>}
            </dd>
          </div>
          <div>
            <dt>Signed in now</dt>
            <dd>
              {props.sessions} session{props.sessions === 1 ? '' : 's'}
            </dd>
          </div>
        </dl>
      </section>
      <div class="grid2">
        <FormCard id="role-h" title="Role" action={`${base}/role`} signedIn={signedIn} submit="Change role">
          <RoleField value={person.role} />
        </FormCard>
        <FormCard
          id="password-h"
          title="Reset password"
          action={`${base}/password`}
          signedIn={signedIn}
          submit="Set the password"
        >
          <NewPasswordField>
            New password <span class="muted small">(at least {MIN_PASSWORD_LENGTH} characters)</span>
          </NewPasswordField>
          <p class="small muted">Every session of {self ? 'yours (this one too)' : 'theirs'} ends at once.</p>
        </FormCard>
      </div>
      <section class="card" aria-labelledby="remove-h">
        <h2 id="remove-h">Remove</h2>
        <form
          method="post"
          action={`${base}/remove`}
          data-confirm={`Remove ${person.email}? ${self ? 'You are' : 'They are'} signed out at once and cannot sign in again.`}
        >
          <Csrf signedIn={signedIn} />
          <p class="small muted">
            {self ? 'You are' : 'They are'} signed out at once. Jobs, keys and runs stay.
          </p>
          <button type="submit" class="danger">
            Remove {person.email}
          </button>
        </form>
      </section>
      <p>
        <a href="/_/settings/people">Back to the people</a>
      </p>
    </SettingsPage>
  )
}

function requirePerson(ctx: AppContext, id: string): UserView {
  const user = getUser(ctx, id)
  if (!user) throw new AppError('NOT_FOUND', 'No such person (removed already?)')
  return toUserView(user)
}

export const personPage = (ctx: AppContext) => {
  const render = (
    signedIn: SignedIn,
    person: UserView,
    extra: { error?: string; done?: string },
    status = 200,
  ) =>
    htmlResponse(
      <PersonPage
        ctx={ctx}
        signedIn={signedIn}
        person={person}
        sessions={activeSessions(ctx, person.id)}
        {...extra}
      />,
      { status },
    )
  /** Runs a change; a refusal (the last admin, a short password) shows on the person's page with a 400. */
  const change = async (
    request: Request,
    id: string,
    action: (signedIn: SignedIn, person: UserView) => Promise<Response> | Response,
  ) => {
    const signedIn = adminOf(request)
    const person = requirePerson(ctx, id)
    try {
      return await action(signedIn, person)
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error
      return render(signedIn, requirePerson(ctx, id), { error: error.message }, 400)
    }
  }
  return new Elysia({ name: 'dashboard.settings.person' })
    .get('/_/settings/people/:id', ({ request, params, query }) => {
      const signedIn = adminOf(request)
      const done = typeof query.done === 'string' ? DONE[query.done] : undefined
      return render(signedIn, requirePerson(ctx, params.id), { done })
    })
    .post('/_/settings/people/:id/role', ({ request, params, body }) =>
      change(request, params.id, (signedIn, person) => {
        const updated = setRole(ctx, person.id, formOf(body).role ?? '', userActor(signedIn.user))
        ctx.log.info({ userId: updated.id, role: updated.role, by: signedIn.user.id }, 'role changed')
        // An admin who made themselves a member can no longer see this page.
        if (updated.id === signedIn.user.id && updated.role !== 'admin') return redirect('/_/')
        return redirect(`${personHref(updated.id)}?done=role`)
      }),
    )
    .post('/_/settings/people/:id/password', ({ request, params, body }) =>
      change(request, params.id, async (signedIn, person) => {
        await resetPassword(ctx, person.id, formOf(body).password ?? '', userActor(signedIn.user))
        ctx.log.info({ userId: person.id, by: signedIn.user.id }, 'password reset; sessions ended')
        if (person.id === signedIn.user.id) return redirect('/_/sign-in')
        return redirect(`${personHref(person.id)}?done=password`)
      }),
    )
    .post('/_/settings/people/:id/remove', ({ request, params }) =>
      change(request, params.id, (signedIn, person) => {
        removeUser(ctx, person.id, userActor(signedIn.user))
        ctx.log.info({ userId: person.id, by: signedIn.user.id }, 'person removed')
        if (person.id === signedIn.user.id) return redirect('/_/sign-in')
        return redirect(`/_/settings/people?removed=${encodeURIComponent(person.email)}`)
      }),
    )
}

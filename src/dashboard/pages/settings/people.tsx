import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { AppError } from '../../../lib/errors.ts'
import { userActor } from '../../../modules/audit/actor.ts'
import {
  createUser,
  getUser,
  listUsers,
  MIN_PASSWORD_LENGTH,
  type UserView,
} from '../../../modules/users/service.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { htmlResponse, redirect } from '../../http.ts'
import { Badge, Time } from '../../ui/parts.tsx'
import { NewPasswordField } from '../../ui/password-field.tsx'
import { personHref, RoleField } from './person.tsx'
import { FormCard, SettingsTable } from './settings-parts.tsx'
import { adminOf, type Form, formOf, SettingsPage } from './shell.tsx'

function PeopleTable({ people, me }: { people: UserView[]; me: string }) {
  return (
    <SettingsTable columns={['Email', 'Role', 'Created', 'Last sign-in']}>
      {people.map((p) => (
        <tr key={p.id}>
          <td class="wrap">
            <a href={personHref(p.id)}>{p.email}</a>
            {p.id === me && <span class="muted small"> (you)</span>}
          </td>
          <td>
            <Badge value={p.role} />
          </td>
          <td>
            <Time at={p.createdAt} />
          </td>
          <td>{p.lastSignInAt ? <Time at={p.lastSignInAt} /> : <span class="muted">never</span>}</td>
        </tr>
      ))}
    </SettingsTable>
  )
}

function PeoplePage(props: {
  ctx: AppContext
  signedIn: SignedIn
  people: UserView[]
  form?: Form
  error?: string
  done?: string
}) {
  const v = props.form ?? {}
  return (
    <SettingsPage
      ctx={props.ctx}
      signedIn={props.signedIn}
      tab="people"
      title="People"
      sub="Who signs in to this dashboard. Admins manage keys, people, desktops and settings; members see and call jobs and answer build questions."
      done={props.done}
    >
      <PeopleTable people={props.people} me={props.signedIn.user.id} />
      <FormCard
        id="add-person"
        title="Add a person"
        action="/_/settings/people"
        signedIn={props.signedIn}
        error={props.error}
        submit="Add the person"
      >
        <label>
          Email
          <input name="email" type="email" required autocomplete="off" value={v.email ?? ''} />
        </label>
        <RoleField value={v.role ?? 'member'} />
        <NewPasswordField>
          Initial password{' '}
          <span class="muted small">
            (at least {MIN_PASSWORD_LENGTH} characters; tell it to them privately)
          </span>
        </NewPasswordField>
      </FormCard>
    </SettingsPage>
  )
}

export const settingsPeoplePages = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.settings.people' })
    .get('/_/settings/people', ({ request, query }) => {
      const signedIn = adminOf(request)
      const added = typeof query.added === 'string' ? getUser(ctx, query.added) : undefined
      const removed = typeof query.removed === 'string' ? query.removed.slice(0, 254) : undefined
      const done = added
        ? `Added ${added.email} as ${added.role}.`
        : removed
          ? `Removed ${removed}; their sessions ended.`
          : undefined
      return htmlResponse(<PeoplePage ctx={ctx} signedIn={signedIn} people={listUsers(ctx)} done={done} />)
    })
    .post('/_/settings/people', async ({ request, body }) => {
      const signedIn = adminOf(request)
      const form = formOf(body)
      try {
        const user = await createUser(
          ctx,
          {
            email: form.email ?? '',
            password: form.password ?? '',
            role: form.role ?? '',
          },
          userActor(signedIn.user),
        )
        ctx.log.info({ userId: user.id, role: user.role, by: signedIn.user.id }, 'person added')
        return redirect(`/_/settings/people?added=${encodeURIComponent(user.id)}`)
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error
        // The form again with what was typed (never the password).
        const kept = { email: form.email, role: form.role }
        return htmlResponse(
          <PeoplePage
            ctx={ctx}
            signedIn={signedIn}
            people={listUsers(ctx)}
            form={kept}
            error={error.message}
          />,
          { status: 400 },
        )
      }
    })

import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { AppError } from '../../../lib/errors.ts'
import { userActor } from '../../../modules/audit/actor.ts'
import { describeLimits, SCOPES } from '../../../modules/keys/model.ts'
import {
  type CreatedKey,
  createKey,
  type KeyInfo,
  listKeys,
  type NewKeyInput,
  revokeKey,
} from '../../../modules/keys/service.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { htmlResponse, redirect } from '../../http.ts'
import { Badge, Copyable, Empty, Notice, Time } from '../../ui/parts.tsx'
import { FormCard, RowAction, SettingsTable } from './settings-parts.tsx'
import { adminOf, type Form, formOf, SettingsPage } from './shell.tsx'

function KeysTable({ keys, signedIn }: { keys: KeyInfo[]; signedIn: SignedIn }) {
  if (keys.length === 0) return <Empty>No API keys yet. Create one below.</Empty>
  return (
    <SettingsTable columns={['Name', 'Key', 'May', 'Created', 'Expires', 'Last used', 'Status', 'Action']}>
      {[...keys].reverse().map((k) => (
        <tr key={k.id}>
          <td class="wrap">{k.name}</td>
          <td>
            <code>{k.prefix}…</code>
          </td>
          <td class="wrap">{describeLimits(k)}</td>
          <td>
            <Time at={k.createdAt} />
          </td>
          <td>{k.expiresAt ? <Time at={k.expiresAt} /> : <span class="muted">never</span>}</td>
          <td>{k.lastUsedAt ? <Time at={k.lastUsedAt} /> : <span class="muted">never</span>}</td>
          <td>
            {k.revokedAt ? (
              <>
                <Badge value="revoked" /> <Time at={k.revokedAt} />
              </>
            ) : (
              <Badge value={k.status} label={k.replacedBy && k.status === 'active' ? 'rotated' : undefined} />
            )}
          </td>
          <td>
            {!k.revokedAt && (
              <RowAction
                action={`/_/settings/keys/${encodeURIComponent(k.id)}/revoke`}
                confirm={`Revoke the key “${k.name}” (${k.prefix}…)? Calls that send it are refused at once.`}
                signedIn={signedIn}
                kind="danger"
                label={`Revoke key ${k.name} (${k.prefix}…)`}
              >
                Revoke
              </RowAction>
            )}
          </td>
        </tr>
      ))}
    </SettingsTable>
  )
}

function KeysPage(props: {
  ctx: AppContext
  signedIn: SignedIn
  keys: KeyInfo[]
  form?: Form
  error?: string
  done?: string
}) {
  const form = props.form ?? {}
  const scopeChecked = (s: string) => form.scopes_shown !== '1' || form[`scope_${s}`] === '1'
  return (
    <SettingsPage
      ctx={props.ctx}
      signedIn={props.signedIn}
      tab="keys"
      title="API keys"
      sub="Callers send a key in the x-api-key header. deskhook keeps only a hash: a key is shown in full once, when it is created."
      done={props.done}
    >
      <KeysTable keys={props.keys} signedIn={props.signedIn} />
      <FormCard
        id="new-key"
        title="Create a key"
        action="/_/settings/keys"
        signedIn={props.signedIn}
        error={props.error}
        submit="Create the key"
      >
        <label>
          Name <span class="muted small">(who or what uses it, e.g. “ERP integration”)</span>
          <input name="name" required maxLength={100} autocomplete="off" value={form.name ?? ''} />
        </label>
        <fieldset>
          <legend>
            May{' '}
            <span class="muted small">
              (call: run live jobs · teach: teach and answer · read: executions and builds)
            </span>
          </legend>
          <input type="hidden" name="scopes_shown" value="1" />
          {SCOPES.map((s) => (
            <label key={s}>
              <input type="checkbox" name={`scope_${s}`} value="1" checked={scopeChecked(s)} /> {s}
            </label>
          ))}
        </fieldset>
        <label>
          Jobs{' '}
          <span class="muted small">
            (comma-separated patterns, e.g. “/customers/*, POST /orders/:id”; empty: every job)
          </span>
          <input name="jobs" autocomplete="off" value={form.jobs ?? ''} />
        </label>
        <label>
          Rate <span class="muted small">(requests per second; empty: unlimited)</span>
          <input name="rate" inputMode="decimal" autocomplete="off" value={form.rate ?? ''} />
        </label>
        <label>
          Burst <span class="muted small">(requests at once above the rate; empty: one second’s worth)</span>
          <input name="burst" inputMode="numeric" autocomplete="off" value={form.burst ?? ''} />
        </label>
        <label>
          Expires after <span class="muted small">(e.g. 90d, 24h; empty: never)</span>
          <input name="expires" autocomplete="off" value={form.expires ?? ''} />
        </label>
      </FormCard>
    </SettingsPage>
  )
}

/** The one page that ever shows a key in full (the response is no-store like every page). */
function KeyCreatedPage({
  ctx,
  signedIn,
  created,
}: {
  ctx: AppContext
  signedIn: SignedIn
  created: CreatedKey
}) {
  return (
    <SettingsPage ctx={ctx} signedIn={signedIn} tab="keys" title="API key created">
      <section class="card stack" aria-label="The new key">
        <Notice kind="info">
          <p>
            <strong>Copy the key now: it will not be shown again.</strong> deskhook keeps only a hash of it.
            If it is lost, create another and revoke this one.
          </p>
        </Notice>
        <p>
          Key “{created.name}” (<code>{created.prefix}…</code>):
        </p>
        <Copyable text={created.key} label="the new API key" />
        <p class="small muted">
          Send it in the <code>x-api-key</code> header of every call.
        </p>
        <p>
          <a href="/_/settings/keys">Back to the API keys</a> · <a href="/_/">Jobs</a>
        </p>
      </section>
    </SettingsPage>
  )
}

/**
 * All three scopes ticked means "all" (null), so such a key also gets scopes added later. A form
 * without the scope boxes (a script posting only a name) makes an unlimited key, as before.
 */
function keyInputOf(form: Form): NewKeyInput {
  const scopes = SCOPES.filter((s) => form[`scope_${s}`] === '1')
  return {
    name: form.name ?? '',
    scopes: form.scopes_shown !== '1' || scopes.length === SCOPES.length ? null : scopes,
    jobs: form.jobs?.trim() || null,
    rate: form.rate?.trim() || null,
    burst: form.burst?.trim() || null,
    expires: form.expires?.trim() || null,
  }
}

export const settingsKeysPages = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.settings.keys' })
    .get('/_/settings/keys', ({ request, query }) => {
      const signedIn = adminOf(request)
      const keys = listKeys(ctx)
      const revoked = typeof query.revoked === 'string' ? keys.find((k) => k.id === query.revoked) : undefined
      const done = revoked?.revokedAt ? `Revoked the key “${revoked.name}” (${revoked.prefix}…).` : undefined
      return htmlResponse(<KeysPage ctx={ctx} signedIn={signedIn} keys={keys} done={done} />)
    })
    .post('/_/settings/keys', ({ request, body }) => {
      const signedIn = adminOf(request)
      const form = formOf(body)
      let created: CreatedKey
      try {
        created = createKey(ctx, keyInputOf(form), userActor(signedIn.user))
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error
        return htmlResponse(
          <KeysPage ctx={ctx} signedIn={signedIn} keys={listKeys(ctx)} form={form} error={error.message} />,
          { status: 400 },
        )
      }
      // The id and prefix only: the key itself is never logged.
      ctx.log.info({ keyId: created.id, prefix: created.prefix, userId: signedIn.user.id }, 'API key created')
      return htmlResponse(<KeyCreatedPage ctx={ctx} signedIn={signedIn} created={created} />)
    })
    .post('/_/settings/keys/:id/revoke', ({ request, params }) => {
      const signedIn = adminOf(request)
      if (!listKeys(ctx).some((k) => k.id === params.id)) throw new AppError('NOT_FOUND', 'No such API key')
      const key = revokeKey(ctx, params.id, userActor(signedIn.user))
      ctx.log.info({ keyId: key.id, prefix: key.prefix, userId: signedIn.user.id }, 'API key revoked')
      return redirect(`/_/settings/keys?revoked=${encodeURIComponent(key.id)}`)
    })

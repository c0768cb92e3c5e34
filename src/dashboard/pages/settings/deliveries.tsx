import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { requestState } from '../../../http/request-state.ts'
import { AppError } from '../../../lib/errors.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import { resendDelivery } from '../../../modules/webhooks/service.ts'
import { htmlResponse, redirect } from '../../http.ts'
import { Badge, Empty, Time } from '../../ui/parts.tsx'
import {
  type DeliveryPage,
  type DeliveryQuery,
  type DeliveryRow,
  deliveriesHref,
  listDeliveryPage,
  parseDeliveryQuery,
} from './deliveries-data.ts'
import { RowAction, SettingsTable } from './settings-parts.tsx'
import { adminOf, formOf, SettingsPage } from './shell.tsx'

/** Hidden fields that bring the person back to the same filter and page after an action. */
function KeepQuery({ q }: { q: DeliveryQuery }) {
  return (
    <>
      {q.failed && <input type="hidden" name="failed" value="1" />}
      {q.before !== undefined && <input type="hidden" name="before" value={String(q.before)} />}
      {q.after !== undefined && <input type="hidden" name="after" value={String(q.after)} />}
    </>
  )
}

function LastAnswer({ d }: { d: DeliveryRow }) {
  if (d.lastStatusCode === null && !d.lastError) return <span class="muted">—</span>
  return (
    <span class="wrap">
      {d.lastStatusCode !== null && <code>{d.lastStatusCode}</code>}
      {d.lastStatusCode !== null && d.lastError && ' · '}
      {d.lastError}
    </span>
  )
}

function DeliveriesTable(props: { page: DeliveryPage; q: DeliveryQuery; signedIn: SignedIn }) {
  return (
    <SettingsTable
      columns={['Queued', 'Event', 'Receiver', 'Run', 'Status', 'Attempts', 'Last answer', 'Action']}
    >
      {props.page.rows.map((d) => (
        <tr key={d.id}>
          <td>
            <Time at={d.createdAt} />
          </td>
          <td>
            <code>{d.eventType}</code>
          </td>
          <td class="wrap">{d.host}</td>
          <td>
            <a href={`/_/runs/${d.executionId}`}>#{d.executionId}</a>
          </td>
          <td>
            <Badge value={d.status} />
          </td>
          <td>{d.attempts}</td>
          <td>
            <LastAnswer d={d} />
          </td>
          <td>
            {(d.status === 'failed' || d.status === 'delivered') && (
              <RowAction
                action={`/_/settings/deliveries/${d.id}/resend`}
                signedIn={props.signedIn}
                kind="secondary"
                label={`Resend ${d.eventType} of run ${d.executionId} to ${d.host}`}
                fields={<KeepQuery q={props.q} />}
              >
                Resend
              </RowAction>
            )}
          </td>
        </tr>
      ))}
    </SettingsTable>
  )
}

function DeliveriesPage(props: {
  ctx: AppContext
  signedIn: SignedIn
  q: DeliveryQuery
  page?: DeliveryPage
  error?: string
  done?: string
}) {
  const { q, page } = props
  return (
    <SettingsPage
      ctx={props.ctx}
      signedIn={props.signedIn}
      tab="deliveries"
      title="Webhook deliveries"
      sub="Status events sent to callback URLs, newest first. A failed one can be sent again with the same webhook-id, so receivers can tell it is a repeat."
      error={props.error}
      done={props.done}
    >
      <form method="get" action="/_/settings/deliveries" class="filters" aria-label="Filter deliveries">
        <label class="inline">
          <input type="checkbox" name="failed" value="1" checked={q.failed} />
          Failed only
        </label>
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      {page && page.rows.length === 0 && (
        <Empty>
          {q.before !== undefined || q.after !== undefined ? (
            <>
              Nothing on this page. <a href={deliveriesHref({ failed: q.failed })}>Show the newest</a>
            </>
          ) : q.failed ? (
            'No failed deliveries.'
          ) : (
            'No status events yet. They are sent when a call passes callback_url.'
          )}
        </Empty>
      )}
      {page && page.rows.length > 0 && <DeliveriesTable page={page} q={q} signedIn={props.signedIn} />}
      {page && (page.newer !== undefined || page.older !== undefined) && (
        <nav class="pager" aria-label="Pages of deliveries">
          {page.newer !== undefined ? (
            <a href={deliveriesHref(q, { after: page.newer })} rel="prev">
              ← Newer
            </a>
          ) : (
            <span />
          )}
          {page.older !== undefined && (
            <a href={deliveriesHref(q, { before: page.older })} rel="next">
              Older →
            </a>
          )}
        </nav>
      )}
    </SettingsPage>
  )
}

const withNotice = (href: string, name: string, id: number) =>
  `${href}${href.includes('?') ? '&' : '?'}${name}=${id}`

export const settingsDeliveriesPages = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.settings.deliveries' })
    .get('/_/settings/deliveries', ({ request }) => {
      const signedIn = adminOf(request)
      const params = requestState(request).url.searchParams
      let q: DeliveryQuery
      try {
        q = parseDeliveryQuery(params)
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        return htmlResponse(
          <DeliveriesPage ctx={ctx} signedIn={signedIn} q={{ failed: false }} error={error.message} />,
          { status: 400 },
        )
      }
      const idParam = (name: string) => (/^\d{1,15}$/.test(params.get(name) ?? '') ? params.get(name) : null)
      const resent = idParam('resent')
      const inFlight = idParam('inflight')
      const done = resent
        ? `Delivery ${resent} is queued to be sent again; its status below follows the receiver's answer.`
        : inFlight
          ? `Delivery ${inFlight} was already being sent; it was left as it is.`
          : undefined
      return htmlResponse(
        <DeliveriesPage ctx={ctx} signedIn={signedIn} q={q} page={listDeliveryPage(ctx, q)} done={done} />,
      )
    })
    .post('/_/settings/deliveries/:id/resend', async ({ request, params, body }) => {
      const signedIn = adminOf(request)
      const form = formOf(body)
      const back = parseDeliveryQuery(
        new URLSearchParams({
          ...(form.failed ? { failed: form.failed } : {}),
          ...(form.before ? { before: form.before } : {}),
          ...(form.after ? { after: form.after } : {}),
        }),
      )
      const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0
      if (!id) throw new AppError('NOT_FOUND', 'No such webhook delivery')
      // Through the group commit, tagged: the server's commit hook wakes the deliverer at once.
      const delivery = await ctx.writes.run(() => {
        ctx.writes.tag('outbox')
        return resendDelivery(ctx, id)
      })
      const queued = delivery.attempts === 0 && delivery.status === 'pending'
      ctx.log.info({ deliveryId: id, by: signedIn.user.id, queued }, 'webhook delivery resend asked')
      return redirect(withNotice(deliveriesHref(back, back), queued ? 'resent' : 'inflight', id))
    })

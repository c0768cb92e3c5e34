import { count, eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { webhookDeliveries } from '../../../db/schema/index.ts'
import { listKeys } from '../../../modules/keys/service.ts'
import { getRetention, lastRetentionRun } from '../../../modules/retention/service.ts'
import { listUsers } from '../../../modules/users/service.ts'
import { getWebhookSecret } from '../../../modules/webhooks/signing.ts'
import { htmlResponse } from '../../http.ts'
import { Time } from '../../ui/parts.tsx'
import { settingsAuditPages } from './audit.tsx'
import { settingsDeliveriesPages } from './deliveries.tsx'
import { settingsKeysPages } from './keys.tsx'
import { settingsPeoplePages } from './people.tsx'
import { personPage } from './person.tsx'
import { settingsRetentionPages } from './retention.tsx'
import { adminOf, plural, SettingsPage } from './shell.tsx'
import { maskSecret, settingsWebhookSecretPages } from './webhook-secret.tsx'

function Overview({ ctx, signedIn }: { ctx: AppContext; signedIn: ReturnType<typeof adminOf> }) {
  const keys = listKeys(ctx)
  const active = keys.filter((k) => !k.revokedAt).length
  const people = listUsers(ctx)
  const admins = people.filter((p) => p.role === 'admin').length
  const failed =
    ctx.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'failed')).get()
      ?.n ?? 0
  const policy = getRetention(ctx)
  const last = lastRetentionRun(ctx)
  return (
    <SettingsPage
      ctx={ctx}
      signedIn={signedIn}
      tab="overview"
      title="Settings"
      sub="Keys, people and workspace settings. Only admins see this."
    >
      <div class="grid2">
        <section class="card" aria-labelledby="s-keys">
          <h2 id="s-keys">
            <a href="/_/settings/keys">API keys</a>
          </h2>
          <p>
            {plural(active, 'active key')}
            {keys.length > active ? `, ${keys.length - active} revoked` : ''}.
          </p>
        </section>
        <section class="card" aria-labelledby="s-people">
          <h2 id="s-people">
            <a href="/_/settings/people">People</a>
          </h2>
          <p>
            {plural(people.length, 'person', 'people')}, {plural(admins, 'admin')}.
          </p>
        </section>
        <section class="card" aria-labelledby="s-secret">
          <h2 id="s-secret">
            <a href="/_/settings/webhooks">Webhook signing secret</a>
          </h2>
          <p>
            <code class="secret-mask">{maskSecret(getWebhookSecret(ctx))}</code>
          </p>
        </section>
        <section class="card" aria-labelledby="s-deliveries">
          <h2 id="s-deliveries">
            <a href="/_/settings/deliveries">Webhook deliveries</a>
          </h2>
          <p>
            {failed === 0 ? (
              'No failed deliveries.'
            ) : (
              <a href="/_/settings/deliveries?failed=1">
                {plural(failed, 'failed delivery', 'failed deliveries')}
              </a>
            )}
          </p>
        </section>
        <section class="card" aria-labelledby="s-retention">
          <h2 id="s-retention">
            <a href="/_/settings/retention">Retention</a>
          </h2>
          <p>
            Screenshots {plural(policy.screenshotDays, 'day')}, finished runs {plural(policy.runDays, 'day')}.{' '}
            {last ? (
              <span class="muted">
                Last applied <Time at={last.startedAt} />.
              </span>
            ) : (
              <span class="muted">Not applied yet.</span>
            )}
          </p>
        </section>
      </div>
    </SettingsPage>
  )
}

/** Settings (admins only; every page and action checks it): keys, people, webhooks, retention. */
export const settingsPages = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.settings' })
    .get('/_/settings', ({ request }) => htmlResponse(<Overview ctx={ctx} signedIn={adminOf(request)} />))
    .use(settingsKeysPages(ctx))
    .use(settingsPeoplePages(ctx))
    .use(personPage(ctx))
    .use(settingsWebhookSecretPages(ctx))
    .use(settingsDeliveriesPages(ctx))
    .use(settingsRetentionPages(ctx))
    .use(settingsAuditPages(ctx))

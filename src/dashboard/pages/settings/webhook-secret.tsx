import { eq } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { settings } from '../../../db/schema/index.ts'
import { userActor } from '../../../modules/audit/actor.ts'
import { recordAudit } from '../../../modules/audit/record.ts'
import type { SignedIn } from '../../../modules/users/sessions.ts'
import {
  getWebhookSecret,
  ROTATION_OVERLAP_MS,
  rotateWebhookSecret,
  SECRET_PREFIX,
  signingSecrets,
} from '../../../modules/webhooks/signing.ts'
import { htmlResponse } from '../../http.ts'
import { Csrf } from '../../ui/layout.tsx'
import { Copyable, Notice, Time } from '../../ui/parts.tsx'
import { adminOf, SettingsPage } from './shell.tsx'

/** Enough of the secret to tell which one a receiver has, never enough to sign with. */
export const maskSecret = (secret: string) => `${SECRET_PREFIX}••••••••••••${secret.slice(-4)}`

/**
 * Until when the previous secret signs alongside the current one, or null when no rotation is in
 * its overlap. signing.ts keeps the previous secret under this settings key, stamped at rotation.
 */
function previousSignsUntil(ctx: AppContext): string | null {
  if (signingSecrets(ctx).length < 2) return null
  const row = ctx.db.select().from(settings).where(eq(settings.key, 'webhook_secret_previous')).get()
  return row ? new Date(Date.parse(row.updatedAt) + ROTATION_OVERLAP_MS).toISOString() : null
}

const Overlap = ({ until }: { until: string }) => (
  <Notice kind="info">
    <p>
      The previous secret keeps signing too (a second signature in <code>webhook-signature</code>) until{' '}
      <Time at={until} />. Update your receivers before then.
    </p>
  </Notice>
)

function SecretPage(props: {
  ctx: AppContext
  signedIn: SignedIn
  secret: string
  /** Shown in full: after Reveal or Rotate only. */
  revealed?: 'revealed' | 'rotated'
  overlapUntil: string | null
}) {
  const { signedIn, secret, revealed } = props
  return (
    <SettingsPage
      ctx={props.ctx}
      signedIn={signedIn}
      tab="webhooks"
      title={revealed === 'rotated' ? 'Webhook secret rotated' : 'Webhook signing secret'}
      sub="Every status event sent to a callback_url is signed with this secret, the Standard Webhooks way: receivers check the webhook-signature header with any Standard Webhooks library."
    >
      {props.overlapUntil && <Overlap until={props.overlapUntil} />}
      <section class="card stack" aria-label="The secret">
        {revealed ? (
          <>
            <Notice kind="info">
              <p>
                {revealed === 'rotated' ? 'The new secret. ' : ''}Copy it into your receivers' configuration;
                it is hidden again when you leave this page.
              </p>
            </Notice>
            <Copyable text={secret} label="the webhook signing secret" />
            <p>
              <a href="/_/settings/webhooks">Hide the secret</a>
            </p>
          </>
        ) : (
          <>
            <p>
              <code class="secret-mask">{maskSecret(secret)}</code>
            </p>
            <div class="actions">
              <form method="post" action="/_/settings/webhooks/reveal">
                <Csrf signedIn={signedIn} />
                <button type="submit" class="secondary">
                  Reveal
                </button>
              </form>
              <form
                method="post"
                action="/_/settings/webhooks/rotate"
                data-confirm={`Make a new webhook signing secret? The current one keeps signing alongside for ${ROTATION_OVERLAP_MS / 3_600_000} hours, then stops.`}
              >
                <Csrf signedIn={signedIn} />
                <button type="submit" class="danger">
                  Rotate
                </button>
              </form>
            </div>
            <p class="small muted">
              Rotate when the secret may have leaked: for {ROTATION_OVERLAP_MS / 3_600_000} hours events carry
              signatures made with both secrets, so receivers can switch without missing any.
            </p>
          </>
        )}
      </section>
    </SettingsPage>
  )
}

export const settingsWebhookSecretPages = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard.settings.webhook-secret' })
    .get('/_/settings/webhooks', ({ request }) => {
      const signedIn = adminOf(request)
      return htmlResponse(
        <SecretPage
          ctx={ctx}
          signedIn={signedIn}
          secret={getWebhookSecret(ctx)}
          overlapUntil={previousSignsUntil(ctx)}
        />,
      )
    })
    // A POST, so the secret never sits in a URL, the history or a prefetch; the page is no-store.
    .post('/_/settings/webhooks/reveal', ({ request }) => {
      const signedIn = adminOf(request)
      ctx.log.info({ by: signedIn.user.id }, 'webhook signing secret revealed')
      return htmlResponse(
        <SecretPage
          ctx={ctx}
          signedIn={signedIn}
          secret={getWebhookSecret(ctx)}
          revealed="revealed"
          overlapUntil={previousSignsUntil(ctx)}
        />,
      )
    })
    .post('/_/settings/webhooks/rotate', ({ request }) => {
      const signedIn = adminOf(request)
      const rotated = rotateWebhookSecret(ctx)
      recordAudit(ctx, {
        actor: userActor(signedIn.user),
        action: 'settings.changed',
        target: { kind: 'setting', id: 'webhook_secret' },
        details: { rotated: true, previousValidUntil: rotated.previousValidUntil },
      })
      ctx.log.info(
        { by: signedIn.user.id, previousValidUntil: rotated.previousValidUntil },
        'webhook signing secret rotated',
      )
      return htmlResponse(
        <SecretPage
          ctx={ctx}
          signedIn={signedIn}
          secret={rotated.secret}
          revealed="rotated"
          overlapUntil={previousSignsUntil(ctx)}
        />,
      )
    })

import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import type { AppContext } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { settings } from '../../db/schema/index.ts'

/**
 * The workspace secret that signs every status event, the Standard Webhooks way: receivers verify
 * `webhook-signature` (HMAC-SHA256 over `id.timestamp.body`) with any Standard Webhooks library.
 */
export const SECRET_PREFIX = 'whsec_'
const SECRET_KEY = 'webhook_secret'
const PREVIOUS_KEY = 'webhook_secret_previous'
/** 32 bytes: the spec asks for 24–64 and Svix uses 32. */
const SECRET_BYTES = 32
/**
 * After a rotation the old secret signs too (a second `v1,` signature, which the spec allows) for
 * this long, so receivers can switch secrets without dropping events in between.
 */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

function newSecret(): string {
  return SECRET_PREFIX + Buffer.from(crypto.getRandomValues(new Uint8Array(SECRET_BYTES))).toString('base64')
}

function readSetting(db: Db | Tx, key: string) {
  return db.select().from(settings).where(eq(settings.key, key)).get()
}

/** The current secret, created on first use. Safe when the server and the CLI race to create it. */
export function getWebhookSecret(ctx: AppContext): string {
  const existing = readSetting(ctx.db, SECRET_KEY)
  if (existing) return existing.value
  ctx.db
    .insert(settings)
    .values({ key: SECRET_KEY, value: newSecret(), updatedAt: ctx.clock.now().toISOString() })
    .onConflictDoNothing()
    .run()
  return readSetting(ctx.db, SECRET_KEY)!.value
}

export interface RotatedSecret {
  secret: string
  /** Until when deliveries also carry a signature made with the previous secret. */
  previousValidUntil: string
}

/** Replaces the secret; the old one keeps signing alongside for ROTATION_OVERLAP_MS. */
export function rotateWebhookSecret(ctx: AppContext): RotatedSecret {
  const now = ctx.clock.now()
  const updatedAt = now.toISOString()
  const secret = newSecret()
  ctx.db.transaction(
    (tx) => {
      const current = readSetting(tx, SECRET_KEY)
      if (current) {
        tx.insert(settings)
          .values({ key: PREVIOUS_KEY, value: current.value, updatedAt })
          .onConflictDoUpdate({ target: settings.key, set: { value: current.value, updatedAt } })
          .run()
      }
      tx.insert(settings)
        .values({ key: SECRET_KEY, value: secret, updatedAt })
        .onConflictDoUpdate({ target: settings.key, set: { value: secret, updatedAt } })
        .run()
    },
    { behavior: 'immediate' },
  )
  return { secret, previousValidUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() }
}

/** The secrets that sign a delivery made now: the current one, plus the previous one in its overlap. */
export function signingSecrets(ctx: AppContext): string[] {
  const current = getWebhookSecret(ctx)
  const previous = readSetting(ctx.db, PREVIOUS_KEY)
  const inOverlap =
    previous && ctx.clock.now().getTime() - Date.parse(previous.updatedAt) < ROTATION_OVERLAP_MS
  return inOverlap && previous.value !== current ? [current, previous.value] : [current]
}

/** The three Standard Webhooks headers for one attempt; `eventId` stays the same on every retry. */
export function signatureHeaders(
  secrets: readonly string[],
  eventId: string,
  at: Date,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' '),
  }
}

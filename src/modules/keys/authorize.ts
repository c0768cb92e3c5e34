import { eq, isNull, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { dataVersion } from '../../db/client.ts'
import { preparedFor } from '../../db/prepared.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { hashApiKey, isWellFormedApiKey, sameHash } from '../../lib/api-key-format.ts'
import { AppError } from '../../lib/errors.ts'
import { type KeyAccess, type KeyGrant, parseJobPattern, type Scope } from './model.ts'
import { takeToken } from './rate-limit.ts'
import { requireAccess } from './scopes.ts'

const WWW_AUTHENTICATE = 'ApiKey realm="deskhook", header="x-api-key"'

const findActiveByHash = preparedFor((db) =>
  db
    .select()
    .from(apiKeys)
    .where(sql`${apiKeys.hash} = ${sql.placeholder('hash')} AND ${isNull(apiKeys.revokedAt)}`)
    .prepare(),
)

const touchKey = preparedFor((db) =>
  db
    .update(apiKeys)
    .set({ lastUsedAt: sql`${sql.placeholder('at')}` })
    .where(eq(apiKeys.id, sql.placeholder('id')))
    .prepare(),
)

/** last_used_at is informational: write it at most once a minute per key, not per request. */
const TOUCH_EVERY_MS = 60_000

/**
 * Keys this process has verified, by hash: a live key costs one SHA-256, a map lookup and a
 * `PRAGMA data_version` (a counter read, no table read). Dropped when that counter says another
 * process committed (the CLI revoking or rotating a key), checked on every request rather than by
 * the database watcher's interval, and on any key change here: a revoked key fails on its very
 * next request.
 */
interface VerifiedKey {
  grant: KeyGrant
  hash: Buffer
  /** Epoch ms; Infinity when the key never expires. */
  expiresAt: number
  rate: { perSecond: number; burst: number } | null
  lastUsedAt: number
}
interface KeyCache {
  keys: Map<string, VerifiedKey>
  /** `PRAGMA data_version` when `keys` was last known current. */
  version: number
}
const verified = new WeakMap<AppContext, KeyCache>()

function cacheFor(ctx: AppContext): Map<string, VerifiedKey> {
  let cache = verified.get(ctx)
  if (!cache) {
    const fresh: KeyCache = { keys: new Map(), version: dataVersion(ctx.db) }
    cache = fresh
    verified.set(ctx, fresh)
    ctx.events.on('keys.changed', () => fresh.keys.clear())
  }
  // Another process (the CLI) committed since: any cached key may be revoked, rotated or changed.
  const version = dataVersion(ctx.db)
  if (version !== cache.version) {
    cache.version = version
    cache.keys.clear()
  }
  return cache.keys
}

function load(ctx: AppContext, presented: string, hash: Buffer): VerifiedKey | null {
  // The checksum turns junk away before the database is asked.
  if (!isWellFormedApiKey(presented)) return null
  const row = findActiveByHash(ctx.db).get({ hash })
  if (!row) return null
  return {
    grant: {
      id: row.id,
      name: row.name,
      scopes: (row.scopes as Scope[] | null) ?? null,
      jobs: row.jobs?.map(parseJobPattern) ?? null,
    },
    hash: row.hash,
    expiresAt: row.expiresAt ? Date.parse(row.expiresAt) : Number.POSITIVE_INFINITY,
    rate: row.ratePerSecond && row.burst ? { perSecond: row.ratePerSecond, burst: row.burst } : null,
    lastUsedAt: row.lastUsedAt ? Date.parse(row.lastUsedAt) : 0,
  }
}

const unauthorized = (sent: boolean) =>
  new AppError(
    'UNAUTHORIZED',
    sent ? 'The API key is not valid' : 'An API key is required: send it in the x-api-key header',
    undefined,
    { 'www-authenticate': WWW_AUTHENTICATE },
  )

/**
 * The key gate, in one call: who the key is (else `401 UNAUTHORIZED` with `WWW-Authenticate`,
 * alike for missing, malformed, unknown, revoked and expired keys), whether it is within its rate
 * (else `429 RATE_LIMITED` with `Retry-After`), and whether it may do what `access` needs (else
 * `403 FORBIDDEN_SCOPE`). Costs one SHA-256 and a cache or indexed lookup; the final comparison is
 * constant-time. A key expires at `expiresAt` exactly: from that instant on it is refused.
 */
export function authorizeKey(
  ctx: AppContext,
  presented: string | null | undefined,
  access: KeyAccess,
): KeyGrant {
  if (!presented) throw unauthorized(presented != null)
  const hash = hashApiKey(presented)
  const cache = cacheFor(ctx)
  const hex = hash.toString('hex')
  let key = cache.get(hex)
  if (!key) {
    const loaded = load(ctx, presented, hash)
    if (!loaded) throw unauthorized(true)
    key = loaded
    cache.set(hex, key)
  }
  if (!sameHash(key.hash, hash)) throw unauthorized(true)
  const now = ctx.clock.now().getTime()
  if (now >= key.expiresAt) throw unauthorized(true)
  if (key.rate) {
    const wait = takeToken(ctx, key.grant.id, key.rate.perSecond, key.rate.burst)
    if (wait > 0)
      throw new AppError(
        'RATE_LIMITED',
        `The API key "${key.grant.name}" is limited to ${key.rate.perSecond} requests per second (burst ${key.rate.burst}); retry in ${wait} s`,
        { retryAfter: wait },
        { 'retry-after': String(wait) },
      )
  }
  requireAccess(key.grant, access)
  if (now - key.lastUsedAt > TOUCH_EVERY_MS) {
    key.lastUsedAt = now
    // Once a minute per key at most: one small write, never one per request (PERF-NOTES).
    touchKey(ctx.db).run({ id: key.grant.id, at: new Date(now).toISOString() })
  }
  return key.grant
}

import { count, eq, isNull, or, sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { preparedFor } from '../../db/prepared.ts'
import { apiKeys } from '../../db/schema/index.ts'
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  sameHash,
} from '../../lib/api-key-format.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'

export interface KeyInfo {
  id: string
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

export interface CreatedKey extends KeyInfo {
  /** The full key: shown once, never stored. */
  key: string
}

const toInfo = (row: typeof apiKeys.$inferSelect): KeyInfo => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
})

export function createKey(ctx: AppContext, name: string): CreatedKey {
  const trimmed = name.trim()
  if (!trimmed || trimmed.length > 100)
    throw new AppError('INVALID_REQUEST', 'A key name must be 1–100 characters')
  const key = generateApiKey()
  const row = {
    id: newId(),
    name: trimmed,
    prefix: displayPrefix(key),
    hash: hashApiKey(key),
    createdAt: ctx.clock.now().toISOString(),
  }
  ctx.db.insert(apiKeys).values(row).run()
  return { ...toInfo({ ...row, lastUsedAt: null, revokedAt: null }), key }
}

export function listKeys(ctx: AppContext): KeyInfo[] {
  return ctx.db.select().from(apiKeys).orderBy(apiKeys.createdAt).all().map(toInfo)
}

/** Revokes by id, or by the prefix that `keys list` shows. */
export function revokeKey(ctx: AppContext, idOrPrefix: string): KeyInfo {
  const matches = ctx.db
    .select()
    .from(apiKeys)
    .where(or(eq(apiKeys.id, idOrPrefix), eq(apiKeys.prefix, idOrPrefix)))
    .all()
  if (matches.length === 0) throw new AppError('NOT_FOUND', `No API key with id or prefix ${idOrPrefix}`)
  if (matches.length > 1)
    throw new AppError('INVALID_REQUEST', `Several keys share the prefix ${idOrPrefix}; use the id`)
  const row = matches[0]!
  if (row.revokedAt) return toInfo(row)
  const revokedAt = ctx.clock.now().toISOString()
  ctx.db.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, row.id)).run()
  ctx.events.emit('keys.changed')
  return toInfo({ ...row, revokedAt })
}

/** Creates the first key of a new installation; returns it only if it made one. */
export function ensureInitialKey(ctx: AppContext): CreatedKey | null {
  const total = ctx.db.select({ n: count() }).from(apiKeys).get()?.n ?? 0
  return total === 0 ? createKey(ctx, 'default') : null
}

const findActiveByHash = preparedFor((db) =>
  db
    .select({ id: apiKeys.id, name: apiKeys.name, hash: apiKeys.hash, lastUsedAt: apiKeys.lastUsedAt })
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
 * Keys this process has verified, by hash: a live key costs one SHA-256 and a map lookup, no
 * database read. Dropped whenever another process commits (the CLI revoking a key) and on any
 * revocation here, so a revoked key fails on its next request.
 */
interface VerifiedKey {
  id: string
  name: string
  hash: Buffer
  lastUsedAt: number
}
const verified = new WeakMap<AppContext, Map<string, VerifiedKey>>()

function cacheFor(ctx: AppContext): Map<string, VerifiedKey> {
  let cache = verified.get(ctx)
  if (!cache) {
    const fresh = new Map<string, VerifiedKey>()
    cache = fresh
    verified.set(ctx, fresh)
    ctx.events.on('db.external-change', () => fresh.clear())
    ctx.events.on('keys.changed', () => fresh.clear())
  }
  return cache
}

/**
 * Returns the key's identity, or null for anything that is not a live key (malformed, wrong
 * checksum, unknown, revoked): callers answer all of these the same way. Costs one SHA-256 and a
 * cache or indexed lookup; the final comparison is constant-time.
 */
export function verifyKey(
  ctx: AppContext,
  presented: string | null | undefined,
): { id: string; name: string } | null {
  if (!presented) return null
  const hash = hashApiKey(presented)
  const cache = cacheFor(ctx)
  const hex = hash.toString('hex')
  let key = cache.get(hex)
  if (!key) {
    // The checksum turns junk away before the database is asked.
    if (!isWellFormedApiKey(presented)) return null
    const row = findActiveByHash(ctx.db).get({ hash })
    if (!row) return null
    key = {
      id: row.id,
      name: row.name,
      hash: row.hash,
      lastUsedAt: row.lastUsedAt ? Date.parse(row.lastUsedAt) : 0,
    }
    cache.set(hex, key)
  }
  if (!sameHash(key.hash, hash)) return null
  const now = ctx.clock.now()
  if (now.getTime() - key.lastUsedAt > TOUCH_EVERY_MS) {
    key.lastUsedAt = now.getTime()
    touchKey(ctx.db).run({ id: key.id, at: now.toISOString() })
  }
  return { id: key.id, name: key.name }
}

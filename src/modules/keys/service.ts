import { count, eq, or } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { apiKeys } from '../../db/schema/index.ts'
import { displayPrefix, generateApiKey, hashApiKey } from '../../lib/api-key-format.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { type Actor, SYSTEM_ACTOR } from '../audit/actor.ts'
import { recordAudit } from '../audit/record.ts'
import { type KeyLimits, parseDuration, parseJobPatterns, parseRate, parseScopes } from './model.ts'

export interface KeyInfo extends KeyLimits {
  id: string
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
  replacedBy: string | null
  /** `expired` from `expiresAt` on (a rotated key expires when its overlap ends). */
  status: 'active' | 'expired' | 'revoked'
}

export interface CreatedKey extends KeyInfo {
  /** The full key: shown once, never stored. */
  key: string
}

/** A new key's name and limits, as the CLI and the dashboard take them (strings are parsed here). */
export interface NewKeyInput {
  name: string
  scopes?: string | readonly string[] | null
  jobs?: string | readonly string[] | null
  rate?: number | string | null
  burst?: number | string | null
  /** A lifetime such as `30d`. */
  expires?: string | null
}

type Row = typeof apiKeys.$inferSelect
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

const toInfo = (row: Row, now: Date): KeyInfo => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
  replacedBy: row.replacedBy,
  scopes: (row.scopes as KeyLimits['scopes']) ?? null,
  jobs: row.jobs ?? null,
  ratePerSecond: row.ratePerSecond,
  burst: row.burst,
  expiresAt: row.expiresAt,
  status: row.revokedAt
    ? 'revoked'
    : row.expiresAt && Date.parse(row.expiresAt) <= now.getTime()
      ? 'expired'
      : 'active',
})

function limitsFrom(input: NewKeyInput, now: Date): KeyLimits {
  const { ratePerSecond, burst } = parseRate(input.rate, input.burst)
  const expires = input.expires ? parseDuration(input.expires, 'Expiry') : null
  if (expires !== null && expires <= 0)
    throw new AppError('INVALID_REQUEST', 'An expiry must lie in the future')
  return {
    scopes: input.scopes != null && input.scopes !== '' ? parseScopes(input.scopes) : null,
    jobs: input.jobs != null && input.jobs !== '' ? parseJobPatterns(input.jobs) : null,
    ratePerSecond,
    burst,
    expiresAt: expires === null ? null : new Date(now.getTime() + expires).toISOString(),
  }
}

function newRow(name: string, limits: KeyLimits, now: Date) {
  const trimmed = name.trim()
  if (!trimmed || trimmed.length > 100)
    throw new AppError('INVALID_REQUEST', 'A key name must be 1–100 characters')
  const key = generateApiKey()
  const row: Row = {
    id: newId(),
    name: trimmed,
    prefix: displayPrefix(key),
    hash: hashApiKey(key),
    createdAt: now.toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    replacedBy: null,
    ...limits,
  }
  return { key, row }
}

/**
 * `actor` is who did it, for the audit log. Each change and its audit row commit in one IMMEDIATE
 * transaction: a crash leaves both or neither, and two processes (the server, the CLI) never link
 * to the same previous audit row.
 */
export function createKey(
  ctx: AppContext,
  input: string | NewKeyInput,
  actor: Actor = SYSTEM_ACTOR,
): CreatedKey {
  const now = ctx.clock.now()
  const spec = typeof input === 'string' ? { name: input } : input
  const { key, row } = newRow(spec.name, limitsFrom(spec, now), now)
  ctx.db.transaction(
    (tx) => {
      tx.insert(apiKeys).values(row).run()
      const details = { name: row.name, prefix: row.prefix }
      recordAudit(ctx, { actor, action: 'key.created', target: { kind: 'key', id: row.id }, details }, tx)
    },
    { behavior: 'immediate' },
  )
  ctx.events.emit('keys.changed')
  return { ...toInfo(row, now), key }
}

export function listKeys(ctx: AppContext): KeyInfo[] {
  const now = ctx.clock.now()
  return ctx.db
    .select()
    .from(apiKeys)
    .orderBy(apiKeys.createdAt)
    .all()
    .map((r) => toInfo(r, now))
}

/** Revokes by id, or by the prefix that `keys list` shows. */
export function revokeKey(ctx: AppContext, idOrPrefix: string, actor: Actor = SYSTEM_ACTOR): KeyInfo {
  const now = ctx.clock.now()
  const { row, revokedAt } = ctx.db.transaction(
    (tx) => {
      const matches = tx
        .select()
        .from(apiKeys)
        .where(or(eq(apiKeys.id, idOrPrefix), eq(apiKeys.prefix, idOrPrefix)))
        .all()
      if (matches.length === 0) throw new AppError('NOT_FOUND', `No API key with id or prefix ${idOrPrefix}`)
      if (matches.length > 1)
        throw new AppError('INVALID_REQUEST', `Several keys share the prefix ${idOrPrefix}; use the id`)
      const row = matches[0]!
      if (row.revokedAt) return { row, revokedAt: null }
      const revokedAt = now.toISOString()
      tx.update(apiKeys).set({ revokedAt }).where(eq(apiKeys.id, row.id)).run()
      const details = { name: row.name, prefix: row.prefix }
      recordAudit(ctx, { actor, action: 'key.revoked', target: { kind: 'key', id: row.id }, details }, tx)
      return { row, revokedAt }
    },
    { behavior: 'immediate' },
  )
  if (!revokedAt) return toInfo(row, now)
  ctx.events.emit('keys.changed')
  return toInfo({ ...row, revokedAt }, now)
}

export interface Rotated {
  key: CreatedKey
  old: KeyInfo
}

/**
 * Makes a successor with the same name and limits, and lets the old key work until the overlap
 * ends (or its own expiry, if sooner): callers switch over without a moment of refused calls.
 * The successor keeps the old key's lifetime unless `expires` gives another.
 */
export function rotateKey(
  ctx: AppContext,
  ref: string,
  opts: { overlap: string; expires?: string | null },
  actor: Actor = SYSTEM_ACTOR,
): Rotated {
  const now = ctx.clock.now()
  const overlapMs = parseDuration(opts.overlap, 'Overlap')
  const { old, key, row, oldExpiresAt } = ctx.db.transaction(
    (tx) => {
      const old = findRotatable(tx, ref, now)
      const lifetime = old.expiresAt ? Date.parse(old.expiresAt) - Date.parse(old.createdAt) : null
      const limits: KeyLimits = {
        scopes: (old.scopes as KeyLimits['scopes']) ?? null,
        jobs: old.jobs ?? null,
        ratePerSecond: old.ratePerSecond,
        burst: old.burst,
        expiresAt: opts.expires
          ? limitsFrom({ name: old.name, expires: opts.expires }, now).expiresAt
          : lifetime
            ? new Date(now.getTime() + lifetime).toISOString()
            : null,
      }
      const { key, row } = newRow(old.name, limits, now)
      const overlapEnd = now.getTime() + overlapMs
      const oldExpiresAt = new Date(
        old.expiresAt ? Math.min(Date.parse(old.expiresAt), overlapEnd) : overlapEnd,
      ).toISOString()
      tx.insert(apiKeys).values(row).run()
      tx.update(apiKeys)
        .set({ expiresAt: oldExpiresAt, replacedBy: row.id })
        .where(eq(apiKeys.id, old.id))
        .run()
      const details = {
        name: row.name,
        prefix: row.prefix,
        oldKeyId: old.id,
        oldPrefix: old.prefix,
        oldExpiresAt,
      }
      recordAudit(ctx, { actor, action: 'key.rotated', target: { kind: 'key', id: row.id }, details }, tx)
      return { old, key, row, oldExpiresAt }
    },
    { behavior: 'immediate' },
  )
  ctx.events.emit('keys.changed')
  return {
    key: { ...toInfo(row, now), key },
    old: toInfo({ ...old, expiresAt: oldExpiresAt, replacedBy: row.id }, now),
  }
}

/** By id, prefix or name, among keys that still work and have not been replaced already. */
function findRotatable(tx: Tx, ref: string, now: Date): Row {
  const matches = tx
    .select()
    .from(apiKeys)
    .where(or(eq(apiKeys.id, ref), eq(apiKeys.prefix, ref), eq(apiKeys.name, ref)))
    .all()
    .filter((r) => !r.revokedAt && !r.replacedBy && toInfo(r, now).status === 'active')
  if (matches.length === 0)
    throw new AppError(
      'NOT_FOUND',
      `No active API key with id, prefix or name ${ref} (revoked, expired and already rotated keys cannot be rotated)`,
    )
  if (matches.length > 1)
    throw new AppError('INVALID_REQUEST', `Several active keys match ${ref}; use the id (deskhook keys list)`)
  return matches[0]!
}

/** Creates the first key of a new installation; returns it only if it made one. */
export function ensureInitialKey(ctx: AppContext): CreatedKey | null {
  const total = ctx.db.select({ n: count() }).from(apiKeys).get()?.n ?? 0
  return total === 0 ? createKey(ctx, 'default') : null
}

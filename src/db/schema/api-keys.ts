import { blob, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * API keys are stored only as SHA-256 hashes; `prefix` is the harmless part lists show.
 * Limits are null when unset: a key without them may do everything, as keys always could.
 */
export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  hash: blob('hash', { mode: 'buffer' }).notNull().unique(),
  createdAt: text('created_at').notNull(),
  lastUsedAt: text('last_used_at'),
  revokedAt: text('revoked_at'),
  /** JSON array of `call` | `teach` | `read`; null = all. */
  scopes: text('scopes', { mode: 'json' }).$type<string[]>(),
  /** JSON array of job patterns (`/customers/*`, `POST /orders/:id`); null = every job. */
  jobs: text('jobs', { mode: 'json' }).$type<string[]>(),
  /** Token bucket: requests per second and burst; null = not limited. */
  ratePerSecond: real('rate_per_second'),
  burst: integer('burst'),
  /** From this instant on the key is refused (set by `--expires` and by rotation's overlap). */
  expiresAt: text('expires_at'),
  /** The key that replaced this one in a rotation. */
  replacedBy: text('replaced_by'),
})

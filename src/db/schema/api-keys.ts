import { blob, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** API keys are stored only as SHA-256 hashes; `prefix` is the harmless part lists show. */
export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  hash: blob('hash', { mode: 'buffer' }).notNull().unique(),
  createdAt: text('created_at').notNull(),
  lastUsedAt: text('last_used_at'),
  revokedAt: text('revoked_at'),
})

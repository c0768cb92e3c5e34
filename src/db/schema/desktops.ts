import { blob, index, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export type DesktopStatus = 'online' | 'busy' | 'offline'

/** A machine running the agent. Its credential is stored only as a SHA-256 hash. */
export const desktops = sqliteTable('desktops', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  platform: text('platform').notNull(),
  driver: text('driver').notNull(),
  status: text('status').$type<DesktopStatus>().notNull().default('offline'),
  agentVersion: text('agent_version'),
  credentialHash: blob('credential_hash', { mode: 'buffer' }).notNull().unique(),
  lastSeenAt: text('last_seen_at'),
  createdAt: text('created_at').notNull(),
  revokedAt: text('revoked_at'),
})

/** One-time tokens that let a new agent enroll; hash only, single use, short-lived. */
export const enrollmentTokens = sqliteTable(
  'enrollment_tokens',
  {
    id: text('id').primaryKey(),
    hash: blob('hash', { mode: 'buffer' }).notNull().unique(),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    desktopId: text('desktop_id'),
  },
  (t) => [index('enrollment_tokens_expires_at').on(t.expiresAt)],
)

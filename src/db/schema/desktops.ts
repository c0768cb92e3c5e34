import { blob, index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { DesktopState } from '../../protocol/driver.ts'

export type DesktopStatus = 'online' | 'busy' | 'offline'

/** A machine running the agent. Its credential is stored only as a SHA-256 hash. */
export const desktops = sqliteTable('desktops', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  platform: text('platform').notNull(),
  driver: text('driver').notNull(),
  status: text('status').$type<DesktopStatus>().notNull().default('offline'),
  agentVersion: text('agent_version'),
  /**
   * Whether the agent can reach its desktop (src/protocol/driver.ts DesktopState), as its last
   * hello or heartbeat said: a locked or disconnected Windows session shows here. Null: the agent
   * does not tell (older agents, browser-only desktops report `active`).
   */
  sessionState: text('session_state').$type<DesktopState>(),
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

import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export type UserRole = 'admin' | 'member'

/** People who sign in to the dashboard. Passwords are argon2id hashes (`Bun.password`). */
export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  /** Lower-cased; the sign-in name. */
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  role: text('role').$type<UserRole>().notNull().default('member'),
  passwordHash: text('password_hash').notNull(),
  createdAt: text('created_at').notNull(),
  updatedAt: text('updated_at').notNull(),
  lastSignInAt: text('last_sign_in_at'),
})

/**
 * Dashboard sessions. The cookie holds a random token; only its SHA-256 is stored, so a copy of the
 * database opens no session. Removing a user or resetting a password removes their sessions.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
    lastSeenAt: text('last_seen_at').notNull(),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id').on(t.userId), index('sessions_expires_at').on(t.expiresAt)],
)

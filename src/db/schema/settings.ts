import { sqliteTable, text } from 'drizzle-orm/sqlite-core'

/** Workspace-wide values (e.g. the webhook signing secret), one row per key. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: text('updated_at').notNull(),
})

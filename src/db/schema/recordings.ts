import { sql } from 'drizzle-orm'
import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { Snapshot, WindowInfo } from '../../protocol/elements.ts'
import type { RecordedAction } from '../../protocol/recording.ts'
import { builds } from './builds.ts'

export type RecordingState = 'recording' | 'done' | 'cancelled' | 'failed'

/**
 * A recorded action as stored: no screenshot bytes (those are files in the data dir), but the
 * `seq` of the action whose screenshot shows the screen once this one had settled (the agent
 * takes one per burst of actions, on the last of the burst).
 */
export type StoredAction = Omit<RecordedAction, 'screenshot'> & { shot?: number }

/**
 * "Show me": a person's demonstration on a build's desktop while the build asks `demonstrate`.
 * Secret values never reach this table (the agent reports `secret: true` without the value).
 * Screenshots live in `<data>/recordings/<id>/<seq>.jpg` and go with the row's build.
 */
export const recordings = sqliteTable(
  'recordings',
  {
    id: text('id').primaryKey(),
    buildId: text('build_id')
      .notNull()
      .references(() => builds.id, { onDelete: 'cascade' }),
    desktopId: text('desktop_id').notNull(),
    windowId: text('window_id').notNull(),
    status: text('status').$type<RecordingState>().notNull().default('recording'),
    /** Who holds the desktop while it records: a person's email or an API key's prefix. */
    startedBy: text('started_by').notNull(),
    startedAt: text('started_at').notNull(),
    endedAt: text('ended_at'),
    window: text('window', { mode: 'json' }).$type<WindowInfo>(),
    actions: text('actions', { mode: 'json' }).$type<StoredAction[]>().notNull().default([]),
    snapshots: text('snapshots', { mode: 'json' }).$type<Snapshot[]>().notNull().default([]),
    error: text('error'),
  },
  (t) => [
    index('recordings_build_id').on(t.buildId),
    // One demonstration at a time per desktop, enforced by the store itself.
    uniqueIndex('recordings_active_desktop').on(t.desktopId).where(sql`${t.status} = 'recording'`),
  ],
)

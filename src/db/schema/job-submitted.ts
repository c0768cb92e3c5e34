import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { jobs } from './jobs.ts'

/**
 * Sample values whose submit a build already pressed, kept when the sample itself is removed:
 * the app may hold that record, so the same sample sent again is flagged to the builder
 * (`submittedBefore`) and its "already exists" is not taken for a scenario.
 */
export const jobSubmittedValues = sqliteTable(
  'job_submitted_values',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** The caller's values in canonical form (see callerValues). */
    valuesKey: text('values_key').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.valuesKey] })],
)

import { blob, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { jobs } from './jobs.ts'

/**
 * Credentials a job signs in with (`deskhook jobs secret set`). The value is AES-256-GCM
 * ciphertext (nonce ‖ tag ‖ data) under the key file in the data dir; the name is bound to it as
 * additional data, so a value moved to another name or job does not decrypt.
 */
export const jobSecrets = sqliteTable(
  'job_secrets',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ciphertext: blob('ciphertext', { mode: 'buffer' }).notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.name] })],
)

/**
 * Secrets set for a method + path before any job is taught there (`jobs secret set` first, teach
 * after): the teaching call that creates the job moves them to `job_secrets`. Sealed like job
 * secrets, bound to the route and name instead of a job id.
 */
export const routeSecrets = sqliteTable(
  'route_secrets',
  {
    method: text('method').notNull(),
    /** Normalised pattern, as `jobs.path` will hold it. */
    path: text('path').notNull(),
    name: text('name').notNull(),
    ciphertext: blob('ciphertext', { mode: 'buffer' }).notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.method, t.path, t.name] })],
)

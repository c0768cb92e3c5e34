import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export type JobMode = 'learning' | 'live'

export const jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    method: text('method').notNull(),
    /** Normalised pattern, e.g. `/customers/:id/notes`. */
    path: text('path').notNull(),
    mode: text('mode').$type<JobMode>().notNull().default('learning'),
    prompt: text('prompt').notNull(),
    stabilityScore: real('stability_score').notNull().default(0),
    liveVersion: integer('live_version'),
    draftVersion: integer('draft_version'),
    /** The desktop the job was taught on: the default pool for its runs. */
    desktopId: text('desktop_id'),
    /** Desktops (ids or names) allowed to run it; null = the desktop it was taught on, else any. */
    desktopPool: text('desktop_pool', { mode: 'json' }).$type<string[]>(),
    /** Run timeout; null = the server default (10 min). */
    timeoutMs: integer('timeout_ms'),
    /** The app is reset between runs, so verification may submit samples again (`deskhook.resettable`). */
    resettable: integer('resettable', { mode: 'boolean' }).notNull().default(false),
    /**
     * Credential headers the job opts in (`deskhook.keepHeaders`): never stored with the call;
     * each call's value is kept as the job secret of the same name (`{{$secrets.x-tenant-token}}`).
     */
    keptHeaders: text('kept_headers', { mode: 'json' }).$type<string[]>().notNull().default([]),
    /**
     * Input members whose values are secret (dotted paths, e.g. `password`, `login.pin`): taught
     * with `deskhook.secrets` or found by the builder (a field it fills is a password box). Their
     * values are kept only in memory for a run and masked everywhere else.
     */
    secretInputs: text('secret_inputs', { mode: 'json' }).$type<string[]>().notNull().default([]),
    /**
     * Job secrets the job signs in with, named in a teaching call's `deskhook.secrets` but carried
     * by no sample (`username`, `password`): its builds wait until each one is set.
     */
    neededSecrets: text('needed_secrets', { mode: 'json' }).$type<string[]>().notNull().default([]),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [uniqueIndex('jobs_method_path').on(t.method, t.path)],
)

/** Each successful build writes a version; `live_version` is the one live calls run. */
export const jobVersions = sqliteTable(
  'job_versions',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    automation: text('automation', { mode: 'json' }).notNull(),
    buildId: text('build_id'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.version] })],
)

export type SampleStatus = 'pending' | 'passing' | 'failing'

export const samples = sqliteTable(
  'samples',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** The job input exactly as a live call would see it (query + body, `_http`, no envelope). */
    input: text('input', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /**
     * The values of the job's secret inputs, by path: each sealed (AES-256-GCM, bound to job,
     * sample and path, base64). `input` holds MASK there; only the builder gets them opened.
     */
    sealedSecretInputs: text('sealed_secret_inputs', { mode: 'json' })
      .$type<Record<string, string>>()
      .notNull()
      .default({}),
    expect: text('expect', { mode: 'json' }).$type<Record<string, unknown>>(),
    prompt: text('prompt'),
    /** Scenario this sample belongs to: named by the envelope, or by the builder from its outcome. */
    scenario: text('scenario'),
    status: text('status').$type<SampleStatus>().notNull().default('pending'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
  },
  (t) => [index('samples_job_id').on(t.jobId)],
)

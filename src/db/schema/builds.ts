import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { Question, QuestionKind } from '../../protocol/questions.ts'
import { jobs, samples } from './jobs.ts'

export type BuildStatus = 'queued' | 'exploring' | 'waiting_for_answer' | 'verifying' | 'succeeded' | 'failed'

export type { QuestionKind }

export interface BuildQuestion extends Question {
  id: string
}

export interface BuildAnswer {
  questionId: string
  kind: QuestionKind
  /** The question as asked, so a build re-run after a restart can reuse the answer. */
  questionText: string
  answer: string | string[]
  answeredAt: string
}

export interface BuildProgressEntry {
  at: string
  stage: string
  message: string
  data?: Record<string, unknown>
}

export const builds = sqliteTable(
  'builds',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    sampleId: text('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    status: text('status').$type<BuildStatus>().notNull().default('queued'),
    question: text('question', { mode: 'json' }).$type<BuildQuestion>(),
    answers: text('answers', { mode: 'json' }).$type<BuildAnswer[]>().notNull().default([]),
    progress: text('progress', { mode: 'json' }).$type<BuildProgressEntry[]>().notNull().default([]),
    scenario: text('scenario'),
    desktop: text('desktop'),
    /** The teach call asked to be shown (`deskhook.demonstrate`): the builder asks `demonstrate` first. */
    demonstrate: integer('demonstrate', { mode: 'boolean' }).notNull().default(false),
    error: text('error', { mode: 'json' }).$type<{ code: string; message: string }>(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('builds_job_id').on(t.jobId)],
)

import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { QuestionKind } from '../../protocol/questions.ts'
import { jobs } from './jobs.ts'

/**
 * What the person teaching a job has answered, kept per job (not per build or sample): a later
 * build that meets the same question (kind, text and options) takes the answer instead of asking
 * again, also after a failed build or a removed sample.
 */
export const jobAnswers = sqliteTable(
  'job_answers',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<QuestionKind>().notNull(),
    questionText: text('question_text').notNull(),
    /** The option values, sorted and JSON-encoded ('[]' for free text): part of the question's identity. */
    optionsKey: text('options_key').notNull(),
    answer: text('answer', { mode: 'json' }).$type<string | string[]>().notNull(),
    buildId: text('build_id').notNull(),
    answeredAt: text('answered_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.kind, t.questionText, t.optionsKey] })],
)

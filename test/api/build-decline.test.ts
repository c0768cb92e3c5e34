import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { jobAnswers } from '../../src/db/schema/index.ts'
import { askQuestion, earlierAnswer, getBuild } from '../../src/modules/builds/service.ts'
import { NONE_OF_THESE } from '../../src/protocol/questions.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * "None of these": every choice question offers it; a single choice is declined with `__none__`,
 * a multiple one also with `[]`; a decline is kept on the build, never remembered for the job.
 */
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

async function newBuild(): Promise<{ jobId: string; buildId: string }> {
  const res = await s.call(`/decline-${crypto.randomUUID()}`, {
    method: 'POST',
    json: teachBody({ prompt: 'Create a customer and return its number' }),
  })
  return res.json()
}

const options = ['customerNumber', 'createdAt'].map((v) => ({ value: v, label: v }))
const answer = (buildId: string, body: unknown) =>
  s.call(`/_builds/${buildId}/answers`, { method: 'POST', json: body })
const remembered = (jobId: string) =>
  s.ctx.db.select().from(jobAnswers).where(eq(jobAnswers.jobId, jobId)).all()

describe('declining a question', () => {
  test('every choice question offers "None of these" last; free text and demonstrate do not', async () => {
    const { buildId } = await newBuild()
    const q = askQuestion(s.ctx, buildId, {
      kind: 'map_field',
      text: 'Where does "ref" go?',
      options,
      multiple: false,
    }).question!
    expect(q.options.at(-1)).toEqual({ value: NONE_OF_THESE, label: 'None of these' })
    expect(q.options).toHaveLength(3)
    const free = askQuestion(s.ctx, buildId, {
      kind: 'free_text',
      text: 'Anything?',
      options: [],
      multiple: false,
    }).question!
    expect(free.options).toEqual([])
  })

  test('a single choice takes "__none__"; it is kept on the build and not remembered for the job', async () => {
    const { jobId, buildId } = await newBuild()
    const q = askQuestion(s.ctx, buildId, {
      kind: 'choose_submit',
      text: 'Which button sends it?',
      options,
      multiple: false,
    }).question!
    const res = await answer(buildId, { questionId: q.id, answer: NONE_OF_THESE })
    expect(res.status).toBe(200)
    const b = await res.json()
    expect(b.status).toBe('exploring')
    expect(b.answers.at(-1).answer).toBe(NONE_OF_THESE)
    expect(b.progress.at(-1).message).toContain('none of these')
    expect(remembered(jobId)).toEqual([])
  })

  test('a multiple choice takes [] or ["__none__"], not "__none__" beside another option', async () => {
    const { jobId, buildId } = await newBuild()
    const ask = () =>
      askQuestion(s.ctx, buildId, {
        kind: 'choose_outputs',
        text: 'Which values should the job return?',
        options,
        multiple: true,
      }).question!
    let q = ask()
    const both = await answer(buildId, { questionId: q.id, answer: [NONE_OF_THESE, 'createdAt'] })
    expect(both.status).toBe(400)
    expect((await both.json()).error.code).toBe('INVALID_ANSWER')
    const empty = await answer(buildId, { questionId: q.id, answer: [] })
    expect(empty.status).toBe(200)
    expect((await empty.json()).answers.at(-1).answer).toEqual([])
    q = ask()
    expect((await answer(buildId, { questionId: q.id, answer: [NONE_OF_THESE] })).status).toBe(200)
    expect(remembered(jobId)).toEqual([])
  })

  test('a real answer is still remembered, and found again for the question as the builder asks it', async () => {
    const { jobId, buildId } = await newBuild()
    const asked = { kind: 'choose_outputs' as const, text: 'Which values?', options, multiple: true }
    const q = askQuestion(s.ctx, buildId, asked).question!
    expect((await answer(buildId, { questionId: q.id, answer: ['customerNumber'] })).status).toBe(200)
    const row = s.ctx.db
      .select()
      .from(jobAnswers)
      .where(and(eq(jobAnswers.jobId, jobId), eq(jobAnswers.kind, 'choose_outputs')))
      .get()
    expect(row?.answer).toEqual(['customerNumber'])
    // The builder asks without the none option; the stored question had it: the same question.
    expect(earlierAnswer(s.ctx, jobId, asked)?.answer).toEqual(['customerNumber'])
    expect(getBuild(s.ctx, buildId).question).toBeNull()
  })

  test('free text stays non-empty', async () => {
    const { buildId } = await newBuild()
    const q = askQuestion(s.ctx, buildId, {
      kind: 'free_text',
      text: 'Anything?',
      options: [],
      multiple: true,
    }).question!
    expect((await answer(buildId, { questionId: q.id, answer: [] })).status).toBe(400)
  })
})

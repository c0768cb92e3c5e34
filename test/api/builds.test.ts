import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { askQuestion } from '../../src/modules/builds/service.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

async function newBuild(): Promise<string> {
  const res = await s.call(`/job-${crypto.randomUUID()}`, {
    method: 'POST',
    json: teachBody({ prompt: 'Create a customer' }),
  })
  return (await res.json()).buildId
}

/** The builder's side of a question (it is what the builder calls); here it sets up the scenario. */
const ask = (buildId: string, multiple = false, options = ['email', 'phone', 'notes']) =>
  askQuestion(s.ctx, buildId, {
    kind: multiple ? 'choose_outputs' : 'map_field',
    text: 'Which field should "ref" go into?',
    options: options.map((o) => ({ value: o, label: o })),
    multiple,
  })

const answer = (buildId: string, body: unknown, raw?: string) =>
  s.call(`/_builds/${buildId}/answers`, {
    method: 'POST',
    body: raw ?? JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  })

describe('build questions and answers', () => {
  test('an open question shows on the build, and a valid answer resumes it', async () => {
    const id = await newBuild()
    const q = ask(id).question!
    const shown = await (await s.call(`/_builds/${id}`)).json()
    expect(shown.status).toBe('waiting_for_answer')
    expect(shown.question).toEqual({
      id: q.id,
      kind: 'map_field',
      text: q.text,
      options: q.options,
      multiple: false,
    })

    const res = await answer(id, { questionId: q.id, answer: 'notes' })
    expect(res.status).toBe(200)
    const build = await res.json()
    expect(build.status).toBe('exploring')
    expect(build.question).toBeNull()
    expect(build.answers).toMatchObject([{ questionId: q.id, answer: 'notes' }])
    // The build worker may have noted that no desktop is online (another `queued` line) meanwhile.
    const stages = build.progress.map((p: { stage: string }) => p.stage)
    expect(stages[0]).toBe('queued')
    expect(stages.slice(-2)).toEqual(['question', 'answer'])
  })

  test('the answer wakes the builder', async () => {
    const id = await newBuild()
    const q = ask(id).question!
    const woken = new Promise<string>((resolve) => s.ctx.events.once('build.answered', resolve))
    await answer(id, { questionId: q.id, answer: 'email' })
    expect(await woken).toBe(id)
  })

  test('multiple-choice questions take a list', async () => {
    const id = await newBuild()
    const q = ask(id, true).question!
    const res = await answer(id, { questionId: q.id, answer: ['email', 'phone'] })
    expect(res.status).toBe(200)
    expect((await res.json()).answers[0].answer).toEqual(['email', 'phone'])
  })

  test('free-text questions take any non-empty text', async () => {
    const id = await newBuild()
    const q = askQuestion(s.ctx, id, {
      kind: 'free_text',
      text: 'Which country is the default?',
      options: [],
      multiple: false,
    }).question!
    expect((await answer(id, { questionId: q.id, answer: '   ' })).status).toBe(400)
    expect((await answer(id, { questionId: q.id, answer: 'Germany' })).status).toBe(200)
  })

  const cases: [string, (qid: string) => unknown, number, string, boolean?, string?][] = [
    ['no body', () => undefined, 400, 'INVALID_REQUEST', false, ''],
    ['malformed JSON', () => undefined, 400, 'INVALID_JSON', false, '{"questionId":'],
    ['missing answer', (qid) => ({ questionId: qid }), 400, 'INVALID_REQUEST'],
    ['answer of the wrong type', (qid) => ({ questionId: qid, answer: 5 }), 400, 'INVALID_REQUEST'],
    ['unknown member', (qid) => ({ questionId: qid, answer: 'email', extra: 1 }), 400, 'INVALID_REQUEST'],
    ['answer not among the options', (qid) => ({ questionId: qid, answer: 'fax' }), 400, 'INVALID_ANSWER'],
    [
      'a list for a single-answer question',
      (qid) => ({ questionId: qid, answer: ['email'] }),
      400,
      'INVALID_ANSWER',
    ],
    [
      'one unknown value in a list',
      (qid) => ({ questionId: qid, answer: ['email', 'fax'] }),
      400,
      'INVALID_ANSWER',
      true,
    ],
    [
      'a value twice',
      (qid) => ({ questionId: qid, answer: ['email', 'email'] }),
      400,
      'INVALID_ANSWER',
      true,
    ],
    [
      'another question id',
      () => ({ questionId: 'not-the-open-one', answer: 'email' }),
      409,
      'QUESTION_MISMATCH',
    ],
  ]
  for (const [name, body, status, code, multiple, raw] of cases) {
    test(`${name} → ${status} ${code}, and the question stays open`, async () => {
      const id = await newBuild()
      const q = ask(id, multiple).question!
      const res = await answer(id, body(q.id), raw)
      expect(res.status).toBe(status)
      expect((await res.json()).error.code).toBe(code)
      const build = await (await s.call(`/_builds/${id}`)).json()
      expect(build.status).toBe('waiting_for_answer')
      expect(build.question.id).toBe(q.id)
    })
  }

  test('no open question → 409 NO_OPEN_QUESTION', async () => {
    const id = await newBuild()
    const res = await answer(id, { questionId: 'q', answer: 'x' })
    expect(res.status).toBe(409)
    expect((await res.json()).error.code).toBe('NO_OPEN_QUESTION')
  })

  test('answering twice → 409 the second time', async () => {
    const id = await newBuild()
    const q = ask(id).question!
    expect((await answer(id, { questionId: q.id, answer: 'email' })).status).toBe(200)
    expect((await answer(id, { questionId: q.id, answer: 'email' })).status).toBe(409)
  })

  test('unknown build → 404', async () => {
    const res = await answer('nope', { questionId: 'q', answer: 'x' })
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('BUILD_NOT_FOUND')
  })
})

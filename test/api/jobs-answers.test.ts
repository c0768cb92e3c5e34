import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Question } from '../../src/builder/contract.ts'
import { failBuild } from '../../src/modules/builds/lifecycle.ts'
import { getBuild } from '../../src/modules/builds/service.ts'
import { buildIO } from '../../src/runtime/build-worker/build-io.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer
const never = new AbortController().signal

beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

async function teach(path: string, sample: Record<string, unknown>) {
  const res = await s.call(path, { method: 'POST', json: teachBody({ prompt: 'Create a customer' }, sample) })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; sampleId: string; buildId: string }
}

const refQuestion = (options = ['phone', 'notes']): Question => ({
  kind: 'map_field',
  text: 'Where should the value of “ref” (“Referred by the Navy”) go?',
  options: options.map((value) => ({ value, label: value })),
  multiple: false,
})

/** The builder asks through the build's IO; the person answers over HTTP, as in a real build. */
async function askAndAnswer(buildId: string, q: Question, answer: string) {
  const asked = buildIO(s.ctx, buildId, never).ask(q)
  const open = await (await s.call(`/_builds/${buildId}`)).json()
  expect(open.status).toBe('waiting_for_answer')
  const res = await s.call(`/_builds/${buildId}/answers`, {
    method: 'POST',
    json: { questionId: open.question.id, answer },
  })
  expect(res.status).toBe(200)
  expect(await asked).toBe(answer)
}

describe('answers carry over to later builds of the same job', () => {
  test('after a failed build, the same question is answered from memory and progress says so', async () => {
    const first = await teach('/answers/customers', { ref: 'Referred by the Navy' })
    await askAndAnswer(first.buildId, refQuestion(), 'notes')
    failBuild(s.ctx, first.buildId, { code: 'VERIFY_FAILED', message: 'the Notes field was read-only' })

    // The person fixes the app and sends the sample again: a new build of the same job.
    const again = await teach('/answers/customers', { ref: 'Referred by the Navy' })
    expect(again.jobId).toBe(first.jobId)
    expect(await buildIO(s.ctx, again.buildId, never).ask(refQuestion())).toBe('notes')
    const build = getBuild(s.ctx, again.buildId)
    expect(build.question).toBeNull()
    expect(build.status).not.toBe('waiting_for_answer')
    expect(build.progress.at(-1)).toMatchObject({
      stage: 'answer',
      message:
        'Not asking again: "Where should the value of “ref” (“Referred by the Navy”) go?" was answered in an earlier build of this job (notes)',
      data: { kind: 'map_field', answer: 'notes', fromBuild: first.buildId },
    })

    // Still remembered once the failed sample (and its build) is removed.
    const removed = await s.call(`/_jobs/${first.jobId}/samples/${first.sampleId}`, { method: 'DELETE' })
    expect(removed.status).toBe(200)
    const third = await teach('/answers/customers', { ref: 'Referred by the Navy' })
    expect(await buildIO(s.ctx, third.buildId, never).ask(refQuestion())).toBe('notes')
  })

  test('a different question is asked: other options, other words, another job', async () => {
    const base = await teach('/answers/leads', { ref: 'x' })
    await askAndAnswer(base.buildId, refQuestion(), 'phone')

    const otherOptions = await teach('/answers/leads', { ref: 'y' })
    // The screen now offers another field: the old answer may not fit, so the person is asked.
    await askAndAnswer(otherOptions.buildId, refQuestion(['phone', 'notes', 'source']), 'source')

    const otherWords = await teach('/answers/leads', { ref: 'z' })
    await askAndAnswer(
      otherWords.buildId,
      { ...refQuestion(), text: 'Which button saves the lead?' },
      'notes',
    )

    const otherJob = await teach('/answers/elsewhere', { ref: 'x' })
    await askAndAnswer(otherJob.buildId, refQuestion(), 'notes')

    // The newest answer to a question is the one remembered.
    const later = await teach('/answers/leads', { ref: 'w' })
    expect(await buildIO(s.ctx, later.buildId, never).ask(refQuestion(['notes', 'phone', 'source']))).toBe(
      'source',
    )
  })

  test('deleting the job forgets its answers', async () => {
    const t = await teach('/answers/forget', { ref: 'x' })
    await askAndAnswer(t.buildId, refQuestion(), 'notes')
    expect((await s.call(`/_jobs/${t.jobId}`, { method: 'DELETE' })).status).toBe(200)
    const fresh = await teach('/answers/forget', { ref: 'x' })
    await askAndAnswer(fresh.buildId, refQuestion(), 'phone')
  })
})

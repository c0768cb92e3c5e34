import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { jobAnswers } from '../../src/db/schema/index.ts'
import { askQuestion } from '../../src/modules/builds/service.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/** A later sample's literal `expect` drops the job's remembered output choices (and only those). */
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

const teach = async (envelope: Record<string, unknown>) =>
  (await (
    await s.call('/bookings', { method: 'POST', json: teachBody(envelope, { guest: 'Ada' }) })
  ).json()) as {
    jobId: string
    buildId: string
  }

async function answer(buildId: string, kind: 'choose_outputs' | 'map_field', value: string) {
  const q = askQuestion(s.ctx, buildId, {
    kind,
    text: `${kind}?`,
    options: [{ value, label: value }],
    multiple: kind === 'choose_outputs',
  }).question!
  const res = await s.call(`/_builds/${buildId}/answers`, {
    method: 'POST',
    json: { questionId: q.id, answer: kind === 'choose_outputs' ? [value] : value },
  })
  expect(res.status).toBe(200)
}

const kinds = (jobId: string) =>
  s.ctx.db
    .select({ kind: jobAnswers.kind })
    .from(jobAnswers)
    .where(eq(jobAnswers.jobId, jobId))
    .all()
    .map((r) => r.kind)
    .sort()

describe('a literal expect overrides remembered outputs', () => {
  test('placeholders keep them; a literal value drops the choose_outputs answers only', async () => {
    const first = await teach({
      prompt: 'Book a room and return the booking number',
      expect: { bookingNumber: { $type: 'string' } },
    })
    await answer(first.buildId, 'choose_outputs', 'Pickup')
    await answer(first.buildId, 'map_field', 'guestName')
    expect(kinds(first.jobId)).toEqual(['choose_outputs', 'map_field'])

    await teach({ expect: { bookingNumber: { $type: 'string' } } })
    expect(kinds(first.jobId)).toEqual(['choose_outputs', 'map_field'])
    await teach({})
    expect(kinds(first.jobId)).toEqual(['choose_outputs', 'map_field'])

    await teach({ expect: { bookingNumber: 'FD-77832', estimatedCost: { $type: 'string' } } })
    expect(kinds(first.jobId)).toEqual(['map_field'])
  })
})

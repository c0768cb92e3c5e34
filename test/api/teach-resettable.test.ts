import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { builds, jobs } from '../../src/db/schema/index.ts'
import { recordProgress } from '../../src/modules/builds/service.ts'
import { submittedBefore } from '../../src/runtime/build-worker/index.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

const teach = (path: string, envelope: Record<string, unknown>, sample: Record<string, unknown> = {}) =>
  s.call(path, { method: 'POST', json: teachBody(envelope, sample) })

describe('deskhook.resettable', () => {
  test('marks the job; a later call can change it; jobs start not resettable', async () => {
    const first = await (await teach('/resettable-a', { prompt: 'Create a ticket', resettable: true })).json()
    const row = () => s.ctx.db.select().from(jobs).where(eq(jobs.id, first.jobId)).get()!
    expect(row().resettable).toBe(true)
    await teach('/resettable-a', { resettable: false })
    expect(row().resettable).toBe(false)
    const other = await (await teach('/resettable-b', { prompt: 'Create a ticket' })).json()
    expect(s.ctx.db.select().from(jobs).where(eq(jobs.id, other.jobId)).get()!.resettable).toBe(false)
  })

  test('a value that is not a boolean is a 400 naming the member', async () => {
    const res = await teach('/resettable-c', { prompt: 'Create a ticket', resettable: 'yes' })
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).toContain('resettable')
  })
})

describe('a sample already submitted by an earlier build', () => {
  test('is recognised by its caller values (not headers), only once a build pressed its submit', async () => {
    const a = await (await teach('/submitted', { prompt: 'Create a note' }, { title: 'Groceries' })).json()
    const b = await (
      await s.call('/submitted', {
        method: 'POST',
        json: teachBody({}, { title: 'Groceries' }),
        headers: { 'x-trace': 'other' },
      })
    ).json()
    const input = {
      title: 'Groceries',
      _http: { method: 'POST', path: '/submitted', params: {}, headers: {} },
    }
    expect(submittedBefore(s.ctx, a.jobId, b.buildId, input)).toBe(false)
    recordProgress(s.ctx, a.buildId, { stage: 'observe', message: 'The submit led to a dialog: “Saved”' })
    expect(submittedBefore(s.ctx, a.jobId, b.buildId, input)).toBe(true)
    expect(submittedBefore(s.ctx, a.jobId, b.buildId, { ...input, title: 'Other' })).toBe(false)
    expect(s.ctx.db.select().from(builds).where(eq(builds.jobId, a.jobId)).all().length).toBe(2)
  })
})

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { count } from 'drizzle-orm'
import { executions, jobs } from '../../src/db/schema/index.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

// Issue 23 N13: a job taught at an encoded slash (/x%2Fy) could never be called. Teaching such a
// path is now refused with a clear 400; the encodings that can be called still are.
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

const jobCount = () => s.ctx.db.select({ n: count() }).from(jobs).get()!.n

test('teaching a path with an encoded /, ? or # in a segment is a 400 INVALID_PATH, and creates nothing', async () => {
  const before = jobCount()
  for (const [path, envelope] of [
    ['/x%2Fy', {}],
    ['/x%2fy', {}],
    ['/reports%3Fall', {}],
    ['/a%23b', {}],
    ['/x%2Fy/7', { path: '/x%2Fy/:id' }],
  ] as const) {
    const res = await s.call(path, { method: 'POST', json: teachBody({ prompt: 'Slashy', ...envelope }) })
    expect({ path, status: res.status }).toEqual({ path, status: 400 })
    const { error } = await res.json()
    expect(error.code).toBe('INVALID_PATH')
    expect(error.message).toContain('encoded /, ? or #')
  }
  expect(jobCount()).toBe(before)
})

test('every encoded path that can be taught can be called at its own URL', async () => {
  for (const path of ['/a%3Ab', '/a%25b', '/a%24b', '/caf%C3%A9', '/a%2Cb']) {
    await liveJob(s, 'POST', path)
    const res = await s.call(`${path}?async=1`, { method: 'POST', json: {} })
    expect({ path, status: res.status }).toEqual({ path, status: 202 })
  }
})

test('an encoded slash inside a parameter value still reaches its job, decoded', async () => {
  await liveJob(s, 'POST', '/files/:name')
  const res = await s.call('/files/a%2Fb?async=1', { method: 'POST', json: {} })
  expect(res.status).toBe(202)
  const { jobExecutionId } = await res.json()
  const row = s.ctx.db
    .select()
    .from(executions)
    .all()
    .find((e) => e.id === jobExecutionId)!
  expect((row.input._http as { params: Record<string, string> }).params).toEqual({ name: 'a/b' })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addJobVersion, getJob, promoteJob } from '../../src/modules/jobs/service.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * A teaching call to a literal path that a parameterised job also matches: its own job (a literal
 * segment wins, as for live calls), never a sample of the other, never the other's prompt; an
 * overlap with no clear winner is refused with ROUTE_CONFLICT naming the other job.
 */
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

async function teach(path: string, envelope: Record<string, unknown>, sample: Record<string, unknown> = {}) {
  const res = await s.call(path, { method: 'POST', json: teachBody({ method: 'GET', ...envelope }, sample) })
  return { status: res.status, body: await res.json() }
}

/** A live GET call, async: the execution says which job took it. */
async function jobTaking(path: string): Promise<string> {
  const res = await s.call(`${path}?async=1`)
  expect(res.status).toBe(202)
  const { resultPath } = await res.json()
  return (await (await s.call(resultPath)).json()).jobId
}

describe('teaching a literal path beside a parameterised job', () => {
  test('creates its own job; the first keeps its prompt; live calls reach their own jobs', async () => {
    const byNumber = await teach('/issues/:number', { prompt: 'Look up the issue by its number' })
    expect(byNumber.status).toBe(202)
    const search = await teach(
      '/issues/search',
      { prompt: 'Search issues and return the list' },
      { q: 'crash' },
    )
    expect(search.status).toBe(202)
    expect(search.body.jobId).not.toBe(byNumber.body.jobId)
    expect(getJob(s.ctx, search.body.jobId)).toMatchObject({ method: 'GET', path: '/issues/search' })
    expect(getJob(s.ctx, byNumber.body.jobId)?.prompt).toBe('Look up the issue by its number')

    // A concrete sample that says nothing else still joins the parameterised job.
    const sample = await teach('/issues/7', {})
    expect(sample.body.jobId).toBe(byNumber.body.jobId)
    // And one with that job's own prompt.
    const same = await teach('/issues/8', { prompt: 'Look up the issue by its number' })
    expect(same.body.jobId).toBe(byNumber.body.jobId)
    // Teaching the literal path again adds to its own job.
    const again = await teach('/issues/search', {}, { q: 'login' })
    expect(again.body.jobId).toBe(search.body.jobId)

    for (const id of [byNumber.body.jobId, search.body.jobId]) {
      const job = getJob(s.ctx, id)!
      addJobVersion(s.ctx, id, { version: 1, app: {}, steps: [], scenarios: [] })
      promoteJob(s.ctx, job.method, job.path)
    }
    expect(await jobTaking('/issues/search')).toBe(search.body.jobId)
    expect(await jobTaking('/issues/3')).toBe(byNumber.body.jobId)
  })

  test('a pattern that overlaps another with no clear winner is a 409 ROUTE_CONFLICT naming it', async () => {
    const first = await teach('/a/:x', { prompt: 'Read a thing' })
    expect(first.status).toBe(202)
    const clash = await teach('/b', { prompt: 'Read another thing', path: '/:y/b' })
    // `/b` is not an instance of `/:y/b`: teach on a concrete path of it instead.
    expect(clash.status).toBe(400)
    const res = await teach('/z/b', { prompt: 'Read another thing', path: '/:y/b' })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('ROUTE_CONFLICT')
    expect(res.body.error.message).toContain('GET /a/:x')
    expect(res.body.error.conflictsWith).toEqual({ jobId: first.body.jobId, method: 'GET', path: '/a/:x' })
    // A literal version of it is fine: `/a/b` is more specific than `/a/:x`.
    expect((await teach('/a/b', { prompt: 'Read the b thing' })).status).toBe(202)
  })
})

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { jobs } from '../../src/db/schema/index.ts'
import { newId } from '../../src/lib/ids.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer
const JOBS = 10_000

beforeAll(async () => {
  s = await startTestServer()
  // Written straight to the table (as `jobs import` would), then picked up like any other change.
  const now = new Date().toISOString()
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
  s.ctx.db.transaction((tx) => {
    for (let i = 0; i < JOBS; i++) {
      tx.insert(jobs)
        .values({
          id: newId(),
          method: methods[i % 5]!,
          path: i % 2 ? `/team-${i % 97}/records/${i}/:recordId` : `/team-${i % 97}/static-${i}`,
          mode: 'learning',
          prompt: `job ${i}`,
          createdAt: now,
          updatedAt: now,
        })
        .run()
    }
  })
  s.ctx.events.emit('db.external-change')
})
afterAll(() => s.close())

test('with 10,000 jobs every request reaches its own job', async () => {
  for (const i of [0, 1, 2, 3, 4, 4_999, 5_000, 9_998, 9_999]) {
    const method = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'][i % 5]!
    const path = i % 2 ? `/team-${i % 97}/records/${i}/R-${i}` : `/team-${i % 97}/static-${i}`
    const res = await s.call(path, { method })
    const body = await res.json()
    expect(res.status).toBe(409) // found, and still learning
    expect(body.error.message).toContain(i % 2 ? `/team-${i % 97}/records/${i}/:recordId` : path)
  }
  const miss = await s.call('/team-1/static-999999', { method: 'GET' })
  expect(miss.status).toBe(404)
})

test('teaching one more job among 10,000 adds it without a rebuild and routes it', async () => {
  const res = await s.call('/brand-new', { method: 'POST', json: teachBody({ prompt: 'New' }) })
  expect(res.status).toBe(202)
  expect((await s.call('/brand-new', { method: 'POST' })).status).toBe(409)
  const list = (await (await s.call('/_jobs')).json()).jobs
  expect(list.length).toBe(JOBS + 1)
})

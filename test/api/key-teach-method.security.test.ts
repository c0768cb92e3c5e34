import { afterAll, beforeAll, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { jobs } from '../../src/db/schema/index.ts'
import { createKey } from '../../src/modules/keys/service.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

// Issue 23 N16: job patterns were matched on the request's HTTP method, while a teaching call
// registers on `deskhook.method`: a key limited to `POST /orders` replaced the prompt of the
// admin's `PUT /orders` and created `DELETE /orders`. A key is checked on what the call teaches.
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
  const admin = await s.call('/orders', {
    method: 'PUT',
    json: teachBody({ prompt: 'Admin: replace the order' }),
  })
  expect(admin.status).toBe(202)
})
afterAll(() => s.close())

const job = (method: string, path: string) =>
  s.ctx.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.method, method), eq(jobs.path, path)))
    .get()

const teachWith = (key: string, path: string, envelope: Record<string, unknown>) =>
  s.call(path, { method: 'POST', key, json: teachBody(envelope) })

test('a key limited to POST /orders cannot teach PUT or DELETE /orders through deskhook.method', async () => {
  const key = createKey(s.ctx, { name: 'orders-post', jobs: 'POST /orders' }).key
  const replace = await teachWith(key, '/orders', { prompt: 'Mallory: delete everything', method: 'PUT' })
  expect(replace.status).toBe(403)
  const body = await replace.json()
  expect(body.error.code).toBe('FORBIDDEN_SCOPE')
  expect(body.error.message).toContain('teach PUT /orders')
  expect(job('PUT', '/orders')!.prompt).toBe('Admin: replace the order')

  const create = await teachWith(key, '/orders', { prompt: 'Mallory: a new job', method: 'DELETE' })
  expect(create.status).toBe(403)
  expect(job('DELETE', '/orders')).toBeUndefined()

  // What it may do, it still does.
  const own = await teachWith(key, '/orders', { prompt: 'Create an order' })
  expect(own.status).toBe(202)
  expect(job('POST', '/orders')!.prompt).toBe('Create an order')
})

test('a key limited to GET /reports/:id teaches its GET job the documented way, a POST with method GET', async () => {
  const key = createKey(s.ctx, { name: 'reports-get', scopes: 'teach', jobs: 'GET /reports/:id' }).key
  const res = await teachWith(key, '/reports/7', {
    prompt: 'Open a report',
    method: 'GET',
    path: '/reports/:id',
  })
  expect(res.status).toBe(202)
  expect(job('GET', '/reports/:id')).toBeDefined()
  // …and nothing else on that path.
  const put = await teachWith(key, '/reports/7', { prompt: 'Overwrite a report', method: 'PUT' })
  expect(put.status).toBe(403)
})

test('a key limited to one id cannot teach the pattern that covers every id', async () => {
  const key = createKey(s.ctx, { name: 'one-customer', jobs: 'POST /customers/42' }).key
  const res = await teachWith(key, '/customers/42', { prompt: 'Any customer', path: '/customers/:id' })
  expect(res.status).toBe(403)
  expect(job('POST', '/customers/:id')).toBeUndefined()
  expect((await teachWith(key, '/customers/42', { prompt: 'This customer' })).status).toBe(202)
})

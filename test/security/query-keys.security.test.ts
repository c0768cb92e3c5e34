import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { jobs, samples } from '../../src/db/schema/index.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

// Issue 9 item 9: `?constructor=x` was stored as [null, "x"] and `__proto__` was dropped.
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

test('query keys named constructor, __proto__, toString are kept as ordinary data', async () => {
  const res = await s.call('/proto-keys?constructor=x&__proto__=y&toString=z&hasOwnProperty=w&tag=a&tag=b', {
    method: 'POST',
    json: teachBody({ prompt: 'Create a thing' }),
  })
  expect(res.status).toBe(202)
  const job = s.ctx.db.select().from(jobs).where(eq(jobs.path, '/proto-keys')).get()!
  const sample = s.ctx.db.select().from(samples).where(eq(samples.jobId, job.id)).get()!
  const input = JSON.parse(JSON.stringify(sample.input))
  expect(input.constructor).toBe('x')
  expect(Object.getOwnPropertyDescriptor(input, '__proto__')?.value).toBe('y')
  expect(input.toString).toBe('z')
  expect(input.hasOwnProperty).toBe('w')
  expect(input.tag).toEqual(['a', 'b'])
})

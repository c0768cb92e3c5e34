import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createKey, rotateKey } from '../../src/modules/keys/service.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Issue 23: "the async poll uses the same API key as the call", yet a key with only the `call`
// scope got 403 FORBIDDEN_SCOPE polling its own execution. A key reads the executions it created,
// and only those unless it has `read`.
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
  // No desktop: every call stays queued, which is all polling needs.
  await liveJob(s, 'POST', '/orders/:id')
})
afterAll(() => s.close())

const callAsync = async (key: string) => {
  const res = await s.call('/orders/1?async=1', { method: 'POST', key, json: {} })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobExecutionId: string; resultPath: string }
}
const poll = (path: string, key: string) => s.call(path, { key })

test('a call-only key polls its own execution, and sees no one else’s', async () => {
  const caller = createKey(s.ctx, { name: 'caller', scopes: 'call' }).key
  const other = createKey(s.ctx, { name: 'other-caller', scopes: 'call' }).key
  const mine = await callAsync(caller)

  const own = await poll(mine.resultPath, caller)
  expect(own.status).toBe(200)
  expect(await own.json()).toMatchObject({
    jobExecutionId: mine.jobExecutionId,
    status: 'queued',
    done: false,
  })

  // Another call-only key, or this one on another key's execution: exactly an unknown id.
  const unknown = await poll('/_executions/0190b6a8-0000-7000-8000-00000000dddd', other)
  const theirs = await poll(mine.resultPath, other)
  const admins = await poll((await callAsync(s.key)).resultPath, caller)
  expect(unknown.status).toBe(404)
  for (const res of [theirs, admins]) {
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe((await unknown.clone().json()).error.code)
  }
})

test('a key with read sees every execution; a teach-only key none', async () => {
  const caller = createKey(s.ctx, { name: 'caller-2', scopes: 'call' }).key
  const mine = await callAsync(caller)
  const reader = createKey(s.ctx, { name: 'reader', scopes: 'read' }).key
  expect((await poll(mine.resultPath, reader)).status).toBe(200)
  const teacher = createKey(s.ctx, { name: 'teacher', scopes: 'teach' }).key
  const res = await poll(mine.resultPath, teacher)
  expect(res.status).toBe(403)
  expect((await res.json()).error.code).toBe('FORBIDDEN_SCOPE')
})

test('after a rotation the new key polls what the old one started', async () => {
  const old = createKey(s.ctx, { name: 'rotating-caller', scopes: 'call' })
  const mine = await callAsync(old.key)
  const { key: successor } = rotateKey(s.ctx, old.id, { overlap: '1h' })
  expect((await poll(mine.resultPath, successor.key)).status).toBe(200)
})

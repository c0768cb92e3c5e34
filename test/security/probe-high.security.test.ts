import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openapiRoutes } from '../../src/modules/openapi/index.ts'
import { openApiCache } from '../../src/modules/openapi/service.ts'
import { MAX_JSON_DEPTH } from '../../src/modules/triggers/read-body.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

// Issue 9, the black-box probe: /swagger.json rebuilt per Host and frozen by a deep sample (1),
// deep JSON answered 500 (8), links taken from the caller's Host header (7).
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

const deep = (levels: number, open = '{"a":', close = '}') => `${open.repeat(levels)}1${close.repeat(levels)}`

describe('deep JSON is refused before parsing, with the limit named', () => {
  test('a teaching sample 10,000 levels deep gets 400, and no job is created', async () => {
    const body = `{"deskhook":{"teach":true,"prompt":"Create a thing"},"x":${deep(10_000)}}`
    const res = await s.call('/deep-sample', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    const error = (await res.json()).error
    expect(error.code).toBe('INVALID_BODY')
    expect(error.message).toContain(`the limit is ${MAX_JSON_DEPTH}`)
    expect(
      (await (await s.call('/_jobs')).json()).jobs.some((j: { path: string }) => j.path === '/deep-sample'),
    ).toBe(false)
  })

  test('a live call 400,000 levels deep, and an expect 100,000 deep, get 400 (never a 500)', async () => {
    const live = await s.call('/anything', {
      method: 'POST',
      body: deep(400_000, '[', ']'),
      headers: { 'content-type': 'application/json' },
    })
    expect(live.status).toBe(400)
    const expectDeep = `{"deskhook":{"teach":true,"prompt":"p","expect":{"a":${deep(100_000, '[', ']')}}}}`
    const teach = await s.call('/deep-expect', {
      method: 'POST',
      body: expectDeep,
      headers: { 'content-type': 'application/json' },
    })
    expect(teach.status).toBe(400)
  })

  test('brackets inside strings do not count', async () => {
    const body = JSON.stringify(teachBody({ prompt: 'Create a thing' }, { note: '['.repeat(5000) }))
    const res = await s.call('/brackets-in-strings', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(202)
  })
})

describe('/swagger.json is built once per change of the jobs, whatever the Host', () => {
  test('other Hosts and repeated requests do not rebuild; the server URL is ours; ETag gives 304', async () => {
    const cache = openApiCache(s.ctx)
    const app = openapiRoutes(s.ctx, cache)
    const get = (host: string, headers: Record<string, string> = {}) =>
      app.handle(new Request(`http://${host}/swagger.json`, { headers: { host, ...headers } }))
    const first = await get('evil.example')
    expect(first.status).toBe(200)
    const doc = await first.json()
    expect(doc.servers).toEqual([{ url: s.url }])
    for (const host of ['a.example', 'b.example', 'c.example']) expect((await get(host)).status).toBe(200)
    expect(cache.builds()).toBe(1)
    const etag = first.headers.get('etag')!
    expect((await get('d.example', { 'if-none-match': etag })).status).toBe(304)
    // A new job changes the document: the next request rebuilds once.
    expect(
      (await s.call('/swagger-new-job', { method: 'POST', json: teachBody({ prompt: 'Create a thing' }) }))
        .status,
    ).toBe(202)
    const after = await get('e.example')
    expect(after.headers.get('etag')).not.toBe(etag)
    await get('f.example')
    expect(cache.builds()).toBe(2)
  })
})

describe('links never come from the caller’s Host header', () => {
  test('triggerUrl is the server’s own address, not Host: evil.example', async () => {
    await s.call('/links-job', { method: 'POST', json: teachBody({ prompt: 'Create a thing' }) })
    const res = await fetch(`${s.url}/_jobs`, { headers: { 'x-api-key': s.key, host: 'evil.example' } })
    const jobs = (await res.json()).jobs as { path: string; triggerUrl: string }[]
    const job = jobs.find((j) => j.path === '/links-job')!
    expect(job.triggerUrl).toBe(`${s.url}/links-job`)
    expect(JSON.stringify(jobs)).not.toContain('evil.example')
  })
})

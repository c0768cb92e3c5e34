import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { normalisePath } from '../../src/modules/jobs/path-pattern.ts'
import { cli } from '../helpers/cli.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

// Real servers and processes: room for a busy CI machine.
setDefaultTimeout(30_000)

// Issue 9 items 5 and 10: jobs taught at /café, /a%20b or /%5Fjobs could not be called at their
// own URL (404), and a path parameter over 100 characters was a 404 JOB_NOT_FOUND.
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

const call = (path: string) => s.call(`${path}?async=1`, { method: 'POST', json: { a: 1 } })

test('one form of a path: decoded where it may be, encoded the one way, NFC, no trailing slash', () => {
  expect(normalisePath('/café')).toBe('/caf%C3%A9')
  expect(normalisePath('/caf%c3%a9/')).toBe('/caf%C3%A9')
  expect(normalisePath('/cafe\u0301')).toBe('/caf%C3%A9') // e + combining accent is é
  expect(normalisePath('/%61bc')).toBe('/abc')
  expect(normalisePath('/%5Fjobs')).toBe('/_jobs')
  expect(normalisePath('/a b')).toBe('/a%20b')
  expect(normalisePath('/x%2Fy/:id')).toBe('/x%2Fy/:id') // a / inside a segment stays encoded
  expect(normalisePath("/a+b,c;d=e@f$g&h!i'j")).toBe("/a+b,c;d=e@f$g&h!i'j")
})

test('a job taught at a non-ASCII or percent-encoded path is called at its own URL, however it is spelled', async () => {
  await liveJob(s, 'POST', '/café')
  await liveJob(s, 'POST', '/a%20b')
  for (const spelling of ['/café', '/caf%C3%A9', '/caf%c3%a9', '/cafe\u0301'])
    expect({ spelling, status: (await call(spelling)).status }).toEqual({ spelling, status: 202 })
  expect((await call('/a%20b')).status).toBe(202)
  expect((await call('/a b')).status).toBe(202)
  // Listed, documented and found by the CLI in the same one form.
  const { jobs } = (await (await s.call('/_jobs')).json()) as { jobs: { path: string }[] }
  expect(jobs.map((j) => j.path).sort()).toEqual(['/a%20b', '/caf%C3%A9'])
  const swagger = (await (await fetch(`${s.url}/swagger.json`)).json()) as { paths: Record<string, unknown> }
  expect(Object.keys(swagger.paths)).toContain('/caf%C3%A9')
  const exported = await cli(['jobs', 'export', 'POST', '/cafe\u0301', '--data', s.dataDir])
  expect(exported.code).toBe(0)
  expect(JSON.parse(exported.stdout).path).toBe('/caf%C3%A9')
})

test('a reserved path is checked after decoding: /%5Fjobs is /_jobs, refused with RESERVED_PATH', async () => {
  for (const path of ['/%5Fjobs', '/%5f/x', '/swagger%2Ejson']) {
    const res = await s.call(path, { method: 'POST', json: teachBody({ prompt: 'Sneak in' }) })
    expect({ path, status: res.status }).toEqual({ path, status: 400 })
    expect((await res.json()).error.code).toBe('RESERVED_PATH')
  }
})

test('a path parameter as long as a URL allows reaches its job', async () => {
  await liveJob(s, 'POST', '/orders/:id')
  for (const length of [100, 101, 500, 4000])
    expect({ length, status: (await call(`/orders/${'x'.repeat(length)}`)).status }).toEqual({
      length,
      status: 202,
    })
})

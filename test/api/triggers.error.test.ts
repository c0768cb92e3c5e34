import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  // A small limit so the 413 cases stay cheap.
  s = await startTestServer({ bodyLimit: '64kb' })
  await s.call('/customers', { method: 'POST', json: teachBody({ prompt: 'Create a customer' }) })
  await s.call('/customers/:id', { method: 'POST', json: teachBody({ prompt: 'Update a customer' }) })
})
afterAll(() => s.close())

interface Scenario {
  name: string
  method?: string
  path: string
  body?: string
  headers?: Record<string, string>
  status: number
  code: string
  message?: RegExp
  extra?: Record<string, unknown>
}

const json = { 'content-type': 'application/json' }
const env = (e: Record<string, unknown>, sample: Record<string, unknown> = {}) =>
  JSON.stringify(teachBody(e, sample))

const scenarios: Scenario[] = [
  // 400: body
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/customers',
    body: '{"a": ',
    headers: json,
    status: 400,
    code: 'INVALID_JSON',
  },
  {
    name: 'a JSON array body',
    method: 'POST',
    path: '/customers',
    body: '[1,2]',
    headers: json,
    status: 400,
    code: 'INVALID_BODY',
    message: /JSON object/,
  },
  {
    name: 'a JSON string body',
    method: 'POST',
    path: '/customers',
    body: '"hi"',
    headers: json,
    status: 400,
    code: 'INVALID_BODY',
  },
  // 400: envelope
  {
    name: 'envelope not an object',
    method: 'POST',
    path: '/x',
    body: '{"deskhook": true}',
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    extra: { field: 'deskhook' },
  },
  {
    name: 'teach missing',
    method: 'POST',
    path: '/x',
    body: '{"deskhook": {"prompt": "p"}}',
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    message: /deskhook\.teach: is required/,
  },
  {
    name: 'teach false',
    method: 'POST',
    path: '/x',
    body: '{"deskhook": {"teach": false}}',
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    message: /leave out the deskhook envelope/,
  },
  {
    name: 'prompt of the wrong type',
    method: 'POST',
    path: '/x',
    body: env({ prompt: 5 }),
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    message: /deskhook\.prompt: must be a string, got a number/,
  },
  {
    name: 'unknown envelope member',
    method: 'POST',
    path: '/x',
    body: env({ prompt: 'p', promt: 'typo' }),
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    message: /deskhook\.promt: is not a known member/,
  },
  {
    name: 'first call without prompt',
    method: 'POST',
    path: '/new-job',
    body: env({}),
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    extra: { field: 'deskhook.prompt' },
  },
  {
    name: 'bad $type in expect',
    method: 'POST',
    path: '/x',
    body: env({ prompt: 'p', expect: { id: { $type: 'uuid' } } }),
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    extra: { field: 'deskhook.expect.id.$type' },
  },
  {
    name: 'unsupported deskhook.method',
    method: 'POST',
    path: '/x',
    body: env({ prompt: 'p', method: 'TRACE' }),
    headers: json,
    status: 400,
    code: 'INVALID_ENVELOPE',
    message: /deskhook\.method/,
  },
  {
    name: 'path not an instance of deskhook.path',
    method: 'POST',
    path: '/a/1/b',
    body: env({ prompt: 'p', path: '/a/:id/c' }),
    headers: json,
    status: 400,
    code: 'INVALID_PATH',
  },
  {
    name: 'wildcard in a job path',
    method: 'POST',
    path: '/x',
    body: env({ prompt: 'p', path: '/files/*' }),
    headers: json,
    status: 400,
    code: 'INVALID_PATH',
  },
  {
    name: 'duplicate parameter name',
    method: 'POST',
    path: '/x',
    body: env({ prompt: 'p', path: '/a/:id/b/:id' }),
    headers: json,
    status: 400,
    code: 'INVALID_PATH',
    message: /twice/,
  },
  // 400: reserved paths
  {
    name: 'teaching on /_jobs',
    method: 'POST',
    path: '/_jobs',
    body: env({ prompt: 'p' }),
    headers: json,
    status: 400,
    code: 'RESERVED_PATH',
  },
  {
    name: 'teaching on /_anything',
    method: 'POST',
    path: '/_mine',
    body: env({ prompt: 'p' }),
    headers: json,
    status: 400,
    code: 'RESERVED_PATH',
  },
  {
    name: 'teaching on /swagger.json',
    method: 'POST',
    path: '/swagger.json',
    body: env({ prompt: 'p' }),
    headers: json,
    status: 400,
    code: 'RESERVED_PATH',
  },
  {
    name: 'deskhook.path reserved',
    method: 'POST',
    path: '/ok',
    body: env({ prompt: 'p', path: '/_builds' }),
    headers: json,
    status: 400,
    code: 'RESERVED_PATH',
  },
  // 404
  {
    name: 'no job at the path',
    method: 'POST',
    path: '/nothing-here',
    status: 404,
    code: 'JOB_NOT_FOUND',
    extra: { allowedMethods: [] },
  },
  {
    name: 'job exists on another method',
    method: 'DELETE',
    path: '/customers',
    status: 404,
    code: 'JOB_NOT_FOUND',
    message: /has jobs on POST/,
    extra: { allowedMethods: ['POST'] },
  },
  { name: 'unknown reserved path', method: 'GET', path: '/_nope', status: 404, code: 'NOT_FOUND' },
  {
    name: 'unknown build',
    method: 'GET',
    path: '/_builds/0190f2c4-0000-7000-8000-000000000000',
    status: 404,
    code: 'BUILD_NOT_FOUND',
  },
  {
    name: 'unknown execution',
    method: 'GET',
    path: '/_executions/0190f2c4-0000-7000-8000-000000000000',
    status: 404,
    code: 'EXECUTION_NOT_FOUND',
  },
  // 409
  {
    name: 'learning job called live',
    method: 'POST',
    path: '/customers',
    body: '{"email":"a@b.c"}',
    headers: json,
    status: 409,
    code: 'JOB_NOT_LIVE',
  },
  {
    name: 'learning job with a path param called live',
    method: 'POST',
    path: '/customers/C-1',
    status: 409,
    code: 'JOB_NOT_LIVE',
  },
  {
    name: 'route with the same shape',
    method: 'POST',
    path: '/customers/:customerId',
    body: env({ prompt: 'p' }),
    headers: json,
    status: 409,
    code: 'ROUTE_CONFLICT',
  },
  // 413
  {
    name: 'declared Content-Length over the limit',
    method: 'POST',
    path: '/customers',
    body: JSON.stringify({ x: 'a'.repeat(70 * 1024) }),
    headers: json,
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  // 415
  {
    name: 'text/plain body',
    method: 'POST',
    path: '/customers',
    body: 'hello',
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'form body',
    method: 'POST',
    path: '/customers',
    body: 'a=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  // Bad answers to builds are in builds.error.test.ts.
]

describe('error scenarios', () => {
  for (const sc of scenarios) {
    test(`${sc.name} → ${sc.status} ${sc.code}`, async () => {
      const res = await s.call(sc.path, { method: sc.method ?? 'GET', body: sc.body, headers: sc.headers })
      const body = await res.json()
      expect({ status: res.status, code: body.error?.code }).toEqual({ status: sc.status, code: sc.code })
      expect(typeof body.error.message).toBe('string')
      expect(body.error.requestId).toBe(res.headers.get('x-request-id')!)
      if (sc.message) expect(body.error.message).toMatch(sc.message)
      if (sc.extra) expect(body.error).toMatchObject(sc.extra)
    })
  }

  test('+json media types are accepted', async () => {
    const res = await s.call('/customers', {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
    })
    expect(res.status).toBe(409)
  })

  test('a chunked body over the limit gets 413 without being buffered whole', async () => {
    const url = new URL(s.url)
    const status = await new Promise<string>((resolve, reject) => {
      const sock = connect(Number(url.port), url.hostname, () => {
        sock.write(
          `POST /customers HTTP/1.1\r\nHost: x\r\nx-api-key: ${s.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        )
        const chunk = 'a'.repeat(16 * 1024)
        // 8 × 16 KiB = 128 KiB against a 64 KiB limit; the server answers before the last chunk.
        for (let i = 0; i < 8; i++) sock.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
      })
      let data = ''
      sock.on('data', (d) => {
        data += d.toString()
        if (data.includes('\r\n\r\n')) {
          resolve(data.split('\r\n')[0]!)
          sock.destroy()
        }
      })
      sock.on('error', reject)
    })
    expect(status).toBe('HTTP/1.1 413 Payload Too Large')
  })

  test('a 5xx never leaks a stack trace', async () => {
    // Malformed percent-encoding in a path is a classic crash source.
    const res = await s.call('/customers/%E0%A4%A', { method: 'POST' })
    expect(res.status).toBeLessThan(500)
  })
})

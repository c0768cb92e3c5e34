import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { rawRequest } from '../helpers/raw-http.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Real servers and processes: room for a busy CI machine.
setDefaultTimeout(30_000)

// Issue 9 item 2: a Host header no URL can be made of got Bun's development error page (HTML
// with the stack, the working directory and source paths) from anyone. Now every such request
// gets deskhook's JSON error; nothing names a path. (The compiled binary: test/e2e/binary.test.ts.)
let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

for (const host of ['[::', ':::', 'a b', 'exa mple.com:80'])
  test(`Host “${host}” answers 400 INVALID_REQUEST in JSON, with no stack or path`, async () => {
    for (const method of ['GET /_health', 'POST /orders']) {
      const answer = await rawRequest(
        s.url,
        `${method} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close`,
        '{}',
      )
      expect(answer.status).toBe(400)
      expect(answer.headers['content-type']).toContain('application/json')
      const body = JSON.parse(answer.body)
      expect(body.error.code).toBe('INVALID_REQUEST')
      expect(body.error.requestId).toBeString()
      expect(answer.body).not.toContain(process.cwd())
      expect(answer.body).not.toContain(s.ctx.config.dataDir)
      expect(answer.body).not.toMatch(/\bat \S+\.ts|stack|<html/i)
    }
  })

test('a request without Host is refused without an error page', async () => {
  const answer = await rawRequest(s.url, 'GET /_health HTTP/1.1\r\nConnection: close')
  expect(answer.status).toBe(400)
  expect(answer.body).not.toMatch(/<html|stack/i)
})

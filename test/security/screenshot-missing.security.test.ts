import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { eventually } from '../helpers/cli.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// Issue 9 item 11 (and item 2's missing-screenshot case): a screenshot whose file is gone was a 500.
let s: TestServer
let desk: FakeRunner | undefined
beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 100 })
  await liveJob(s, 'POST', '/shots')
})
afterAll(async () => {
  desk?.close()
  await s.close()
})

test('a screenshot whose file is missing answers 404 NOT_FOUND in JSON', async () => {
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
  const ack = await (await s.call('/shots?async=1', { method: 'POST', json: { a: 1 } })).json()
  const done = await eventually(async () => {
    const e = await (await s.call(`/_executions/${ack.jobExecutionId}`)).json()
    return e.done && e
  })
  const path = done.steps[0].screenshotPath as string
  // The step row is written before its file: wait for the file to be served.
  await eventually(async () => (await s.call(path)).status === 200)
  rmSync(join(s.ctx.config.dataDir, 'screenshots', ack.jobExecutionId), { recursive: true, force: true })
  const res = await s.call(path)
  expect(res.status).toBe(404)
  expect(res.headers.get('content-type')).toContain('application/json')
  expect((await res.json()).error.code).toBe('NOT_FOUND')
})

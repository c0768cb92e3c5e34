import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

// A run that meets the app's sign-in form without the job's credentials answers 502
// SIGN_IN_REQUIRED, and its remedy names the job's own route (the agent knows none).
let s: TestServer

beforeAll(async () => {
  s = await startTestServer()
  await liveJob(s, 'POST', '/portal/tickets')
})
afterAll(() => s.close())

test('502 SIGN_IN_REQUIRED with the command that stores the job’s credentials', async () => {
  const desk = await FakeRunner.connect(
    s.url,
    { token: createEnrollmentToken(s.ctx).token },
    {
      outcome: () => ({
        status: 'failed',
        outcome: 'success',
        error: {
          code: 'SIGN_IN_REQUIRED',
          message:
            'The app shows its sign-in form, and this run has no credentials for it. Store them for the job with `deskhook jobs secret set <METHOD> <path> <name>`, for each of “username”, “password”, then call again.',
          step: 'Step 1',
        },
      }),
    },
  )
  try {
    const res = await s.call('/portal/tickets', { method: 'POST', json: { title: 'x' } })
    expect(res.status).toBe(502)
    const { error } = await res.json()
    expect(error.code).toBe('SIGN_IN_REQUIRED')
    expect(error.message).toContain('deskhook jobs secret set POST /portal/tickets <name>')
  } finally {
    desk.close()
  }
})

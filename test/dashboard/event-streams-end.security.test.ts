import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEnrollmentToken, enrollDesktop } from '../../src/modules/desktops/service.ts'
import { findUserByEmail } from '../../src/modules/users/service.ts'
import { cli } from '../helpers/cli.ts'
import { type DashboardClient, signIn } from '../helpers/dashboard.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/**
 * Issue 23, N10: a person's open event streams (live preview, build progress) end with their
 * session: removed (dashboard or CLI), a new password, or signed out. Others' streams go on.
 */

let server: TestServer
let admin: DashboardClient
let desktopId: string
let buildId: string

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
  const { token } = createEnrollmentToken(server.ctx)
  desktopId = enrollDesktop(server.ctx, token, {
    name: 'reception',
    platform: 'windows',
    driver: 'uia',
    agentVersion: 'test',
  }).desktop.id
  const jobId = await liveJob(server, 'POST', '/streamed')
  buildId = server.ctx.db.$client
    .query<{ id: string }, [string]>('SELECT id FROM builds WHERE job_id = ? LIMIT 1')
    .get(jobId)!.id
})
afterAll(() => server.close())

/** An open event stream: its events in order, and whether the server ended it. */
async function openStream(path: string, cookie: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { cookie, accept: 'text/event-stream' } })
  expect(res.status).toBe(200)
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  return {
    /** The next event's name (comments and the retry line skipped), or null once the stream ended. */
    async next(): Promise<string | null> {
      for (;;) {
        const end = buffered.indexOf('\n\n')
        if (end >= 0) {
          const block = buffered.slice(0, end)
          buffered = buffered.slice(end + 2)
          const lines = block.split('\n').filter((l) => !l.startsWith(':') && !l.startsWith('retry:'))
          if (!lines.length) continue
          return (
            lines
              .find((l) => l.startsWith('event:'))
              ?.slice(6)
              .trim() ?? 'message'
          )
        }
        const { value, done } = await reader.read()
        if (done) return null
        buffered += decoder.decode(value)
      }
    },
    /** Resolves when the server has ended the stream (events before that are skipped). */
    async ended(): Promise<true> {
      while ((await this.next()) !== null) {}
      return true
    },
    close: () => reader.cancel(),
  }
}

const person = async (email: string) => {
  const client = await signIn(server, { email, password: 'member-password-1', role: 'member' })
  return { client, id: findUserByEmail(server.ctx, email)!.id }
}

describe("a person's open event streams", () => {
  test('end when an admin removes them on the dashboard; the admin’s own stream goes on', async () => {
    const mo = await person('mo@example.com')
    const theirs = await openStream(`/_/desktops/${desktopId}/preview/events`, mo.client.cookie)
    const mine = await openStream(`/_/desktops/${desktopId}/preview/events`, admin.cookie)
    expect(await theirs.next()).toBe('offline')
    expect(await mine.next()).toBe('offline')
    const removed = await admin.post(`/_/settings/people/${mo.id}/remove`)
    expect(removed.status).toBe(303)
    expect(await theirs.ended()).toBe(true)
    // The admin's stream still delivers.
    server.ctx.events.emit('desktop.offline', desktopId)
    expect(await mine.next()).toBe('offline')
    await mine.close()
  }, 20_000)

  test('end when they are removed with `deskhook users remove` (another process)', async () => {
    const lu = await person('lu@example.com')
    const stream = await openStream(`/_/builds/${buildId}/events`, lu.client.cookie)
    expect(await stream.next()).toBe('build')
    const res = await cli(['users', 'remove', 'lu@example.com', '--yes', '--data', server.dataDir])
    expect(res.code).toBe(0)
    expect(await stream.ended()).toBe(true)
  }, 30_000)

  test('end when an admin gives them a new password, and when they sign out', async () => {
    const kim = await person('kim@example.com')
    const build = await openStream(`/_/builds/${buildId}/events`, kim.client.cookie)
    expect(await build.next()).toBe('build')
    const reset = await admin.post(`/_/settings/people/${kim.id}/password`, {
      password: 'another-password-2',
    })
    expect(reset.status).toBe(303)
    expect(await build.ended()).toBe(true)

    const kai = await person('kai@example.com')
    const preview = await openStream(`/_/desktops/${desktopId}/preview/events`, kai.client.cookie)
    expect(await preview.next()).toBe('offline')
    expect((await kai.client.post('/_/sign-out')).status).toBe(303)
    expect(await preview.ended()).toBe(true)
  }, 20_000)
})

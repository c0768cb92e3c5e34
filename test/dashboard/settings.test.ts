import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Browser } from 'playwright-core'
import { loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { DB_FILE, openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import {
  type ExecutionStatus,
  executionSteps,
  executions,
  TERMINAL_STATUSES,
  users,
  webhookDeliveries,
} from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { listKeys } from '../../src/modules/keys/service.ts'
import { getRetention, lastRetentionRun, setRetention } from '../../src/modules/retention/service.ts'
import { getWebhookSecret, signingSecrets } from '../../src/modules/webhooks/signing.ts'
import { RetentionTask } from '../../src/runtime/retention.ts'
import { eventually } from '../helpers/cli.ts'
import {
  type DashboardClient,
  launchBrowser,
  seriousViolations,
  signIn,
  signInPage,
} from '../helpers/dashboard.ts'
import { FakeRunner, TINY_JPEG } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts'

const DAY_MS = 24 * 60 * 60 * 1000
let server: TestServer & { logs: string[] }
let admin: DashboardClient
let member: DashboardClient
let desk: FakeRunner | undefined
let receiver: Receiver | undefined

beforeAll(async () => {
  server = await startTestServer(
    { callbackAllow: '127.0.0.1/32' },
    // No polling fallback: a resent delivery goes out only if the commit wakes the deliverer.
    { webhooks: { retryDelayMs: 30, timeoutMs: 2000, pollIntervalMs: 600_000 } },
  )
  admin = await signIn(server)
  member = await signIn(server, {
    email: 'member@example.com',
    password: 'member-password-1',
    role: 'member',
  })
})
afterAll(async () => {
  desk?.close()
  await receiver?.stop()
  await server.close()
})

const userId = (email: string) => server.ctx.db.select().from(users).where(eq(users.email, email)).get()!.id
const location = (res: Response) => res.headers.get('location') ?? ''
/** Every file SQLite may hold a value in (the WAL has recent pages until a checkpoint). */
const databaseBytes = () =>
  ['', '-wal', '-shm']
    .map((suffix) => join(server.dataDir, `${DB_FILE}${suffix}`))
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('')

describe('access', () => {
  test('a member gets 403 on every settings page and action, and changes nothing', async () => {
    const routes = server.routes.filter((r) => r.path === '/_/settings' || r.path.startsWith('/_/settings/'))
    expect(routes.filter((r) => r.method === 'GET').length).toBeGreaterThanOrEqual(6)
    expect(routes.filter((r) => r.method === 'POST').length).toBeGreaterThanOrEqual(11)
    const keysBefore = listKeys(server.ctx).length
    const adminId = userId('admin@example.com')
    const form = { name: 'sneaky', email: 'x@example.com', role: 'admin', password: 'long-enough-1' }
    for (const r of routes) {
      const path = r.path.replace(':id', r.path.includes('people') ? adminId : '1')
      const res = r.method === 'GET' ? await member.get(path) : await member.post(path, form)
      expect({ route: `${r.method} ${r.path}`, status: res.status }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 403,
      })
      expect(await res.text()).toContain('Only a workspace admin')
    }
    expect(listKeys(server.ctx).length).toBe(keysBefore)
    expect(server.ctx.db.select().from(users).where(eq(users.id, adminId)).get()!.role).toBe('admin')
    // Members are not shown the way in either.
    expect(await (await member.get('/_/')).text()).not.toContain('href="/_/settings"')
  }, 30_000)

  test('an admin reaches every settings page; a post without the CSRF token is refused', async () => {
    for (const path of [
      '/_/settings',
      '/_/settings/keys',
      '/_/settings/people',
      `/_/settings/people/${userId('member@example.com')}`,
      '/_/settings/webhooks',
      '/_/settings/deliveries',
      '/_/settings/retention',
    ]) {
      const res = await admin.get(path)
      expect({ path, status: res.status }).toEqual({ path, status: 200 })
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
      const html = await res.text()
      expect(html.match(/<h1[\s>]/g)?.length).toBe(1)
      expect(html).not.toMatch(/ style=|<style|<script>/)
    }
    const res = await admin.post('/_/settings/keys', { name: 'x', _csrf: 'wrong' })
    expect(res.status).toBe(403)
    expect(listKeys(server.ctx).some((k) => k.name === 'x')).toBe(false)
  }, 30_000)
})

describe('API keys', () => {
  test('a new key is shown once, works as x-api-key, and is in neither the logs nor the database', async () => {
    const res = await admin.post('/_/settings/keys', { name: 'ERP integration' })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(location(res)).toBe('')
    const html = await res.text()
    expect(html).toContain('will not be shown again')
    const key = /dh_[0-9A-Za-z]{49}/.exec(html)![0]
    expect(html).toContain(`data-copy="${key}"`)
    expect((await server.call('/_jobs', { key })).status).toBe(200)

    expect(server.logs.join('\n')).not.toContain(key)
    expect(server.logs.join('\n')).toContain('API key created')
    expect(databaseBytes()).not.toContain(key)

    const list = await (await admin.get('/_/settings/keys')).text()
    expect(list).toContain('ERP integration')
    expect(list).toContain(`${key.slice(0, 9)}…`)
    expect(list).not.toContain(key)
    expect(list).toMatch(/<form[^>]+\/revoke"[^>]+data-confirm="Revoke the key “ERP integration”/)
  }, 30_000)

  test('revoking a key stops it at once', async () => {
    const html = await (await admin.post('/_/settings/keys', { name: 'short-lived' })).text()
    const key = /dh_[0-9A-Za-z]{49}/.exec(html)![0]
    expect((await server.call('/_jobs', { key })).status).toBe(200)
    const id = listKeys(server.ctx).find((k) => k.name === 'short-lived')!.id
    const res = await admin.post(`/_/settings/keys/${id}/revoke`)
    expect(res.status).toBe(303)
    expect(location(res)).toBe(`/_/settings/keys?revoked=${id}`)
    expect((await server.call('/_jobs', { key })).status).toBe(401)
    const page = await (await admin.get(location(res))).text()
    expect(page).toContain('Revoked the key “short-lived”')
    expect((await admin.post('/_/settings/keys/nope/revoke')).status).toBe(404)
  }, 30_000)

  test('a key without a name is refused with the form again', async () => {
    const res = await admin.post('/_/settings/keys', { name: '   ' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('A key name must be 1–100 characters')
    expect(html).not.toMatch(/dh_[0-9A-Za-z]{49}/)
  }, 30_000)
})

describe('people', () => {
  test('add, sign in, change role, reset the password (sessions end), remove (signed out at once)', async () => {
    const added = await admin.post('/_/settings/people', {
      email: ' Ana@Example.com ',
      role: 'member',
      password: 'ana-password-1',
    })
    expect(added.status).toBe(303)
    const anaId = userId('ana@example.com')
    expect(location(added)).toBe(`/_/settings/people?added=${anaId}`)
    const list = await (await admin.get(location(added))).text()
    expect(list).toContain('Added ana@example.com as member.')
    expect(list).toContain(`href="/_/settings/people/${anaId}"`)

    const ana = await signIn(server, { email: 'ana@example.com', password: 'ana-password-1', role: 'member' })
    expect((await ana.get('/_/settings')).status).toBe(403)
    // Roles are read per request: the change applies to a session already open.
    expect((await admin.post(`/_/settings/people/${anaId}/role`, { role: 'admin' })).status).toBe(303)
    expect((await ana.get('/_/settings')).status).toBe(200)
    expect((await admin.post(`/_/settings/people/${anaId}/role`, { role: 'member' })).status).toBe(303)
    expect((await ana.get('/_/settings')).status).toBe(403)
    const badRole = await admin.post(`/_/settings/people/${anaId}/role`, { role: 'owner' })
    expect(badRole.status).toBe(400)
    expect(await badRole.text()).toContain('A role is one of: admin, member')

    const short = await admin.post(`/_/settings/people/${anaId}/password`, { password: 'short' })
    expect(short.status).toBe(400)
    expect(await short.text()).toContain('at least 10 characters')
    expect((await ana.get('/_/')).status).toBe(200)
    const reset = await admin.post(`/_/settings/people/${anaId}/password`, { password: 'ana-new-password' })
    expect(reset.status).toBe(303)
    expect(await (await admin.get(location(reset))).text()).toContain('Every session of theirs has ended')
    const after = await ana.get('/_/')
    expect(after.status).toBe(303)
    expect(location(after)).toStartWith('/_/sign-in')
    await expect(
      signIn(server, { email: 'ana@example.com', password: 'ana-password-1', role: 'member' }),
    ).rejects.toThrow('sign-in failed')
    const again = await signIn(server, {
      email: 'ana@example.com',
      password: 'ana-new-password',
      role: 'member',
    })
    expect((await again.get('/_/')).status).toBe(200)

    const page = await (await admin.get(`/_/settings/people/${anaId}`)).text()
    expect(page).toMatch(/<form[^>]+\/remove"[^>]+data-confirm="Remove ana@example.com\?/)
    const removed = await admin.post(`/_/settings/people/${anaId}/remove`)
    expect(removed.status).toBe(303)
    expect(await (await admin.get(location(removed))).text()).toContain('Removed ana@example.com')
    expect((await again.get('/_/')).status).toBe(303)
    expect((await admin.get(`/_/settings/people/${anaId}`)).status).toBe(404)
    // Nothing the form was given is logged but who did what.
    expect(server.logs.join('\n')).not.toContain('ana-new-password')
  }, 60_000)

  test('a bad person is refused with the form again, the email kept', async () => {
    const res = await admin.post('/_/settings/people', {
      email: 'not-an-email',
      role: 'member',
      password: 'x',
    })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('Enter an email address such as ana@example.com')
    expect(html).toContain('value="not-an-email"')
    const taken = await admin.post('/_/settings/people', {
      email: 'member@example.com',
      role: 'member',
      password: 'long-enough-1',
    })
    expect(taken.status).toBe(400)
    expect(await taken.text()).toContain('There is already a person with the email member@example.com')
  }, 30_000)

  test('the last admin can be neither demoted nor removed', async () => {
    const adminId = userId('admin@example.com')
    const demote = await admin.post(`/_/settings/people/${adminId}/role`, { role: 'member' })
    expect(demote.status).toBe(400)
    expect(await demote.text()).toContain('The workspace needs at least one admin')
    const remove = await admin.post(`/_/settings/people/${adminId}/remove`)
    expect(remove.status).toBe(400)
    expect(await remove.text()).toContain('The last admin cannot be removed')
    expect((await admin.get('/_/settings')).status).toBe(200)
  }, 30_000)
})

describe('webhook signing secret', () => {
  test('masked on the page, shown by Reveal on a no-store page, replaced by Rotate with the overlap shown', async () => {
    const secret = getWebhookSecret(server.ctx)
    const page = await (await admin.get('/_/settings/webhooks')).text()
    expect(page).not.toContain(secret)
    expect(page).toContain(`whsec_••••••••••••${secret.slice(-4)}`)
    expect(page).toMatch(/<form[^>]+\/rotate"[^>]+data-confirm=/)

    const revealed = await admin.post('/_/settings/webhooks/reveal')
    expect(revealed.status).toBe(200)
    expect(revealed.headers.get('cache-control')).toBe('no-store')
    expect(await revealed.text()).toContain(`data-copy="${secret}"`)

    const rotated = await admin.post('/_/settings/webhooks/rotate')
    expect(rotated.status).toBe(200)
    const fresh = getWebhookSecret(server.ctx)
    expect(fresh).not.toBe(secret)
    expect(signingSecrets(server.ctx)).toEqual([fresh, secret])
    const html = await rotated.text()
    expect(html).toContain(`data-copy="${fresh}"`)
    expect(html).toContain('The previous secret keeps signing too')
    const until = Date.parse(/keeps signing too[\s\S]*?datetime="([^"]+)"/.exec(html)![1]!)
    expect(Math.abs(until - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000)

    const after = await (await admin.get('/_/settings/webhooks')).text()
    expect(after).not.toContain(fresh)
    expect(after).toContain('The previous secret keeps signing too')
    const logs = server.logs.join('\n')
    expect(logs).not.toContain(secret)
    expect(logs).not.toContain(fresh)
  }, 30_000)
})

describe('webhook deliveries', () => {
  test('failed deliveries of a real async call are listed, and Resend sends one again at once', async () => {
    await liveJob(server, 'POST', '/echo')
    desk = await FakeRunner.connect(server.url, { token: createEnrollmentToken(server.ctx).token })
    receiver = startReceiver(() => new Response('down', { status: 500 }))
    const callback = encodeURIComponent(`${receiver.url}/hooks?token=abc`)
    const ack = await (
      await server.call(`/echo?async=1&callback_url=${callback}`, { method: 'POST', json: { a: 1 } })
    ).json()
    const rows = () =>
      server.ctx.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.jobExecutionId, ack.jobExecutionId))
        .all()
    // Three steps: started, 3 × (step started, completed), completed; each tried twice.
    await eventually(async () => rows().length === 8 && rows().every((d) => d.status === 'failed'), 15_000)
    const seq = rows()[0]!.executionId

    const page = await (await admin.get('/_/settings/deliveries?failed=1')).text()
    expect(page).toContain('execution_completed')
    expect(page).toContain(`127.0.0.1:${receiver.port}`)
    expect(page).not.toContain('token=abc')
    expect(page).toContain(`href="/_/runs/${seq}"`)
    expect(page).toContain('receiver answered 500')
    expect(page.match(/>Resend</g)?.length).toBe(8)
    // Newest first.
    expect(page.indexOf('execution_completed')).toBeLessThan(page.indexOf('execution_started'))

    receiver.respond = () => new Response('ok')
    const last = rows().at(-1)!
    const sentBefore = receiver.requests.length
    const res = await admin.post(`/_/settings/deliveries/${last.id}/resend`, { failed: '1' })
    expect(res.status).toBe(303)
    expect(location(res)).toBe(`/_/settings/deliveries?failed=1&resent=${last.id}`)
    const requests = await receiver.received(sentBefore + 1)
    expect(requests.at(-1)!.headers['webhook-id']).toBe(last.eventId)
    await eventually(async () => rows().at(-1)!.status === 'delivered')
    expect(rows().at(-1)!.attempts).toBe(1)
    const notice = await (await admin.get(location(res))).text()
    expect(notice).toContain(`Delivery ${last.id} is queued to be sent again`)
    // Delivered now: gone from the failed-only list, shown (with Resend) in the full one.
    expect(
      (await (await admin.get('/_/settings/deliveries?failed=1')).text()).match(/>Resend</g)?.length,
    ).toBe(7)
    expect(await (await admin.get('/_/settings/deliveries')).text()).toContain('badge-delivered')

    expect((await admin.post('/_/settings/deliveries/999999/resend')).status).toBe(404)
    expect((await admin.get('/_/settings/deliveries?before=abc')).status).toBe(400)
  }, 60_000)

  test('pages of 50, newest first, with links both ways', async () => {
    const now = new Date().toISOString()
    const ids = server.ctx.db
      .insert(webhookDeliveries)
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          jobExecutionId: `paging-${i}`,
          executionId: 1000 + i,
          eventId: crypto.randomUUID(),
          eventType: 'step_completed',
          url: `http://paging-${i}.example/hook`,
          payload: {},
          status: 'delivered' as const,
          attempts: 1,
          nextAttemptAt: now,
          createdAt: now,
          deliveredAt: now,
        })),
      )
      .returning({ id: webhookDeliveries.id })
      .all()
      .map((r) => r.id)
    const first = await (await admin.get('/_/settings/deliveries')).text()
    const hosts = (html: string) =>
      [...html.matchAll(/<td class="wrap">paging-(\d+)\.example/g)].map((m) => Number(m[1]))
    expect(hosts(first)).toEqual(Array.from({ length: 50 }, (_, i) => 59 - i))
    const older = /href="(\/_\/settings\/deliveries\?before=\d+)" rel="next"/.exec(first)![1]!
    const second = await (await admin.get(older.replaceAll('&amp;', '&'))).text()
    expect(hosts(second).slice(0, 10)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    const newer = /href="(\/_\/settings\/deliveries\?after=\d+)" rel="prev"/.exec(second)![1]!
    expect(hosts(await (await admin.get(newer)).text())).toEqual(hosts(first))
    expect(ids.length).toBe(60)
  }, 30_000)
})

describe('retention settings', () => {
  test('bad values are refused with a message and kept in the form; good ones are stored', async () => {
    for (const [form, message] of [
      [{ screenshotDays: '0', runDays: '180' }, 'Screenshots: enter a whole number of days from 1 to 3650'],
      [
        { screenshotDays: '30', runDays: '3651' },
        'Finished runs: enter a whole number of days from 1 to 3650',
      ],
      [{ screenshotDays: 'soon', runDays: '180' }, 'Screenshots: enter a whole number'],
      [{ screenshotDays: '2.5', runDays: '180' }, 'Screenshots: enter a whole number'],
      [{ screenshotDays: '30' }, 'Finished runs: enter a whole number'],
    ] as const) {
      const res = await admin.post('/_/settings/retention', form)
      expect(res.status).toBe(400)
      const html = await res.text()
      expect(html).toContain(message)
      expect(html).toContain(`value="${form.screenshotDays}"`)
    }
    expect(getRetention(server.ctx)).toEqual({ screenshotDays: 30, runDays: 180 })
    const ok = await admin.post('/_/settings/retention', { screenshotDays: '14', runDays: '90' })
    expect(ok.status).toBe(303)
    expect(getRetention(server.ctx)).toEqual({ screenshotDays: 14, runDays: 90 })
    const page = await (await admin.get('/_/settings/retention')).text()
    expect(page).toContain('value="14"')
    expect(page).toContain('value="90"')
    // Saving applies it: the server's task made a pass (nothing here is that old).
    await eventually(async () =>
      (await (await admin.get('/_/settings/retention')).text()).includes('0 finished runs'),
    )
    expect(server.ctx.db.select().from(executions).all().length).toBeGreaterThan(0)
  }, 30_000)
})

/** A run as the scheduler leaves one, dated in the past, with step screenshots on disk. */
interface PastRun {
  seq: number
  id: string
  folder: string
}

function addPastRun(
  ctx: AppContext,
  opts: { status: ExecutionStatus; queuedDaysAgo: number; endedDaysAgo?: number; screenshots?: number },
): PastRun {
  const now = ctx.clock.now().getTime()
  const at = (days: number) => new Date(now - days * DAY_MS).toISOString()
  const id = Bun.randomUUIDv7()
  const ended = TERMINAL_STATUSES.includes(opts.status) ? at(opts.endedDaysAgo ?? opts.queuedDaysAgo) : null
  const row = ctx.db
    .insert(executions)
    .values({
      id,
      jobId: 'retention-job',
      jobVersion: 1,
      status: opts.status,
      input: {},
      timeoutMs: 60_000,
      requestId: 'req',
      baseUrl: 'http://127.0.0.1',
      queuedAt: at(opts.queuedDaysAgo),
      startedAt: opts.status === 'queued' ? null : at(opts.queuedDaysAgo),
      finishedAt: ended,
    })
    .returning()
    .get()
  const folder = join(ctx.config.dataDir, 'screenshots', id)
  mkdirSync(folder, { recursive: true })
  const shots = opts.screenshots ?? 2
  for (let n = 1; n <= shots; n++) {
    ctx.db
      .insert(executionSteps)
      .values({
        executionSeq: row.seq,
        executionOrder: n,
        flowName: `Step ${n}`,
        totalSteps: shots,
        status: 'SUCCESS',
        screenshot: `${n}.jpg`,
        startedAt: row.queuedAt,
        finishedAt: ended,
      })
      .run()
    writeFileSync(join(folder, `${n}.jpg`), TINY_JPEG)
  }
  ctx.db
    .insert(webhookDeliveries)
    .values({
      jobExecutionId: id,
      executionId: row.seq,
      eventId: crypto.randomUUID(),
      eventType: 'execution_completed',
      url: 'http://receiver.example/hook',
      payload: {},
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: row.queuedAt,
      createdAt: row.queuedAt,
    })
    .run()
  return { seq: row.seq, id, folder }
}

const runRow = (ctx: AppContext, run: PastRun) =>
  ctx.db.select().from(executions).where(eq(executions.seq, run.seq)).get()
const shotsOf = (ctx: AppContext, run: PastRun) =>
  ctx.db
    .select({ screenshot: executionSteps.screenshot })
    .from(executionSteps)
    .where(eq(executionSteps.executionSeq, run.seq))
    .all()
    .map((s) => s.screenshot)
const deliveriesOf = (ctx: AppContext, run: PastRun) =>
  ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobExecutionId, run.id)).all().length

describe('the retention task', () => {
  test('removes old runs and old screenshots in small batches, and leaves recent, queued and running ones', async () => {
    const dir = tempDir()
    const db = openDatabase(dir.path)
    migrate(db.$client)
    const clock = { now: () => new Date('2031-06-01T12:00:00.000Z') }
    const ctx = createContext({
      config: loadConfig({ dataDir: dir.path }, {}),
      db,
      log: createLogger({ level: 'silent', format: 'json' }),
      clock,
    })
    try {
      // Accepted in this order, as a server would have (seq grows with time).
      const stuckRunning = addPastRun(ctx, { status: 'running', queuedDaysAgo: 400 })
      const stuckQueued = addPastRun(ctx, { status: 'queued', queuedDaysAgo: 399 })
      const old = (['succeeded', 'failed', 'partial', 'timed_out', 'cancelled'] as const).map((status, i) =>
        addPastRun(ctx, { status, queuedDaysAgo: 200 - i }),
      )
      // Accepted long ago, ended within the run retention: keeps its row, loses its screenshots.
      const longRun = addPastRun(ctx, { status: 'succeeded', queuedDaysAgo: 185, endedDaysAgo: 170 })
      const middle = [40, 39, 38].map((d) => addPastRun(ctx, { status: 'succeeded', queuedDaysAgo: d }))
      const recent = [2.5, 1.5].map((d) => addPastRun(ctx, { status: 'failed', queuedDaysAgo: d }))

      const task = new RetentionTask(ctx, { batchSize: 2 })
      const report = await task.runOnce()
      expect(report).toMatchObject({
        runs: 5,
        screenshots: 8,
        // Runs: 2 + 2 + 1; screenshots: 2 + 2.
        batches: 5,
        policy: { screenshotDays: 30, runDays: 180 },
      })
      expect(report.error).toBeUndefined()
      expect(lastRetentionRun(ctx)).toEqual(report)

      for (const run of old) {
        expect(runRow(ctx, run)).toBeUndefined()
        expect(shotsOf(ctx, run)).toEqual([])
        expect(deliveriesOf(ctx, run)).toBe(0)
        expect(existsSync(run.folder)).toBe(false)
      }
      for (const run of [longRun, ...middle]) {
        expect(runRow(ctx, run)?.status).toBe('succeeded')
        expect(shotsOf(ctx, run)).toEqual([null, null])
        expect(deliveriesOf(ctx, run)).toBe(1)
        expect(existsSync(run.folder)).toBe(false)
      }
      for (const run of [stuckRunning, stuckQueued, ...recent]) {
        expect(runRow(ctx, run)).toBeDefined()
        expect(shotsOf(ctx, run)).toEqual(['1.jpg', '2.jpg'])
        expect(existsSync(join(run.folder, '2.jpg'))).toBe(true)
      }

      // Nothing left to do: a second pass removes nothing; a shorter policy applies at the next pass.
      expect(await task.runOnce()).toMatchObject({ runs: 0, screenshots: 0, batches: 0 })
      setRetention(ctx, { screenshotDays: '1', runDays: '2' })
      expect(await task.runOnce()).toMatchObject({ runs: 5, screenshots: 2, batches: 4 })
      expect(runRow(ctx, recent[0]!)).toBeUndefined()
      expect(shotsOf(ctx, recent[1]!)).toEqual([null, null])
      expect(runRow(ctx, stuckRunning)?.status).toBe('running')
      expect(existsSync(stuckRunning.folder)).toBe(true)
      await task.stop()
    } finally {
      db.$client.close()
      dir.remove()
    }
  }, 30_000)

  test('the server runs it when an admin saves the policy, and the page shows what it removed', async () => {
    const s = await startTestServer()
    try {
      const boss = await signIn(s)
      const running = addPastRun(s.ctx, { status: 'running', queuedDaysAgo: 5 })
      const gone = addPastRun(s.ctx, { status: 'succeeded', queuedDaysAgo: 3 })
      const kept = addPastRun(s.ctx, { status: 'succeeded', queuedDaysAgo: 1.5 })
      const fresh = addPastRun(s.ctx, { status: 'succeeded', queuedDaysAgo: 0.1 })
      const res = await boss.post('/_/settings/retention', { screenshotDays: '1', runDays: '2' })
      expect(res.status).toBe(303)
      expect(location(res)).toBe('/_/settings/retention?done=saved')
      await eventually(async () => lastRetentionRun(s.ctx)?.policy.runDays === 2)
      expect(runRow(s.ctx, gone)).toBeUndefined()
      expect(existsSync(gone.folder)).toBe(false)
      expect(shotsOf(s.ctx, kept)).toEqual([null, null])
      expect(existsSync(kept.folder)).toBe(false)
      expect(shotsOf(s.ctx, fresh)).toEqual(['1.jpg', '2.jpg'])
      expect(runRow(s.ctx, running)?.status).toBe('running')
      expect(existsSync(join(running.folder, '1.jpg'))).toBe(true)
      const page = await (await boss.get('/_/settings/retention')).text()
      expect(page).toContain('2 screenshots · 1 finished run')
      expect(page).toContain('screenshots 1 d · runs 2 d')
      // The replay of a run whose screenshots went says so (a 404, never a 500).
      expect((await boss.get(`/_/runs/${kept.seq}`)).status).toBe(200)

      const before = lastRetentionRun(s.ctx)!.startedAt
      expect(location(await boss.post('/_/settings/retention/run'))).toBe(
        '/_/settings/retention?done=started',
      )
      await eventually(async () => lastRetentionRun(s.ctx)!.startedAt !== before)
      expect(lastRetentionRun(s.ctx)).toMatchObject({ runs: 0, screenshots: 0 })
    } finally {
      await s.close()
    }
  }, 30_000)
})

describe('in Chromium', () => {
  let browser: Browser | undefined
  afterAll(() => browser?.close())

  test('create a key, copy it, revoke it after confirming; every settings page passes axe at 1280 and 390 px', async () => {
    browser = await launchBrowser()
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const violations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
    })
    await signInPage(page, server)
    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()

    await page.getByRole('link', { name: 'API keys' }).first().click()
    await page.getByLabel('Name').fill('Browser key')
    await page.getByRole('button', { name: 'Create the key' }).click()
    await page.getByRole('heading', { name: 'API key created' }).waitFor()
    const key = (await page.locator('.copyable code').textContent())!
    expect(key).toMatch(/^dh_[0-9A-Za-z]{49}$/)
    const copy = page.getByRole('button', { name: 'Copy the new API key' })
    await copy.click()
    // Copied to the clipboard, or (without clipboard access) the key selected for Ctrl+C.
    await page.locator('.copyable button', { hasText: /Copied|Press Ctrl\+C/ }).waitFor()
    expect((await server.call('/_jobs', { key })).status).toBe(200)

    await page.goto(`${server.url}/_/settings/keys`)
    const revoke = page.getByRole('button', { name: /^Revoke key Browser key/ })
    page.once('dialog', (d) => d.dismiss())
    await revoke.click()
    // Dismissed: nothing was sent, the key still works.
    expect(page.url()).toBe(`${server.url}/_/settings/keys`)
    expect((await server.call('/_jobs', { key })).status).toBe(200)
    page.once('dialog', (d) => d.accept())
    await revoke.click()
    await page.getByText('Revoked the key “Browser key”').waitFor()
    expect((await server.call('/_jobs', { key })).status).toBe(401)

    const pages = [
      ['settings', '/_/settings'],
      ['settings-keys', '/_/settings/keys'],
      ['settings-people', '/_/settings/people'],
      ['settings-person', `/_/settings/people/${userId('member@example.com')}`],
      ['settings-webhooks', '/_/settings/webhooks'],
      ['settings-deliveries', '/_/settings/deliveries'],
      ['settings-retention', '/_/settings/retention'],
    ]
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
      for (const [name, path] of pages) {
        await page.goto(`${server.url}${path}`)
        expect({ path, width, problems: await seriousViolations(page) }).toEqual({
          path,
          width,
          problems: [],
        })
        // Wide tables scroll inside their frame; the page itself never scrolls sideways.
        expect({
          path,
          width,
          scroll: await page.evaluate(() => document.documentElement.scrollWidth),
        }).toEqual({
          path,
          width,
          scroll: width,
        })
        if (process.env.DESKHOOK_SCREENSHOTS)
          await page.screenshot({
            path: `${process.env.DESKHOOK_SCREENSHOTS}/${name}-${width}.png`,
            fullPage: true,
          })
      }
    }
    expect(violations).toEqual([])
    await page.close()
  }, 90_000)
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { builds, executions, jobs, samples } from '../../src/db/schema/index.ts'
import { completeBuild } from '../../src/modules/builds/lifecycle.ts'
import { addJobVersion, getJob } from '../../src/modules/jobs/service.ts'
import { recomputeStability } from '../../src/modules/jobs/stability.ts'
import { setJobSecret } from '../../src/modules/secrets/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { crmCreateCustomer } from '../fixtures/automations/crm.ts'
import { type DashboardClient, launchBrowser, signIn, signInPage } from '../helpers/dashboard.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let server: TestServer
let admin: DashboardClient
let jobId: string
let firstBuildId: string

/** A page's text as a person reads it: tags gone, entities decoded, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')

const TENANT_TOKEN = 'tenant-token-7f3a9c'
const PASSWORD = 'hunter2-do-not-show'
const PIN = '90210-pin'

/** Version 1 lacks the country step; version 2 (the fixture as written) adds it and waits longer. */
function versions(): [Automation, Automation] {
  const v2 = crmCreateCustomer('http://127.0.0.1:9')
  const v1 = structuredClone(v2)
  v1.steps = v1.steps.filter((s) => s.kind !== 'select')
  const wait = v2.steps.find((s) => s.kind === 'wait')!
  wait.timeoutMs = 20_000
  return [v1, v2]
}

const buildCount = () => server.ctx.db.select().from(builds).all().length

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
  const res = await server.call('/customers', {
    method: 'POST',
    headers: { 'x-tenant-token': TENANT_TOKEN },
    json: teachBody(
      {
        prompt: 'Create a customer in the CRM and return its id',
        keepHeaders: ['x-tenant-token'],
        expect: { customerId: { $type: 'string' } },
      },
      {
        email: 'ada@example.com',
        firstName: 'Ada',
        password: PASSWORD,
        pin: PIN,
        note: `token was ${TENANT_TOKEN}`,
      },
    ),
  })
  expect(res.status).toBe(202)
  const body = await res.json()
  jobId = body.jobId
  firstBuildId = body.buildId
  setJobSecret(server.ctx, 'POST', '/customers', 'pin', PIN)
  const [v1, v2] = versions()
  addJobVersion(server.ctx, jobId, v1)
  addJobVersion(server.ctx, jobId, v2)
}, 60_000)
afterAll(() => server.close())

describe('the job page', () => {
  test('shows the URL and key, the score explained, steps in plain words, the version diff and the OpenAPI operation', async () => {
    const res = await admin.get(`/_/jobs/${jobId}`)
    expect(res.status).toBe(200)
    const html = await res.text()
    const text = textOf(html)
    expect(text).toContain(`${server.url}/customers`)
    expect(text).toContain(server.key.slice(0, 8))
    expect(text).not.toContain(server.key)
    expect(text).toContain('POST /customers')
    expect(text).toContain('learning')
    // The score's parts: one sample taught, none passing yet (its build is queued).
    expect(text).toContain('N = 0 passing samples of 1 taught')
    expect(text).toMatch(/unsorted 1 0 pending sample/)
    // The draft's steps, in words.
    expect(text).toContain('Click “New customer”')
    expect(text).toContain('Type {email} into “Email”')
    expect(text).toContain('Choose {country} in “Country”')
    expect(text).toContain('Click “Save”')
    expect(text).toContain('Read the text matching /Customer C-\\d+ created/ as customerId')
    expect(text).toContain('Scenario “duplicate customer”')
    // What changed from v1 to v2, by step name.
    expect(text).toContain('Added: Choose "Country"')
    expect(text).toContain('Changed: Wait for the result')
    expect(text).toContain('First version')
    expect(text).toContain('Make version 1 live')
    // The operation as /swagger.json serves it.
    expect(text).toContain(`"x-deskhook-job-id": "${jobId}"`)
    expect(text).toContain('"operationId": "postCustomers"')
    // Its build, linked.
    expect(html).toContain(`href="/_/builds/${firstBuildId}"`)
  })

  test('secret values never reach the page: job secrets, kept headers and credential-looking members are masked', async () => {
    const html = await (await admin.get(`/_/jobs/${jobId}`)).text()
    for (const secret of [TENANT_TOKEN, PASSWORD, PIN]) expect(html).not.toContain(secret)
    const text = textOf(html)
    expect(text).toContain('"password": "•••"')
    expect(text).toContain('"pin": "•••"')
    // A secret's value repeated in another member is scrubbed too.
    expect(text).toContain('"note": "token was •••"')
    expect(text).toContain('"email": "ada@example.com"')
    expect(text).toContain('Secrets: pin, x-tenant-token')
  })

  test('Promote to live, roll back to version 1, Back to learning', async () => {
    const promote = await admin.post(`/_/jobs/${jobId}/promote`)
    expect(promote.status).toBe(303)
    expect(promote.headers.get('location')).toBe(`/_/jobs/${jobId}?done=promoted`)
    expect(getJob(server.ctx, jobId)).toMatchObject({ mode: 'live', liveVersion: 2 })
    const live = textOf(await (await admin.get(`/_/jobs/${jobId}?done=promoted`)).text())
    expect(live).toContain('is live: calls run version 2')
    expect(live).toContain('Back to learning')
    expect(live).toContain('Roll back to version 1')
    expect(live).not.toContain('Promote to live')

    const rollback = await admin.post(`/_/jobs/${jobId}/rollback`, { version: '1' })
    expect(rollback.status).toBe(303)
    expect(getJob(server.ctx, jobId)).toMatchObject({ mode: 'live', liveVersion: 1, draftVersion: 2 })
    const rolled = textOf(await (await admin.get(`/_/jobs/${jobId}`)).text())
    // Version 1's steps now show, and version 2 can be promoted again.
    expect(rolled).toContain('(version 1, live)')
    expect(rolled).not.toContain('Choose {country} in “Country”')
    expect(rolled).toContain('Promote version 2 to live')

    const demote = await admin.post(`/_/jobs/${jobId}/demote`)
    expect(demote.status).toBe(303)
    expect(getJob(server.ctx, jobId)!.mode).toBe('learning')
    expect(textOf(await (await admin.get(`/_/jobs/${jobId}?done=demoted`)).text())).toContain(
      'is back to learning',
    )
  })

  test('rolling back to a version that does not exist, or to no number, is a clear 4xx', async () => {
    const unknown = await admin.post(`/_/jobs/${jobId}/rollback`, { version: '9' })
    expect(unknown.status).toBe(404)
    expect(textOf(await unknown.text())).toContain('POST /customers has no version 9; its versions are 1, 2')
    const junk = await admin.post(`/_/jobs/${jobId}/rollback`, { version: 'latest' })
    expect(junk.status).toBe(400)
    expect(textOf(await junk.text())).toContain('Choose a version to roll back to')
    expect((await admin.get('/_/jobs/no-such-job')).status).toBe(404)
  })

  test('a member may promote and demote (only keys, people, desktops and settings are admin-only)', async () => {
    const member = await signIn(server, { email: 'member@example.com', role: 'member' })
    expect((await member.get(`/_/jobs/${jobId}`)).status).toBe(200)
    expect((await member.post(`/_/jobs/${jobId}/promote`)).status).toBe(303)
    expect(getJob(server.ctx, jobId)).toMatchObject({ mode: 'live', liveVersion: 2 })
    expect((await member.post(`/_/jobs/${jobId}/demote`)).status).toBe(303)
    expect(getJob(server.ctx, jobId)!.mode).toBe('learning')
  })

  test('a promote without the CSRF token changes nothing', async () => {
    const res = await admin.post(`/_/jobs/${jobId}/promote`, { _csrf: 'forged' })
    expect(res.status).toBe(403)
    expect(getJob(server.ctx, jobId)!.mode).toBe('learning')
  })
})

describe('Teach another sample', () => {
  test('makes a teach call: a sample and a queued build, then the build page', async () => {
    const before = buildCount()
    const res = await admin.post(`/_/jobs/${jobId}/teach`, {
      input: '{"email": "grace@example.com", "deskhook": {"teach": false}}',
      expect: '{"customerId": {"$type": "string"}}',
      prompt: '',
    })
    expect(res.status).toBe(303)
    const buildId = res.headers.get('location')!.replace('/_/builds/', '')
    expect(buildCount()).toBe(before + 1)
    const build = server.ctx.db.select().from(builds).where(eq(builds.id, buildId)).get()!
    expect(build).toMatchObject({ jobId, status: 'queued' })
    const sample = server.ctx.db.select().from(samples).where(eq(samples.id, build.sampleId)).get()!
    // The input as the trigger host would store it: no envelope, `_http` with the route.
    expect(sample.input).toEqual({
      email: 'grace@example.com',
      _http: { method: 'POST', path: '/customers', params: {}, headers: {} },
    })
    expect(sample.expect).toEqual({ customerId: { $type: 'string' } })
    // The job's description stays (no prompt given).
    expect(getJob(server.ctx, jobId)!.prompt).toBe('Create a customer in the CRM and return its id')
  })

  test('invalid JSON gives the form again with where it went wrong (400), and teaches nothing', async () => {
    const before = buildCount()
    const res = await admin.post(`/_/jobs/${jobId}/teach`, { input: '{\n  "email": \n}', expect: '' })
    expect(res.status).toBe(400)
    const text = textOf(await res.text())
    expect(text).toContain('Line 3, column 1: Unexpected }: a value is missing')
    expect(buildCount()).toBe(before)
    const arr = await admin.post(`/_/jobs/${jobId}/teach`, { input: '[1, 2]' })
    expect(arr.status).toBe(400)
    expect(textOf(await arr.text())).toContain('This must be a JSON object')
    const badExpect = await admin.post(`/_/jobs/${jobId}/teach`, { input: '{}', expect: "{'id': 1}" })
    expect(badExpect.status).toBe(400)
    expect(textOf(await badExpect.text())).toContain('Property names use double quotes')
    expect(buildCount()).toBe(before)
  })
})

describe('Create a job', () => {
  test('the form makes the teaching call and opens the build page', async () => {
    const page = await admin.get('/_/jobs/new')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('data-json-input')
    expect(html).toContain('<option value="PATCH"')
    const before = buildCount()
    const res = await admin.post('/_/jobs/new', {
      prompt: 'Look an order up by its number and return its status',
      method: 'GET',
      path: '/orders/:number',
      input: '{"verbose": true}',
      expect: '',
      desktop: 'office-pc',
    })
    expect(res.status).toBe(303)
    const buildId = res.headers.get('location')!.replace('/_/builds/', '')
    expect(buildCount()).toBe(before + 1)
    const build = server.ctx.db.select().from(builds).where(eq(builds.id, buildId)).get()!
    expect(build.desktop).toBe('office-pc')
    const job = server.ctx.db.select().from(jobs).where(eq(jobs.id, build.jobId)).get()!
    expect(job).toMatchObject({
      method: 'GET',
      path: '/orders/:number',
      mode: 'learning',
      prompt: 'Look an order up by its number and return its status',
    })

    // Teaching that job another sample on a concrete path fills its parameter, as a call would.
    const again = await admin.post(`/_/jobs/${job.id}/teach`, { path: '/orders/A-17', input: '{}' })
    expect(again.status).toBe(303)
    const second = server.ctx.db
      .select()
      .from(builds)
      .where(eq(builds.id, again.headers.get('location')!.replace('/_/builds/', '')))
      .get()!
    const sample = server.ctx.db.select().from(samples).where(eq(samples.id, second.sampleId)).get()!
    expect(sample.input._http).toEqual({
      method: 'GET',
      path: '/orders/A-17',
      params: { number: 'A-17' },
      headers: {},
    })
    const wrong = await admin.post(`/_/jobs/${job.id}/teach`, { path: '/invoices/1', input: '{}' })
    expect(wrong.status).toBe(400)
    expect(textOf(await wrong.text())).toContain('is not an instance of')
  })

  test('a path that already has a job adds a sample to it', async () => {
    const jobsBefore = server.ctx.db.select().from(jobs).all().length
    const samplesBefore = server.ctx.db.select().from(samples).where(eq(samples.jobId, jobId)).all().length
    const res = await admin.post('/_/jobs/new', {
      prompt: 'Create a customer in the CRM and return its id',
      method: 'POST',
      path: '/customers',
      input: '{"email": "linus@example.com"}',
    })
    expect(res.status).toBe(303)
    expect(server.ctx.db.select().from(jobs).all().length).toBe(jobsBefore)
    expect(server.ctx.db.select().from(samples).where(eq(samples.jobId, jobId)).all().length).toBe(
      samplesBefore + 1,
    )
  })

  test('reserved paths, bad paths and bad JSON come back as the form with the message (400)', async () => {
    const before = buildCount()
    const form = { prompt: 'Do something', method: 'POST', input: '{}' }
    for (const path of ['/_jobs', '/swagger.json', '/_/jobs']) {
      const res = await admin.post('/_/jobs/new', { ...form, path })
      expect(res.status).toBe(400)
      const text = textOf(await res.text())
      expect(text).toContain(
        `${path} is reserved: paths starting with /_ and /swagger.json belong to deskhook itself`,
      )
      // The values are kept.
      expect(text).toContain('Do something')
    }
    const noSlash = await admin.post('/_/jobs/new', { ...form, path: 'customers' })
    expect(noSlash.status).toBe(400)
    expect(textOf(await noSlash.text())).toContain('is not a valid job path: it must start with /')
    const badJson = await admin.post('/_/jobs/new', { ...form, path: '/tickets', input: '{"a": 1,}' })
    expect(badJson.status).toBe(400)
    expect(textOf(await badJson.text())).toContain(
      'Line 1, column 9: A trailing comma before } is not allowed',
    )
    const noPrompt = await admin.post('/_/jobs/new', { ...form, prompt: ' ', path: '/tickets' })
    expect(noPrompt.status).toBe(400)
    expect(textOf(await noPrompt.text())).toContain('Describe what the job should do')
    const badMethod = await admin.post('/_/jobs/new', { ...form, method: 'TRACE', path: '/tickets' })
    expect(badMethod.status).toBe(400)
    expect(buildCount()).toBe(before)
  })
})

describe('the score explained, after a build and a live run', () => {
  test('passing samples, scenarios and live results show as the numbers the score comes from', async () => {
    // The first sample's build succeeds (as the builder reports it), then one live run succeeds.
    completeBuild(server.ctx, firstBuildId, 'desktop-1', {
      automation: versions()[1],
      scenario: 'main',
      reverified: [],
    })
    const taught = server.ctx.db.select().from(samples).where(eq(samples.jobId, jobId)).all().length
    const now = new Date().toISOString()
    const run = server.ctx.db
      .insert(executions)
      .values({
        id: crypto.randomUUID(),
        jobId,
        jobVersion: 3,
        status: 'succeeded',
        input: { email: 'ada@example.com' },
        timeoutMs: 60_000,
        requestId: 'req-1',
        baseUrl: server.url,
        scenario: 'main',
        queuedAt: now,
        finishedAt: now,
      })
      .returning({ seq: executions.seq })
      .get()
    const score = recomputeStability(server.ctx, jobId)
    // N = 1, S = 1 → 50; pass rate (1 + 1) / (taught + 1).
    const rate = 2 / (taught + 1)
    expect(score).toBe(Math.round(50 * rate * 100) / 100)
    const text = textOf(await (await admin.get(`/_/jobs/${jobId}`)).text())
    expect(text).toContain(`Stability ${score} / 100`)
    expect(text).toContain(
      `N = 1 passing sample of ${taught} taught; S = 1 scenario with a passing sample → 50`,
    )
    expect(text).toContain(`(1 passing samples + 1 good live runs) / (${taught} samples + 1 live results`)
    expect(text).toContain(`= ${score}`)
    expect(text).toMatch(new RegExp(`main 1 1 succeeded live run #${run.seq}`))
    expect(text).toContain(`Run #${run.seq} succeeded`)
    expect(text).toContain('Added: Choose "Country"')
  })
})

test('in Chromium, the JSON field checks as you type and holds the submit button while it is wrong', async () => {
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text())
    })
    page.on('pageerror', (e) => problems.push(e.message))
    await signInPage(page, server)
    await page.goto(`${server.url}/_/jobs/new`)
    const input = page.getByLabel('Example input (JSON)')
    const submit = page.getByRole('button', { name: 'Teach it' })
    const status = page.locator('#input-status')
    await status.filter({ hasText: 'Valid JSON object' }).waitFor()
    expect(await submit.isEnabled()).toBe(true)

    await input.fill('{\n  "email": "ada@example.com",\n  name: "Ada"\n}')
    await status.filter({ hasText: 'Line 3, column 3' }).waitFor()
    expect(await status.textContent()).toContain('Expected a property name in double quotes')
    expect(await submit.isDisabled()).toBe(true)
    expect(await input.getAttribute('aria-invalid')).toBe('true')

    await input.fill('{\n  "email": "ada@example.com",\n  "name": "Ada"\n}')
    await status.filter({ hasText: 'Valid JSON object' }).waitFor()
    expect(await submit.isEnabled()).toBe(true)

    await page.getByLabel('What should the job do?').fill('Create a contact in the address book')
    await page.getByLabel('Path').fill('/contacts')
    await submit.click()
    await page.waitForURL(/\/_\/builds\/[0-9a-f-]+$/)
    expect(server.ctx.db.select().from(jobs).where(eq(jobs.path, '/contacts')).get()?.mode).toBe('learning')
    // No CSP violation or script error on the way.
    expect(problems).toEqual([])
  } finally {
    await browser.close()
  }
}, 60_000)

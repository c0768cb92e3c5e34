import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { builds, executionSteps, executions, jobs } from '../../src/db/schema/index.ts'
import { createKey } from '../../src/modules/keys/service.ts'
import { TINY_JPEG } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/**
 * A key limited to some jobs reads and changes only what belongs to them: another job's job,
 * execution, build (and everything under them) answers exactly like an unknown id, so the key
 * cannot even learn that the id exists; listings leave the other jobs out.
 */
let s: TestServer
/** `/customers/*`, every scope. */
let crm: string
/** One route, one id: reaches the job `POST /customers/:id` (it may call it with 42) and nothing else. */
let one: string
const ids = { job: { mine: '', theirs: '' }, exec: { mine: '', theirs: '' }, build: { mine: '', theirs: '' } }
type Kind = keyof typeof ids
const UNKNOWN: Record<Kind, string> = {
  job: '0190b6a8-0000-7000-8000-00000000aaaa',
  exec: '0190b6a8-0000-7000-8000-00000000bbbb',
  build: '0190b6a8-0000-7000-8000-00000000cccc',
}

async function queuedRun(path: string): Promise<string> {
  const res = await s.call(`${path}?async=1`, { method: 'POST' })
  expect(res.status).toBe(202)
  const { jobExecutionId } = await res.json()
  // A replayed step with its screenshot, as a desktop leaves one.
  const row = s.ctx.db.select().from(executions).where(eq(executions.id, jobExecutionId)).get()!
  s.ctx.db
    .insert(executionSteps)
    .values({
      executionSeq: row.seq,
      executionOrder: 1,
      flowName: 'Step 1',
      totalSteps: 1,
      status: 'SUCCESS',
      screenshot: 'step-1.jpg',
      startedAt: row.queuedAt,
    })
    .run()
  const dir = join(s.dataDir, 'screenshots', jobExecutionId)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'step-1.jpg'), TINY_JPEG)
  return jobExecutionId
}

const buildOf = (jobId: string) =>
  s.ctx.db.select({ id: builds.id }).from(builds).where(eq(builds.jobId, jobId)).get()!.id

beforeAll(async () => {
  s = await startTestServer()
  ids.job.mine = await liveJob(s, 'POST', '/customers/:id')
  ids.job.theirs = await liveJob(s, 'POST', '/orders/:id')
  await liveJob(s, 'GET', '/customers/:id')
  ids.exec.mine = await queuedRun('/customers/1')
  ids.exec.theirs = await queuedRun('/orders/1')
  ids.build.mine = buildOf(ids.job.mine)
  ids.build.theirs = buildOf(ids.job.theirs)
  crm = createKey(s.ctx, { name: 'crm', jobs: '/customers/*' }).key
  one = createKey(s.ctx, { name: 'one', jobs: 'POST /customers/42' }).key
})
afterAll(() => s.close())

type Init = RequestInit & { json?: unknown }
/** Every route under an id, with a request that is otherwise harmless. */
const PROBES: [label: string, kind: Kind, path: (id: string) => string, init?: Init][] = [
  ['GET /_executions/:id', 'exec', (id) => `/_executions/${id}`],
  ['GET /_executions/:id/steps/1/screenshot', 'exec', (id) => `/_executions/${id}/steps/1/screenshot`],
  ['GET /_builds/:id', 'build', (id) => `/_builds/${id}`],
  [
    'POST /_builds/:id/answers',
    'build',
    (id) => `/_builds/${id}/answers`,
    { method: 'POST', json: { questionId: 'q', answer: 'a' } },
  ],
  [
    'POST /_builds/:id/answers with a bad body',
    'build',
    (id) => `/_builds/${id}/answers`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' },
  ],
  ['POST /_builds/:id/recordings', 'build', (id) => `/_builds/${id}/recordings`, { method: 'POST' }],
  ['GET /_builds/:id/recordings/:rid', 'build', (id) => `/_builds/${id}/recordings/r1`],
  [
    'GET /_builds/:id/recordings/:rid/screenshots/1',
    'build',
    (id) => `/_builds/${id}/recordings/r1/screenshots/1`,
  ],
  [
    'POST /_builds/:id/recordings/:rid/stop',
    'build',
    (id) => `/_builds/${id}/recordings/r1/stop`,
    { method: 'POST' },
  ],
  [
    'POST /_builds/:id/recordings/:rid/input',
    'build',
    (id) => `/_builds/${id}/recordings/r1/input`,
    { method: 'POST', json: { kind: 'click', x: 1, y: 1 } },
  ],
  ['DELETE /_jobs/:id/samples/:sid', 'job', (id) => `/_jobs/${id}/samples/s1`, { method: 'DELETE' }],
]

async function answer(path: string, init: Init | undefined, key: string) {
  const res = await s.call(path, { ...init, key })
  const type = res.headers.get('content-type') ?? ''
  const body = type.includes('json') ? await res.json() : await res.text()
  if (body?.error) delete body.error.requestId
  return { status: res.status, body }
}

describe('by id: another job’s resources answer like unknown ids', () => {
  for (const [label, kind, path, init] of PROBES) {
    test(`${label}: theirs is indistinguishable from unknown`, async () => {
      const unknown = await answer(path(UNKNOWN[kind]), init, crm)
      expect(unknown.status).toBe(404)
      const theirs = await answer(path(ids[kind].theirs), init, crm)
      expect(theirs.status).toBe(404)
      expect(JSON.stringify(theirs.body)).toBe(
        JSON.stringify(unknown.body).replaceAll(UNKNOWN[kind], ids[kind].theirs),
      )
    })

    test(`${label}: mine answers the limited key as it answers a key for every job`, async () => {
      const full = await answer(path(ids[kind].mine), init, s.key)
      const limited = await answer(path(ids[kind].mine), init, crm)
      expect(limited).toEqual(full)
    })
  }

  test('a key for every job still sees the other job’s execution, build and screenshot', async () => {
    for (const key of [s.key, createKey(s.ctx, { name: 'reader', scopes: 'read' }).key]) {
      expect((await s.call(`/_executions/${ids.exec.theirs}`, { key })).status).toBe(200)
      expect((await s.call(`/_executions/${ids.exec.theirs}/steps/1/screenshot`, { key })).status).toBe(200)
      expect((await s.call(`/_builds/${ids.build.theirs}`, { key })).status).toBe(200)
    }
  })

  test('the limited key reads its own execution in full, screenshot included', async () => {
    const res = await s.call(`/_executions/${ids.exec.mine}`, { key: crm })
    expect(res.status).toBe(200)
    expect((await res.json()).steps).toHaveLength(1)
    const shot = await s.call(`/_executions/${ids.exec.mine}/steps/1/screenshot`, { key: crm })
    expect(Buffer.from(await shot.arrayBuffer())).toEqual(TINY_JPEG)
  })

  test('DELETE /_jobs/:id of another job: the unknown-id 404, and the job stays', async () => {
    const unknown = await answer(`/_jobs/${UNKNOWN.job}`, { method: 'DELETE' }, crm)
    const theirs = await answer(`/_jobs/${ids.job.theirs}`, { method: 'DELETE' }, crm)
    expect(theirs.status).toBe(404)
    expect(theirs.body).toEqual({
      error: {
        ...unknown.body.error,
        message: unknown.body.error.message.replace(UNKNOWN.job, ids.job.theirs),
      },
    })
    expect(s.ctx.db.select().from(jobs).where(eq(jobs.id, ids.job.theirs)).get()).toBeDefined()
  })
})

describe('listings', () => {
  const listed = async (key: string) =>
    ((await (await s.call('/_jobs', { key })).json()).jobs as { method: string; path: string }[])
      .map((j) => `${j.method} ${j.path}`)
      .sort()

  test('GET /_jobs lists only the jobs the key’s patterns reach', async () => {
    expect(await listed(crm)).toEqual(['GET /customers/:id', 'POST /customers/:id'])
    // `POST /customers/42` may call the job `POST /customers/:id` (with 42): that one, not the GET.
    expect(await listed(one)).toEqual(['POST /customers/:id'])
    expect(await listed(s.key)).toEqual(['GET /customers/:id', 'POST /customers/:id', 'POST /orders/:id'])
  })

  test('the one-id key reads its job’s execution and nothing of /orders', async () => {
    expect((await s.call(`/_executions/${ids.exec.mine}`, { key: one })).status).toBe(200)
    expect((await s.call(`/_executions/${ids.exec.theirs}`, { key: one })).status).toBe(404)
  })

  test('/_metrics (every job’s calls by path) is for keys without job limits', async () => {
    const res = await s.call('/_metrics', { key: crm })
    expect(res.status).toBe(403)
    const body = await res.json()
    expect(body.error.code).toBe('FORBIDDEN_SCOPE')
    expect(body.error.allowed.jobs).toEqual(['/customers/*'])
    expect((await s.call('/_metrics', { key: s.key })).status).toBe(200)
    const reader = createKey(s.ctx, { name: 'prometheus', scopes: 'read' }).key
    expect((await s.call('/_metrics', { key: reader })).status).toBe(200)
  })
})

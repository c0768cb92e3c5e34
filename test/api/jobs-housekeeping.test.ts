import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { builds, jobs, jobVersions, samples } from '../../src/db/schema/index.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer()
})
afterAll(() => s.close())

/** Teaches one sample on the route; returns what the teaching call answered. */
async function teach(path: string, sample: Record<string, unknown> = {}) {
  const res = await s.call(path, {
    method: 'POST',
    json: teachBody({ prompt: `Job at ${path}` }, sample),
  })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; sampleId: string; buildId: string }
}

/** What a finished build leaves on a sample (the builder is not what these tests are about). */
const mark = (sampleId: string, status: 'passing' | 'failing', buildStatus: 'succeeded' | 'failed') => {
  s.ctx.db.update(samples).set({ status, scenario: 'main' }).where(eq(samples.id, sampleId)).run()
  s.ctx.db.update(builds).set({ status: buildStatus }).where(eq(builds.sampleId, sampleId)).run()
}

const scoreOf = async (jobId: string) => {
  const { jobs: list } = await (await s.call('/_jobs')).json()
  return list.find((j: { id: string }) => j.id === jobId) as { stabilityScore: number; scenarios: unknown[] }
}

describe('DELETE /_jobs/<id>/samples/<sid>', () => {
  test('removing a failed sample takes it out of the stability score at once', async () => {
    const a = await teach('/hk/score', { email: 'ok@example.com' })
    const b = await teach('/hk/score', { email: 'broken@example.com' })
    expect(b.jobId).toBe(a.jobId)
    mark(a.sampleId, 'passing', 'succeeded')
    mark(b.sampleId, 'failing', 'failed')
    // What the build worker does after each build.
    const { recomputeStability } = await import('../../src/modules/jobs/stability.ts')
    expect(recomputeStability(s.ctx, a.jobId)).toBe(25) // one passing of two: 50 × ½

    const res = await s.call(`/_jobs/${a.jobId}/samples/${b.sampleId}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ jobId: a.jobId, sampleId: b.sampleId, stabilityScore: 50 })
    const view = await scoreOf(a.jobId)
    expect(view.stabilityScore).toBe(50)
    expect(view.scenarios).toEqual([{ name: 'main', samples: 1, passing: 1 }])
    // The sample and its build are gone.
    expect(s.ctx.db.select().from(samples).where(eq(samples.id, b.sampleId)).get()).toBeUndefined()
    expect((await s.call(`/_builds/${b.buildId}`)).status).toBe(404)
    // Removing it again: it is not there any more.
    const again = await s.call(`/_jobs/${a.jobId}/samples/${b.sampleId}`, { method: 'DELETE' })
    expect(again.status).toBe(404)
    expect((await again.json()).error.code).toBe('SAMPLE_NOT_FOUND')
  })

  test('allowed while a build of the sample is under way: the build goes with it', async () => {
    // The build worker stopping it is test/api/build-cancel.test.ts; here, the records.
    for (const status of ['exploring', 'waiting_for_answer', 'verifying'] as const) {
      const t = await teach(`/hk/running-${status}`)
      s.ctx.db.update(builds).set({ status }).where(eq(builds.id, t.buildId)).run()
      const res = await s.call(`/_jobs/${t.jobId}/samples/${t.sampleId}`, { method: 'DELETE' })
      expect(res.status).toBe(200)
      expect((await s.call(`/_builds/${t.buildId}`)).status).toBe(404)
    }
  })

  test('unknown job, unknown sample, a sample of another job: 404; no key: 401', async () => {
    const t = await teach('/hk/owner')
    const other = await teach('/hk/other')
    const cases: [string, number, string][] = [
      [`/_jobs/nope/samples/${t.sampleId}`, 404, 'JOB_NOT_FOUND'],
      [`/_jobs/${t.jobId}/samples/nope`, 404, 'SAMPLE_NOT_FOUND'],
      [`/_jobs/${other.jobId}/samples/${t.sampleId}`, 404, 'SAMPLE_NOT_FOUND'],
    ]
    for (const [path, status, code] of cases) {
      const res = await s.call(path, { method: 'DELETE' })
      expect([path, res.status, (await res.json()).error.code]).toEqual([path, status, code])
    }
    const anon = await s.call(`/_jobs/${t.jobId}/samples/${t.sampleId}`, { method: 'DELETE', key: null })
    expect(anon.status).toBe(401)
    expect(s.ctx.db.select().from(samples).where(eq(samples.id, t.sampleId)).get()).toBeDefined()
  })
})

describe('a removed sample whose submit went through', () => {
  test('is still known as submitted when the same values are sent again', async () => {
    const { recordProgress } = await import('../../src/modules/builds/service.ts')
    const { submittedBefore } = await import('../../src/modules/builds/submitted.ts')
    const pressed = await teach('/hk/submitted', { title: 'Groceries' })
    const untouched = await teach('/hk/submitted', { title: 'Chores' })
    recordProgress(s.ctx, pressed.buildId, {
      stage: 'observe',
      message: 'The submit led to a dialog: “Saved”',
    })
    mark(pressed.sampleId, 'failing', 'failed')
    mark(untouched.sampleId, 'failing', 'failed')
    for (const t of [pressed, untouched])
      expect((await s.call(`/_jobs/${t.jobId}/samples/${t.sampleId}`, { method: 'DELETE' })).status).toBe(200)

    const again = await teach('/hk/submitted', { title: 'Groceries' })
    const input = (title: string) => ({
      title,
      _http: { method: 'POST', path: '/hk/submitted', params: {}, headers: { 'x-other': '1' } },
    })
    expect(submittedBefore(s.ctx, again.jobId, again.buildId, input('Groceries'))).toBe(true)
    expect(submittedBefore(s.ctx, again.jobId, again.buildId, input('Chores'))).toBe(false)
  })
})

describe('DELETE /_jobs/<id>', () => {
  test('removes job, samples, versions and builds; the route stops answering at once', async () => {
    const t = await teach('/hk/gone/:id', {})
    // A concrete sample of it (no prompt of its own, so it joins the job).
    const sample = await s.call('/hk/gone/7', { method: 'POST', json: teachBody({}) })
    expect((await sample.json()).jobId).toBe(t.jobId)
    const { addJobVersion } = await import('../../src/modules/jobs/service.ts')
    addJobVersion(s.ctx, t.jobId, { version: 1, app: {}, steps: [], scenarios: [] })

    const res = await s.call(`/_jobs/${t.jobId}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      deleted: {
        id: t.jobId,
        method: 'POST',
        path: '/hk/gone/:id',
        samples: 2,
        versions: 1,
        builds: 2,
        queuedRuns: 0,
      },
    })
    for (const table of [samples, jobVersions, builds])
      expect(s.ctx.db.select().from(table).where(eq(table.jobId, t.jobId)).all()).toEqual([])
    expect(s.ctx.db.select().from(jobs).where(eq(jobs.id, t.jobId)).get()).toBeUndefined()
    const call = await s.call('/hk/gone/8', { method: 'POST', json: {} })
    expect(call.status).toBe(404)
    expect((await call.json()).error.code).toBe('JOB_NOT_FOUND')
    expect((await s.call(`/_jobs/${t.jobId}`, { method: 'DELETE' })).status).toBe(404)
    // The path can be taught afresh.
    const fresh = await teach('/hk/gone/:id')
    expect(fresh.jobId).not.toBe(t.jobId)
  })

  test('queued runs end cancelled with JOB_DELETED, and a waiting caller is answered', async () => {
    const jobId = await liveJob(s, 'POST', '/hk/queued')
    // No desktop is online: the runs wait in the queue.
    const queued = await (await s.call('/hk/queued?async=1', { method: 'POST', json: { n: 1 } })).json()
    expect(queued.status).toBe('queued')
    const held = s.call('/hk/queued', { method: 'POST', json: { n: 2 } }) // a sync caller, held

    const res = await s.call(`/_jobs/${jobId}`, { method: 'DELETE' })
    expect((await res.json()).deleted.queuedRuns).toBeGreaterThanOrEqual(1)
    const sync = await held
    expect(sync.status).toBe(502)
    expect((await sync.json()).error.code).toBe('JOB_DELETED')
    const polled = await (await s.call(queued.resultPath)).json()
    expect(polled).toMatchObject({ status: 'cancelled', done: true, error: { code: 'JOB_DELETED' } })
  })
})

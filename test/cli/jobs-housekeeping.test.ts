import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { builds, samples } from '../../src/db/schema/index.ts'
import { recomputeStability } from '../../src/modules/jobs/stability.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { liveJob } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer({ watchIntervalMs: 20 })
})
afterAll(() => s.close())

async function teach(path: string, sample: Record<string, unknown> = {}) {
  const res = await s.call(path, { method: 'POST', json: teachBody({ prompt: `Job at ${path}` }, sample) })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; sampleId: string; buildId: string }
}

describe('deskhook jobs remove-sample', () => {
  test('removes a failed sample from another process; the score follows at once', async () => {
    const ok = await teach('/cli-hk/orders', { ref: 'A-1' })
    const bad = await teach('/cli-hk/orders', { ref: 'A-2' })
    s.ctx.db
      .update(samples)
      .set({ status: 'passing', scenario: 'main' })
      .where(eq(samples.id, ok.sampleId))
      .run()
    s.ctx.db.update(samples).set({ status: 'failing' }).where(eq(samples.id, bad.sampleId)).run()
    s.ctx.db.update(builds).set({ status: 'failed' }).where(eq(builds.jobId, ok.jobId)).run()
    expect(recomputeStability(s.ctx, ok.jobId)).toBe(25)

    const r = await cli([
      'jobs',
      'remove-sample',
      'post',
      '/cli-hk/orders',
      bad.sampleId,
      '--data',
      s.dataDir,
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      `Removed sample ${bad.sampleId} from POST /cli-hk/orders; stability score now 50.\n`,
    )
    const { jobs } = await (await s.call('/_jobs')).json()
    expect(jobs.find((j: { id: string }) => j.id === ok.jobId).stabilityScore).toBe(50)

    const again = await cli([
      'jobs',
      'remove-sample',
      'POST',
      '/cli-hk/orders',
      bad.sampleId,
      '--data',
      s.dataDir,
    ])
    expect(again.code).toBe(3)
    expect(again.stderr).toContain(`POST /cli-hk/orders has no sample with id ${bad.sampleId}`)
  })

  test('removes a sample while its build waits for an answer: the build goes with it', async () => {
    const t = await teach('/cli-hk/busy')
    s.ctx.db.update(builds).set({ status: 'waiting_for_answer' }).where(eq(builds.id, t.buildId)).run()
    const r = await cli([
      'jobs',
      'remove-sample',
      'POST',
      '/cli-hk/busy',
      t.sampleId,
      '--json',
      '--data',
      s.dataDir,
    ])
    expect(r.code).toBe(0)
    expect(s.ctx.db.select().from(builds).where(eq(builds.id, t.buildId)).all()).toEqual([])
  })
})

describe('deskhook jobs delete', () => {
  test('asks for --yes when it cannot ask; an unknown job is exit 3', async () => {
    await teach('/cli-hk/keep')
    const r = await cli(['jobs', 'delete', 'POST', '/cli-hk/keep', '--data', s.dataDir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('add --yes to confirm')
    expect(
      (await s.call('/cli-hk/keep', { method: 'POST', json: { deskhook: { teach: true } } })).status,
    ).toBe(202)
    const missing = await cli(['jobs', 'delete', 'POST', '/cli-hk/never', '--yes', '--data', s.dataDir])
    expect(missing.code).toBe(3)
    expect(missing.stderr).toContain('No job is registered on POST /cli-hk/never')
  })

  test('the running server drops the route and cancels the queued runs', async () => {
    await liveJob(s, 'POST', '/cli-hk/live')
    const queued = await (await s.call('/cli-hk/live?async=1', { method: 'POST', json: { n: 1 } })).json()
    expect(queued.status).toBe('queued')

    const r = await cli(['jobs', 'delete', 'post', '/cli-hk/live', '--yes', '--json', '--data', s.dataDir])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).deleted).toMatchObject({
      method: 'POST',
      path: '/cli-hk/live',
      samples: 1,
      versions: 1,
      builds: 1,
      queuedRuns: 1,
    })
    // Gone on the server in the other process, with no restart.
    await eventually(async () => (await s.call('/cli-hk/live', { method: 'POST', json: {} })).status === 404)
    const polled = await eventually(async () => {
      const body = await (await s.call(queued.resultPath)).json()
      return body.status === 'cancelled' && body
    })
    expect(polled.error.code).toBe('JOB_DELETED')
    expect((await cli(['jobs', 'list', '--json', '--data', s.dataDir])).stdout).not.toContain('/cli-hk/live')
  })
})

describe('deskhook jobs delete while the server is down', () => {
  test('the queued runs end cancelled as soon as the server starts', async () => {
    const dir = tempDir()
    try {
      const first = await startTestServer({}, { dataDir: dir.path })
      const key = first.key
      await liveJob(first, 'POST', '/cli-hk/offline')
      const queued = await (await first.call('/cli-hk/offline?async=1', { method: 'POST', json: {} })).json()
      await first.close()

      const r = await cli(['jobs', 'delete', 'POST', '/cli-hk/offline', '--yes', '--data', dir.path])
      expect(r.stdout).toContain('1 queued run(s) will end cancelled')

      const second = await startTestServer({}, { dataDir: dir.path })
      try {
        // No desktop is online: only the start-up check can end it.
        const polled = await eventually(async () => {
          const body = await (await second.call(queued.resultPath, { key })).json()
          return body.status === 'cancelled' && body
        })
        expect(polled.error.code).toBe('JOB_DELETED')
      } finally {
        await second.close()
      }
    } finally {
      dir.remove()
    }
  })
})

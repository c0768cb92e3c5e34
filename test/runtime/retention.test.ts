import { afterEach, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { type ConfigFlags, loadConfig } from '../../src/config/index.ts'
import { type AppContext, createContext } from '../../src/context.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import {
  type ExecutionStatus,
  executionSteps,
  executions,
  TERMINAL_STATUSES,
} from '../../src/db/schema/index.ts'
import { createLogger } from '../../src/lib/logger.ts'
import { recordStep } from '../../src/modules/executions/service.ts'
import {
  getJobRetention,
  parseRetentionAge,
  setJobRetention,
} from '../../src/modules/retention/job-overrides.ts'
import { RetentionTask } from '../../src/runtime/retention.ts'
import { DiskGuard } from '../../src/runtime/storage-guard.ts'
import { cli } from '../helpers/cli.ts'
import { signIn } from '../helpers/dashboard.ts'
import { TINY_JPEG } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer } from '../helpers/test-server.ts'

const DAY_MS = 24 * 60 * 60 * 1000
const NOW = new Date('2031-06-01T12:00:00.000Z')

interface Harness {
  ctx: AppContext
  logs: string[]
  close(): void
}
const open: Harness[] = []
afterEach(() => {
  for (const h of open.splice(0)) h.close()
})

/** A context on a fresh temp database with a fixed clock (no real time passes in these tests). */
function harness(flags: ConfigFlags = {}): Harness {
  const dir = tempDir()
  const db = openDatabase(dir.path)
  migrate(db.$client)
  const logs: string[] = []
  const destination = { write: (l: string) => logs.push(l) > 0 } as unknown as NodeJS.WritableStream
  const ctx = createContext({
    config: loadConfig({ dataDir: dir.path, ...flags }, {}),
    db,
    log: createLogger({ level: 'info', format: 'json', destination }),
    clock: { now: () => NOW },
  })
  const h = {
    ctx,
    logs,
    close() {
      db.$client.close()
      dir.remove()
    },
  }
  open.push(h)
  return h
}

interface PastRun {
  seq: number
  id: string
  folder: string
}

/** A finished (or active) run dated in the past, with two step screenshots on disk. */
function addRun(
  ctx: AppContext,
  opts: { jobId?: string; status?: ExecutionStatus; daysAgo: number; now?: number },
): PastRun {
  const status = opts.status ?? 'succeeded'
  const at = new Date((opts.now ?? ctx.clock.now().getTime()) - opts.daysAgo * DAY_MS).toISOString()
  const id = Bun.randomUUIDv7()
  const ended = TERMINAL_STATUSES.includes(status) ? at : null
  const row = ctx.db
    .insert(executions)
    .values({
      id,
      jobId: opts.jobId ?? 'job-a',
      jobVersion: 1,
      status,
      input: {},
      timeoutMs: 60_000,
      requestId: 'req',
      baseUrl: 'http://127.0.0.1',
      queuedAt: at,
      startedAt: status === 'queued' ? null : at,
      finishedAt: ended,
    })
    .returning()
    .get()
  const folder = join(ctx.config.dataDir, 'screenshots', id)
  mkdirSync(folder, { recursive: true })
  for (let n = 1; n <= 2; n++) {
    ctx.db
      .insert(executionSteps)
      .values({
        executionSeq: row.seq,
        executionOrder: n,
        flowName: `Step ${n}`,
        totalSteps: 2,
        status: 'SUCCESS',
        screenshot: `${n}.jpg`,
        startedAt: at,
        finishedAt: ended,
      })
      .run()
    writeFileSync(join(folder, `${n}.jpg`), TINY_JPEG)
  }
  return { seq: row.seq, id, folder }
}

const rowOf = (ctx: AppContext, run: PastRun) =>
  ctx.db.select().from(executions).where(eq(executions.seq, run.seq)).get()
const shotsOf = (ctx: AppContext, run: PastRun) =>
  ctx.db
    .select({ s: executionSteps.screenshot })
    .from(executionSteps)
    .where(eq(executionSteps.executionSeq, run.seq))
    .all()
    .map((r) => r.s)

describe('the retention task', () => {
  test('removes old runs and screenshots in batches (rows and files) and keeps young and active ones', async () => {
    const { ctx } = harness()
    const active = addRun(ctx, { status: 'running', daysAgo: 300 })
    const old = [200, 199, 198, 197, 196].map((d) => addRun(ctx, { daysAgo: d }))
    const middle = [60, 45, 31].map((d) => addRun(ctx, { daysAgo: d }))
    const young = [29, 1].map((d) => addRun(ctx, { daysAgo: d }))

    const task = new RetentionTask(ctx, { batchSize: 2 })
    const report = await task.runOnce()
    // 5 runs in batches of 2 (3 batches); 3 runs' screenshots in batches of 2 (2 batches).
    expect(report).toMatchObject({ runs: 5, screenshots: 6, batches: 5 })
    for (const run of old) {
      expect(rowOf(ctx, run)).toBeUndefined()
      expect(existsSync(run.folder)).toBe(false)
    }
    for (const run of middle) {
      expect(rowOf(ctx, run)?.status).toBe('succeeded')
      expect(shotsOf(ctx, run)).toEqual([null, null])
      expect(existsSync(run.folder)).toBe(false)
    }
    for (const run of [active, ...young]) {
      expect(rowOf(ctx, run)).toBeDefined()
      expect(shotsOf(ctx, run)).toEqual(['1.jpg', '2.jpg'])
      expect(existsSync(join(run.folder, '1.jpg'))).toBe(true)
    }
    await task.stop()
  })

  test("a job's own ages win over the workspace's, shorter or longer, and clearing them restores the default", async () => {
    const { ctx } = harness()
    setJobRetention(ctx, 'short', { screenshotDays: 7, runDays: 30 })
    setJobRetention(ctx, 'long', { runDays: 365 })
    // Accepted in time order, as a server would have (seq grows with time).
    const longGone = addRun(ctx, { jobId: 'long', daysAgo: 400 })
    const longKept = addRun(ctx, { jobId: 'long', daysAgo: 300 })
    const plainGone = addRun(ctx, { jobId: 'plain', daysAgo: 200 })
    const shortOld = addRun(ctx, { jobId: 'short', daysAgo: 40 })
    const plainKept = addRun(ctx, { jobId: 'plain', daysAgo: 40 })
    const shortShots = addRun(ctx, { jobId: 'short', daysAgo: 10 })
    const shortYoung = addRun(ctx, { jobId: 'short', daysAgo: 3 })

    const task = new RetentionTask(ctx, { batchSize: 2 })
    const report = await task.runOnce()
    expect(report).toMatchObject({ runs: 3 })
    for (const gone of [shortOld, longGone, plainGone]) expect(rowOf(ctx, gone)).toBeUndefined()
    expect(shotsOf(ctx, shortShots)).toEqual([null, null])
    expect(shotsOf(ctx, shortYoung)).toEqual(['1.jpg', '2.jpg'])
    // "long" keeps runs for a year; its screenshots follow the workspace's 30 days.
    expect(rowOf(ctx, longKept)).toBeDefined()
    expect(shotsOf(ctx, longKept)).toEqual([null, null])
    expect(rowOf(ctx, plainKept)).toBeDefined()

    // Back to the workspace policy: the long job's 300-day-old run goes at the next pass.
    expect(setJobRetention(ctx, 'long', { runDays: null })).toEqual({})
    expect(getJobRetention(ctx, 'long')).toEqual({})
    expect(await task.runOnce()).toMatchObject({ runs: 1 })
    expect(rowOf(ctx, longKept)).toBeUndefined()
    await task.stop()
  })

  test('ages are given as 7d, 2w or days; "default" clears; anything else is refused', () => {
    expect(parseRetentionAge('--runs', '7d')).toBe(7)
    expect(parseRetentionAge('--runs', '2w')).toBe(14)
    expect(parseRetentionAge('--runs', '30')).toBe(30)
    expect(parseRetentionAge('--runs', 'default')).toBeNull()
    for (const bad of ['0d', '-1d', '7h', 'week', '99999d'])
      expect(() => parseRetentionAge('--runs', bad)).toThrow(/--runs/)
  })

  test('stop() during a pass waits for the batch in flight, and nothing is removed after it', async () => {
    const { ctx } = harness()
    for (let i = 0; i < 60; i++) addRun(ctx, { daysAgo: 300 - i })
    const task = new RetentionTask(ctx, { batchSize: 2 })
    const pass = task.runOnce()
    // Let a few batches go, then stop in the middle of the pass.
    const count = () => ctx.db.select().from(executions).all().length
    for (let i = 0; i < 10_000 && count() === 60; i++) await new Promise((r) => setImmediate(r))
    await task.stop()
    const report = await Promise.race([pass, Promise.resolve('pending' as const)])
    expect(report).not.toBe('pending')
    const left = ctx.db.select().from(executions).all().length
    expect(left).toBeGreaterThan(0)
    expect(left).toBeLessThan(60)
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r))
    expect(ctx.db.select().from(executions).all().length).toBe(left)
  })
})

describe("the job's page", () => {
  test("sets and clears the job's own retention", async () => {
    const s = await startTestServer()
    try {
      const jobId = await liveJob(s, 'POST', '/kept')
      const admin = await signIn(s)
      const res = await admin.post(`/_/jobs/${jobId}/retention`, { screenshots: '7d', runs: '' })
      expect(res.status).toBe(303)
      expect(getJobRetention(s.ctx, jobId)).toEqual({ screenshotDays: 7 })
      const page = await (await admin.get(`/_/jobs/${jobId}?done=retention`)).text()
      expect(page).toContain('value="7d"')
      expect(page).toContain('saved')
      const bad = await admin.post(`/_/jobs/${jobId}/retention`, { screenshots: '7h', runs: '' })
      expect(bad.status).toBe(400)
      expect(getJobRetention(s.ctx, jobId)).toEqual({ screenshotDays: 7 })
      await admin.post(`/_/jobs/${jobId}/retention`, { screenshots: 'default', runs: '' })
      expect(getJobRetention(s.ctx, jobId)).toEqual({})
    } finally {
      await s.close()
    }
  }, 30_000)
})

describe('deskhook jobs retention', () => {
  test('sets, shows and clears the ages of one job', async () => {
    const s = await startTestServer()
    try {
      const jobId = await liveJob(s, 'POST', '/cli-kept')
      const set = await cli([
        'jobs',
        'retention',
        'post',
        '/cli-kept',
        '--screenshots',
        '7d',
        '--runs',
        '30d',
        '--json',
        '--data',
        s.dataDir,
      ])
      expect(set.code).toBe(0)
      expect(JSON.parse(set.stdout)).toMatchObject({
        jobId,
        own: { screenshotDays: 7, runDays: 30 },
        inForce: { screenshotDays: 7, runDays: 30 },
        workspace: { screenshotDays: 30, runDays: 180 },
      })
      const shown = await cli([
        'jobs',
        'retention',
        'POST',
        '/cli-kept',
        '--runs',
        'default',
        '--data',
        s.dataDir,
      ])
      expect(shown.code).toBe(0)
      expect(shown.stdout).toContain('step screenshots: 7 days')
      expect(shown.stdout).toContain('finished runs: 180 days (workspace setting)')
      const bad = await cli(['jobs', 'retention', 'POST', '/cli-kept', '--runs', '3h', '--data', s.dataDir])
      expect(bad.code).not.toBe(0)
      expect(bad.stderr).toContain('--runs')
    } finally {
      await s.close()
    }
  }, 30_000)
})

describe('calls during a sweep', () => {
  test('keep flowing: the pass yields between small batches', async () => {
    const s = await startTestServer()
    try {
      const now = Date.now()
      for (let i = 0; i < 600; i++) addRun(s.ctx, { daysAgo: 400 - i / 100, now })
      const task = new RetentionTask(s.ctx, { batchSize: 10 })
      let sweeping = true
      const pass = task.runOnce().finally(() => {
        sweeping = false
      })
      let answered = 0
      let slowest = 0
      while (sweeping) {
        const t0 = performance.now()
        const res = await s.call('/_health', { key: null })
        slowest = Math.max(slowest, performance.now() - t0)
        expect(res.status).toBeLessThan(500)
        if (sweeping) answered++
      }
      const report = await pass
      expect(report.runs).toBe(600)
      expect(report.batches).toBeGreaterThanOrEqual(60)
      // Calls were answered while the sweep ran, none of them held behind it for long.
      expect(answered).toBeGreaterThan(5)
      expect(slowest).toBeLessThan(1000)
      await task.stop()
    } finally {
      await s.close()
    }
  }, 60_000)
})

describe('the disk-space guard', () => {
  const step = (n: number) => ({
    executionOrder: n,
    flowName: `Step ${n}`,
    totalSteps: 2,
    status: 'SUCCESS' as const,
    startedAt: NOW.toISOString(),
    finishedAt: NOW.toISOString(),
    screenshot: Buffer.from(TINY_JPEG).toString('base64'),
  })

  test('under --min-free-disk new screenshots are refused with one warning; the run is still recorded', async () => {
    const { ctx, logs } = harness({ minFreeDisk: 1024 ** 3 })
    let free = 10 * 1024 ** 3
    const guard = new DiskGuard(ctx, { probe: () => free })
    guard.start()
    const run = addRun(ctx, { status: 'running', daysAgo: 0 })
    const row = rowOf(ctx, run)!

    expect(ctx.storage.lowDisk).toBeUndefined()
    free = 512 * 1024 ** 2
    guard.check()
    guard.check()
    expect(ctx.storage.lowDisk).toContain('min-free-disk')
    expect(logs.filter((l) => l.includes('disk space low')).length).toBe(1)

    recordStep(ctx, row, 'finished', { ...step(3), executionOrder: 3 })
    ctx.writes.flush()
    const third = ctx.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionSeq, run.seq))
      .all()
      .find((s) => s.executionOrder === 3)
    expect(third?.status).toBe('SUCCESS')
    expect(third?.screenshot).toBeNull()
    expect(existsSync(join(run.folder, '3.jpg'))).toBe(false)

    free = 2 * 1024 ** 3
    guard.check()
    expect(ctx.storage.lowDisk).toBeUndefined()
    expect(logs.some((l) => l.includes('disk space recovered'))).toBe(true)
    recordStep(ctx, row, 'finished', { ...step(4), executionOrder: 4 })
    ctx.writes.flush()
    const fourth = ctx.db
      .select()
      .from(executionSteps)
      .where(eq(executionSteps.executionSeq, run.seq))
      .all()
      .find((s) => s.executionOrder === 4)
    expect(fourth?.screenshot).toBe('4.jpg')
    await guard.stop()
  })

  test('a failing probe is logged and the guard goes on; 0 turns the guard off', async () => {
    const { ctx, logs } = harness({ minFreeDisk: 1024 })
    let calls = 0
    const guard = new DiskGuard(ctx, {
      probe: () => {
        calls++
        if (calls === 1) throw new Error('statfs exploded')
        return 0
      },
    })
    guard.start()
    expect(logs.some((l) => l.includes('free-space check failed'))).toBe(true)
    guard.check()
    expect(ctx.storage.lowDisk).toBeDefined()
    await guard.stop()

    const off = harness({ minFreeDisk: 0 })
    const probed: string[] = []
    const idle = new DiskGuard(off.ctx, {
      probe: (d) => {
        probed.push(d)
        return 0
      },
    })
    idle.start()
    expect(probed).toEqual([])
    expect(off.ctx.storage.lowDisk).toBeUndefined()
    await idle.stop()
  })
})

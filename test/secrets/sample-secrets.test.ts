import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { BuildRequest, BuildResult } from '../../src/builder/contract.ts'
import type { AppContext } from '../../src/context.ts'
import { loadJobPage } from '../../src/dashboard/pages/job-data.ts'
import { openDatabase } from '../../src/db/client.ts'
import { migrate } from '../../src/db/migrate.ts'
import { migrations } from '../../src/db/migrations/index.ts'
import { jobSubmittedValues, samples } from '../../src/db/schema/index.ts'
import { type Build, getBuild } from '../../src/modules/builds/service.ts'
import { callerValues, submittedBefore } from '../../src/modules/builds/submitted.ts'
import { exportJob, importJob } from '../../src/modules/jobs/export-import.ts'
import { formatJobFile } from '../../src/modules/jobs/job-file.ts'
import { removeSample } from '../../src/modules/jobs/remove.ts'
import { getJob } from '../../src/modules/jobs/service.ts'
import { openApiCache } from '../../src/modules/openapi/service.ts'
import { openSampleInput } from '../../src/modules/secrets/sample-secrets.ts'
import type { AgentHub } from '../../src/runtime/agent-hub/index.ts'
import { type BuildFn, BuildWorker } from '../../src/runtime/build-worker/index.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { tempDir } from '../helpers/temp-dir.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * A taught sample's secret inputs: stored masked, their values sealed for the builder, which
 * gets them opened to verify the sample again; everything shown or exported keeps the mask.
 */
const PW1 = 'Otter-Lantern-51!'
const PW2 = 'Birch-Cobalt-77?'
const PIN = 'Pin-Quartz-4821'
const MASK = '•••'

const dirs: { remove(): void }[] = []
const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close()
})
afterAll(() => {
  for (const d of dirs) d.remove()
})

/** The key each data dir's first start made (later starts on it make none). */
const apiKeys = new Map<string, string>()

async function server(dataDir?: string): Promise<TestServer> {
  const s = await startTestServer({}, dataDir ? { dataDir } : {})
  open.push(s)
  if (!apiKeys.has(s.dataDir)) apiKeys.set(s.dataDir, s.key)
  return { ...s, call: (path, init = {}) => s.call(path, { key: apiKeys.get(s.dataDir), ...init }) }
}

/**
 * A build worker whose desktop and builder are stand-ins: it records what each build is given and
 * passes every sample. For a job on `/portal/pin` it types the sample's `pin` into a password field,
 * as the builder would on a sign-in form.
 */
function fakeBuilds(ctx: AppContext) {
  const requests: BuildRequest[] = []
  const field = (ref: string, name: string, inputType?: string) => ({
    ref,
    role: 'textbox' as const,
    name,
    states: [],
    children: [],
    ...(inputType ? { inputType } : {}),
  })
  const hub = {
    onlineDesktops: () => [{ id: 'desk-1', name: 'test-pc', busy: false }],
    reserve: () => true,
    release: () => {},
    rpc: async (_desktop: string, method: string) =>
      method === 'snapshot'
        ? {
            window: { id: 'w', title: 'Portal' },
            root: { ...field('r0', 'Portal'), role: 'window', children: [field('r1', 'PIN', 'password')] },
            capturedAt: new Date().toISOString(),
          }
        : {},
  } as unknown as AgentHub
  const build: BuildFn = async (port, io, req): Promise<BuildResult> => {
    requests.push(req)
    // A builder says what it replays: what the build records must not keep those values.
    io.progress(
      'verify',
      `Replaying ${JSON.stringify([req.sample.input, ...req.previous.map((p) => p.input)])}`,
    )
    if (req.route?.path === '/portal/pin') {
      await port.snapshot('w')
      await port.act('w', { kind: 'fill', ref: 'r1', value: String(req.sample.input.pin) })
    }
    return {
      ok: true,
      automation: noopAutomation(),
      scenario: 'main',
      outcome: 'success',
      reverified: req.previous.map((p) => ({ sampleId: p.id, scenario: p.scenario, passed: true })),
    }
  }
  const worker = new BuildWorker(ctx, hub, build)
  worker.start()
  const stop = () => worker.stop()
  open.push({ close: stop })
  return { requests, stop }
}

function buildEnded(ctx: AppContext, buildId: string): Promise<Build> {
  return new Promise((resolve) => {
    const check = (id: string) => {
      if (id !== buildId) return
      const build = getBuild(ctx, buildId)
      if (build.status !== 'succeeded' && build.status !== 'failed') return
      ctx.events.off('build.changed', check)
      resolve(build)
    }
    ctx.events.on('build.changed', check)
    check(buildId)
  })
}

async function teach(
  s: TestServer,
  path: string,
  envelope: Record<string, unknown>,
  sample: Record<string, unknown>,
) {
  const res = await s.call(path, {
    method: 'POST',
    json: teachBody({ prompt: 'Sign in', ...envelope }, sample),
  })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; buildId: string; sampleId: string }
}

const storedSample = (s: TestServer, id: string) =>
  s.ctx.db.select().from(samples).where(eq(samples.id, id)).get()!

const sampleRow = (s: TestServer, id: string) =>
  s.ctx.db.$client
    .query<{ input: string; sealed_secret_inputs: string }, [string]>(
      'SELECT input, sealed_secret_inputs FROM samples WHERE id = ?',
    )
    .get(id)!

/** Every byte the server keeps on disk: the database with its write-ahead log. */
function databaseBytes(s: TestServer): Buffer {
  s.ctx.writes.flush()
  const read = (f: string) => {
    try {
      return readFileSync(join(s.dataDir, f))
    } catch {
      return Buffer.alloc(0)
    }
  }
  return Buffer.concat([read('deskhook.db'), read('deskhook.db-wal')])
}

describe("a taught sample's secret inputs", () => {
  test('are stored masked and sealed; builds get them opened; pages, files and the API keep the mask', async () => {
    const s = await server()
    const first = await teach(s, '/portal/sign-in', { secrets: ['password'] }, { user: 'ada', password: PW1 })
    const row = sampleRow(s, first.sampleId)
    expect(JSON.parse(row.input)).toMatchObject({ user: 'ada', password: MASK })
    expect(Object.keys(JSON.parse(row.sealed_secret_inputs))).toEqual(['password'])
    expect(JSON.stringify(row)).not.toContain(PW1)

    const { requests } = fakeBuilds(s.ctx)
    expect((await buildEnded(s.ctx, first.buildId)).status).toBe('succeeded')
    expect(requests[0]!.sample.input).toMatchObject({ user: 'ada', password: PW1 })

    const second = await teach(s, '/portal/sign-in', {}, { user: 'grace', password: PW2 })
    expect((await buildEnded(s.ctx, second.buildId)).status).toBe('succeeded')
    const req = requests[1]!
    expect(req.sample.input).toMatchObject({ user: 'grace', password: PW2 })
    expect(req.previous.map((p) => p.input.password)).toEqual([PW1])

    // Shown: the job page, the OpenAPI document; exported: the job file.
    const page = JSON.stringify(loadJobPage(s.ctx, openApiCache(s.ctx), first.jobId))
    const swagger = await (await s.call('/swagger.json', { key: null })).text()
    const file = formatJobFile(exportJob(s.ctx, 'POST', '/portal/sign-in'))
    for (const shown of [page, swagger, file]) {
      expect(shown).not.toContain(PW1)
      expect(shown).not.toContain(PW2)
    }
    expect(JSON.parse(file).samples.map((x: { input: { password: string } }) => x.input.password)).toEqual([
      MASK,
      MASK,
    ])
    // Nothing on disk holds either value.
    const bytes = databaseBytes(s)
    expect(bytes.length).toBeGreaterThan(0)
    expect(bytes.includes(PW1)).toBe(false)
    expect(bytes.includes(PW2)).toBe(false)
  })

  test('a member the builder types into a password field is sealed in the samples taught before', async () => {
    const s = await server()
    const taught = await teach(s, '/portal/pin', {}, { user: 'ada', pin: PIN })
    // Taught before anyone knew it was secret: in clear until the build finds the password field.
    expect(JSON.parse(sampleRow(s, taught.sampleId).input).pin).toBe(PIN)
    const { requests } = fakeBuilds(s.ctx)
    expect((await buildEnded(s.ctx, taught.buildId)).status).toBe('succeeded')
    expect(requests[0]!.sample.input.pin).toBe(PIN)
    expect(getJob(s.ctx, taught.jobId)?.secretInputs).toEqual(['pin'])
    const row = sampleRow(s, taught.sampleId)
    expect(JSON.parse(row.input).pin).toBe(MASK)
    expect(JSON.stringify(row)).not.toContain(PIN)
    expect(openSampleInput(s.ctx, storedSample(s, taught.sampleId)).pin).toBe(PIN)
    // The next build still replays it with the value.
    const next = await teach(s, '/portal/pin', {}, { user: 'bob', pin: 'Pin-Other-1234' })
    expect((await buildEnded(s.ctx, next.buildId)).status).toBe('succeeded')
    expect(requests[1]!.previous.map((p) => p.input.pin)).toEqual([PIN])
  })

  test('after the secrets key is replaced, a build needing a sealed value fails clearly', async () => {
    const dir = tempDir()
    dirs.push(dir)
    let s = await server(dir.path)
    const passed = await teach(s, '/portal/rekeyed', { secrets: ['password'] }, { password: PW1 })
    const before = fakeBuilds(s.ctx)
    expect((await buildEnded(s.ctx, passed.buildId)).status).toBe('succeeded')
    await before.stop()
    // Its build has not run when the key goes.
    const unbuilt = await teach(s, '/portal/unbuilt', { secrets: ['password'] }, { password: PW2 })
    for (const o of open.splice(0).reverse()) await o.close()

    writeFileSync(join(dir.path, 'secrets.key'), randomBytes(32))
    s = await server(dir.path)
    const { requests } = fakeBuilds(s.ctx)
    // An earlier sample cannot be verified again: the build fails before the app is touched.
    const next = await teach(s, '/portal/rekeyed', {}, { password: 'Fresh-Value-909' })
    const failed = await buildEnded(s.ctx, next.buildId)
    expect(failed.status).toBe('failed')
    expect(failed.error).toEqual({
      code: 'SECRETS_UNREADABLE',
      message: expect.stringContaining(`Sample ${passed.sampleId} cannot be replayed`),
    })
    expect(failed.error?.message).toContain('secrets.key')
    // So does the build of a sample sealed with the old key, its own value unreadable.
    const other = await buildEnded(s.ctx, unbuilt.buildId)
    expect(other.error).toEqual({
      code: 'SECRETS_UNREADABLE',
      message: expect.stringContaining(`Sample ${unbuilt.sampleId} cannot be replayed`),
    })
    expect(requests).toEqual([])
  })

  test('a job file with a clear value at a secret input is sealed on import, and matches its export', async () => {
    const s = await server()
    const file = {
      format: 'deskhook.job',
      version: 1,
      method: 'POST',
      path: '/portal/imported',
      prompt: 'Sign in',
      secretInputs: ['password'],
      automation: noopAutomation(),
      samples: [{ input: { user: 'ada', password: PW1 } }],
    }
    const imported = importJob(s.ctx, file)
    expect(imported.samplesAdded).toBe(1)
    // The same file again adds no sample: its clear value is the sample stored masked.
    expect(importJob(s.ctx, file).samplesAdded).toBe(0)
    const stored = s.ctx.db.select().from(samples).where(eq(samples.jobId, imported.job.id)).all()
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(PW1)
    expect(stored[0]!.input.password).toBe(MASK)
    expect(openSampleInput(s.ctx, stored[0]!).password).toBe(PW1)
    expect(importJob(s.ctx, exportJob(s.ctx, 'POST', '/portal/imported')).samplesAdded).toBe(0)
  })
})

describe('values kept by an earlier version', () => {
  test('are sealed (samples) and digested (remembered submits) at the next start', async () => {
    const dir = tempDir()
    dirs.push(dir)
    // A data dir as the version before this one left it: migrated to 0013, a secret in clear.
    const old = openDatabase(dir.path)
    migrate(
      old.$client,
      migrations.filter((m) => m.name < '0014'),
    )
    const now = new Date().toISOString()
    const input = { user: 'ada', password: PW1, _http: { method: 'POST', path: '/legacy', params: {} } }
    old.$client.run(
      `INSERT INTO jobs (id, method, path, prompt, secret_inputs, created_at, updated_at)
       VALUES ('job-1', 'POST', '/legacy', 'Sign in', '["password"]', ?1, ?1)`,
      [now],
    )
    old.$client.run(
      `INSERT INTO samples (id, job_id, input, created_at) VALUES ('sample-1', 'job-1', ?, ?)`,
      [JSON.stringify(input), now],
    )
    old.$client.run(
      `INSERT INTO job_submitted_values (job_id, values_key, created_at) VALUES ('job-1', ?, ?)`,
      [callerValues({ ...input, password: PW2 }), now],
    )
    old.$client.close()

    const s = await server(dir.path)
    const stored = storedSample(s, 'sample-1')
    expect(stored.input.password).toBe(MASK)
    expect(Object.keys(stored.sealedSecretInputs)).toEqual(['password'])
    expect(openSampleInput(s.ctx, stored)).toEqual(input)
    const remembered = s.ctx.db.select().from(jobSubmittedValues).all()
    expect(remembered).toHaveLength(1)
    expect(remembered[0]!.valuesKey).not.toContain(PW2)
    // The remembered values still say what they said: that password was submitted, no other.
    expect(submittedBefore(s.ctx, 'job-1', 'no-build', { ...input, password: PW2 })).toBe(true)
    expect(submittedBefore(s.ctx, 'job-1', 'no-build', input)).toBe(false)
    const bytes = databaseBytes(s)
    expect(bytes.includes(PW1)).toBe(false)
    expect(bytes.includes(PW2)).toBe(false)
  })

  test('a removed sample is remembered without its secret values, and still recognised', async () => {
    const s = await server()
    const taught = await teach(
      s,
      '/portal/removed',
      { secrets: ['password'] },
      { user: 'ada', password: PW1 },
    )
    // The build pressed the submit, then failed: the sample is removed and the fact kept.
    s.ctx.db.$client.run(
      `UPDATE builds SET status = 'failed', progress = json_array(json_object('stage', 'observe', 'message', 'The submit led to a dialog', 'at', 'x')) WHERE id = ?`,
      [taught.buildId],
    )
    removeSample(s.ctx, taught.jobId, taught.sampleId)
    const remembered = s.ctx.db.select().from(jobSubmittedValues).all()
    expect(remembered).toHaveLength(1)
    expect(remembered[0]!.valuesKey).not.toContain(PW1)
    const input = { user: 'ada', password: PW1, _http: { params: {} } }
    expect(submittedBefore(s.ctx, taught.jobId, 'no-build', input)).toBe(true)
    expect(submittedBefore(s.ctx, taught.jobId, 'no-build', { ...input, password: PW2 })).toBe(false)
  })
})

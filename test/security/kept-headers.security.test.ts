import { expect, setDefaultTimeout, test } from 'bun:test'
import { addJobVersion, promoteJob } from '../../src/modules/jobs/service.ts'
import { jobSecretValues } from '../../src/modules/secrets/service.ts'
import { eventually } from '../helpers/cli.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { restartableServer } from '../helpers/restartable-server.ts'
import { type TestServer, teachBody } from '../helpers/test-server.ts'

// Issue 23 N2: a kept header was written into the job-wide secret on every call and read at
// dispatch, so queued calls A and B both ran with B's token.
setDefaultTimeout(30_000)

const TEACHER = 'TEACHER-TOKEN-0000'
const servers = restartableServer()

async function tenantJob(server: TestServer, path: string): Promise<string> {
  const res = await server.call(path, {
    method: 'POST',
    key: servers.key,
    headers: { 'x-tenant-token': TEACHER },
    json: teachBody(
      { prompt: 'Download the tenant report', keepHeaders: ['x-tenant-token'] },
      { month: '2026-10' },
    ),
  })
  expect(res.status).toBe(202)
  const { jobId } = await res.json()
  addJobVersion(server.ctx, jobId, noopAutomation(1))
  promoteJob(server.ctx, 'POST', path)
  // The fake desktop runs automations only: keep the builder (the teaching call's build) off it.
  server.ctx.db.$client.run("UPDATE builds SET status = 'failed'")
  return jobId
}

const callAsync = async (server: TestServer, path: string, token?: string) => {
  const res = await server.call(`${path}?async=1`, {
    method: 'POST',
    key: servers.key,
    headers: token ? { 'x-tenant-token': token } : {},
    json: { month: '2026-11' },
  })
  expect(res.status).toBe(202)
  return (await res.json()).jobExecutionId as string
}

const done = (server: TestServer, id: string) =>
  eventually(async () => {
    const view = await (await server.call(`/_executions/${id}`, { key: servers.key })).json()
    return view.done ? view : undefined
  })

test('two queued calls with different kept-header values each run with their own', async () => {
  const server = await servers.start()
  const jobId = await tenantJob(server, '/tenants/report')
  // No desktop yet: both calls wait in the queue, as in the probe.
  const a = await callAsync(server, '/tenants/report', 'TENANT-A-TOKEN-1111')
  const b = await callAsync(server, '/tenants/report', 'TENANT-B-TOKEN-2222')
  const none = await callAsync(server, '/tenants/report')
  const desk = await servers.connectDesk()
  for (const id of [a, b, none]) expect((await done(server, id)).status).toBe('succeeded')

  const ran = (id: string) => desk.runs.find((r) => r.runId === id)!.input
  expect((ran(a).$secrets as Record<string, string>)['x-tenant-token']).toBe('TENANT-A-TOKEN-1111')
  expect((ran(b).$secrets as Record<string, string>)['x-tenant-token']).toBe('TENANT-B-TOKEN-2222')
  // A call without the header gets none: not the teacher's, not an earlier caller's.
  expect((ran(none).$secrets as Record<string, string> | undefined)?.['x-tenant-token']).toBeUndefined()

  // Never in the job-wide secret (the teaching call's stays), never stored with the call.
  expect(jobSecretValues(server.ctx, jobId)['x-tenant-token']).toBe(TEACHER)
  const stored = server.ctx.db.$client
    .query<{ input: string; result: string | null }, []>('SELECT input, result FROM executions')
    .all()
  expect(stored).toHaveLength(3)
  for (const row of stored) expect(`${row.input}${row.result}`).not.toMatch(/TENANT-[AB]-TOKEN/)
  const view = await (await server.call(`/_executions/${a}`, { key: servers.key })).json()
  expect(JSON.stringify(view)).not.toContain('TENANT-A-TOKEN')
})

test('a queued call whose kept header was lost in a restart ends SECRET_INPUT_LOST, never runs with another token', async () => {
  let server = await servers.start()
  await tenantJob(server, '/tenants/restart')
  const id = await callAsync(server, '/tenants/restart', 'TENANT-C-TOKEN-3333')
  await server.close()

  server = await servers.start()
  const desk = await servers.connectDesk()
  const ended = await done(server, id)
  expect(ended.status).toBe('failed')
  expect(ended.error.code).toBe('SECRET_INPUT_LOST')
  expect(desk.runs).toEqual([])
})

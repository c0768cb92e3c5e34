import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli, eventually } from '../helpers/cli.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { startServerProcess } from '../helpers/server-process.ts'
import { tempDir } from '../helpers/temp-dir.ts'

/**
 * kill -9 of the server: accepted executions are never lost, queued ones run exactly once after
 * the restart, and a run that had reached an agent is never run again. Fake desktops stand in for
 * agents here: this is about the server's queue, not about driving an app.
 */
const work = tempDir('deskhook-crash-')
const dataDir = join(work.path, 'data')
const runners: FakeRunner[] = []
afterAll(() => {
  for (const r of runners) r.close()
  work.remove()
})

async function token(): Promise<string> {
  return JSON.parse((await cli(['desktops', 'token', '--json', '--data', dataDir])).stdout).token
}

test('200 queued async calls survive kill -9 and each runs exactly once; a dispatched run ends INTERRUPTED', async () => {
  let server = await startServerProcess(dataDir, ['--agent-grace', '1500', '--watch-interval', '20'])
  const key = server.initialKey
  const file = join(work.path, 'job.json')
  writeFileSync(
    file,
    JSON.stringify({
      format: 'deskhook.job',
      version: 1,
      method: 'POST',
      path: '/work',
      prompt: 'Do work',
      automation: noopAutomation(3),
      samples: [],
    }),
  )
  expect((await cli(['jobs', 'import', file, '--live', '--data', dataDir])).code).toBe(0)
  const headers = { 'x-api-key': key, 'content-type': 'application/json' }

  // One run reaches a desktop that then goes silent (it will never report back).
  const silent = await FakeRunner.connect(
    server.url,
    { token: await token() },
    { hold: () => new Promise(() => {}) },
    'silent',
  )
  runners.push(silent)
  await eventually(
    async () =>
      (await fetch(`${server.url}/work?async=1`, { method: 'POST', headers, body: '{}' })).status === 202,
  )
  await eventually(async () => silent.runs.length === 1)
  const dispatched = silent.runs[0]!.runId
  silent.close()

  // 200 more are accepted while no desktop is online, then the server is killed without warning.
  const accepted = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const res = await fetch(`${server.url}/work?async=1`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ i }),
      })
      expect(res.status).toBe(202)
      return (await res.json()).jobExecutionId as string
    }),
  )
  server.proc.kill('SIGKILL')
  await server.proc.exited

  server = await startServerProcess(dataDir, ['--agent-grace', '1500', '--watch-interval', '20'])
  for (let i = 0; i < 3; i++)
    runners.push(await FakeRunner.connect(server.url, { token: await token() }, {}, `desk-${i}`))
  const poll = async (id: string) => (await fetch(`${server.url}/_executions/${id}`, { headers })).json()
  await eventually(async () => runners.slice(1).reduce((n, r) => n + r.runs.length, 0) >= 200, 60_000)

  const ran = runners.slice(1).flatMap((r) => r.runs.map((x) => x.runId))
  expect(ran.length).toBe(200)
  expect(new Set(ran).size).toBe(200)
  expect(new Set(ran)).toEqual(new Set(accepted))
  expect(ran).not.toContain(dispatched)
  for (const id of accepted.slice(0, 20))
    await eventually(async () => (await poll(id)).status === 'succeeded')

  // The run that had reached the silent desktop is not run again: it ends INTERRUPTED.
  const orphan = await eventually(async () => {
    const e = await poll(dispatched)
    return e.done && e
  }, 10_000)
  expect(orphan.status).toBe('failed')
  expect(orphan.error.code).toBe('INTERRUPTED')

  server.proc.kill('SIGTERM')
  expect(await server.proc.exited).toBe(0)
  const db = new Database(join(dataDir, 'deskhook.db'), { readonly: true })
  expect(db.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()?.integrity_check).toBe(
    'ok',
  )
  db.close()
}, 120_000)

test('a run in flight at kill -9 keeps the result its agent reports after the restart', async () => {
  const dir = join(work.path, 'data2')
  let server = await startServerProcess(dir, ['--agent-grace', '5000', '--watch-interval', '20'])
  const headers = { 'x-api-key': server.initialKey, 'content-type': 'application/json' }
  const file = join(work.path, 'job2.json')
  writeFileSync(
    file,
    JSON.stringify({
      format: 'deskhook.job',
      version: 1,
      method: 'POST',
      path: '/slow',
      prompt: 'Slow work',
      automation: noopAutomation(2),
      samples: [],
    }),
  )
  expect((await cli(['jobs', 'import', file, '--live', '--data', dir])).code).toBe(0)
  const tokenFor = async () =>
    JSON.parse((await cli(['desktops', 'token', '--json', '--data', dir])).stdout).token
  const desk = await FakeRunner.connect(
    server.url,
    { token: await tokenFor() },
    { hold: () => new Promise(() => {}) },
  )
  runners.push(desk)
  const ack = await eventually(async () => {
    const res = await fetch(`${server.url}/slow?async=1`, { method: 'POST', headers, body: '{"n":1}' })
    return res.status === 202 && res.json()
  })
  await eventually(async () => desk.runs.length === 1)
  const run = desk.runs[0]!
  server.proc.kill('SIGKILL')
  await server.proc.exited
  desk.close()

  server = await startServerProcess(dir, ['--agent-grace', '5000', '--watch-interval', '20'])
  // The agent comes back (as a real one would, from its journal) and reports the finished run.
  const back = await FakeRunner.connect(server.url, { desktopId: desk.desktopId, secret: desk.secret })
  runners.push(back)
  const now = new Date().toISOString()
  back.agent.send({
    type: 'run.result',
    runId: run.runId,
    lease: run.lease,
    replayed: true,
    outcome: {
      status: 'succeeded',
      scenario: 'main',
      outcome: 'success',
      result: { done: true },
      startedAt: now,
      finishedAt: now,
    },
  })
  await back.agent.next('run.ack')
  const e = await (await fetch(`${server.url}/_executions/${ack.jobExecutionId}`, { headers })).json()
  expect(e).toMatchObject({ status: 'succeeded', done: true, result: { done: true } })
  expect(back.runs).toHaveLength(0)
  server.proc.kill('SIGTERM')
  await server.proc.exited
}, 60_000)

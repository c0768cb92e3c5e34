import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrations } from '../../src/db/migrations/index.ts'
import { isCredentialHeader } from '../../src/lib/credential-headers.ts'
import { createEnrollmentToken } from '../../src/modules/desktops/service.ts'
import { jobSecretValues } from '../../src/modules/secrets/service.ts'
import { cli, eventually } from '../helpers/cli.ts'
import { FakeRunner } from '../helpers/fake-runner.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

// Issue 9 item 6: only x-api-key was removed from `_http.headers`; Authorization, Cookie and the
// like were stored in samples and executions, sent to agents and written by `jobs export`.
const SECRETS = {
  authorization: 'Bearer sk-live-AUTHORIZATION-4c1d',
  cookie: 'session=COOKIE-SESSION-77aa',
  'proxy-authorization': 'Basic PROXY-AUTH-99ff',
  'x-auth-token': 'X-AUTH-TOKEN-1234',
  'x-csrf-token': 'CSRF-TOKEN-5678',
  'x-hub-signature-256': 'sha256=SIGNATURE-abcd',
}

// Real server, real SQLite, a fake desktop: room for a busy CI machine.
setDefaultTimeout(30_000)

let s: TestServer
let desk: FakeRunner
beforeAll(async () => {
  s = await startTestServer({ heartbeatIntervalMs: 100 })
  await liveJob(s, 'POST', '/payouts')
  // The fake desktop answers runs, not a builder's exploring: end the job's teaching build before
  // it connects, so the live run below is not queued behind a build that never finishes.
  s.ctx.db.$client.run(
    `UPDATE builds SET status = 'failed', error = '{"code":"INTERNAL","message":"not built in this test"}'`,
  )
  desk = await FakeRunner.connect(s.url, { token: createEnrollmentToken(s.ctx).token })
})
afterAll(async () => {
  desk?.close()
  await s.close()
})

test('the rule: credential words in a header name, nothing else', () => {
  for (const name of [...Object.keys(SECRETS), 'x-api-key', 'set-cookie', 'x-xsrf-token', 'x-session-id'])
    expect({ name, credential: isCredentialHeader(name) }).toEqual({ name, credential: true })
  for (const name of ['accept', 'user-agent', 'x-tenant', 'x-request-id', 'content-type', 'x-author'])
    expect({ name, credential: isCredentialHeader(name) }).toEqual({ name, credential: false })
})

test('credential headers of teaching and live calls are never stored, sent to the agent or exported', async () => {
  const headers = { ...SECRETS, 'x-tenant': 'acme' }
  const ack = (await (
    await s.call('/payouts?async=1', { method: 'POST', headers, json: { amount: 5 } })
  ).json()) as { jobExecutionId: string }
  // (The job's own teaching build may hold the desktop first.)
  await eventually(
    async () => (await (await s.call(`/_executions/${ack.jobExecutionId}`)).json()).done,
    25_000,
  )
  // Taught after the run: its build keeps the only desktop busy, and only the stored sample matters.
  const taught = await s.call('/refunds', {
    method: 'POST',
    headers,
    json: teachBody({ prompt: 'Refund an order' }, { order: 'A-1' }),
  })
  expect(taught.status).toBe(202)

  const sent = JSON.stringify(desk.runs)
  expect(sent).toContain('acme')
  const exported = await cli(['jobs', 'export', 'POST', '/payouts', '--data', s.dataDir])
  expect(exported.code).toBe(0)
  s.ctx.db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
  const files = readdirSync(s.dataDir)
    .filter((f) => f.startsWith('deskhook.db'))
    .map((f) => readFileSync(join(s.dataDir, f)).toString('latin1'))
  for (const value of Object.values(SECRETS)) {
    expect(sent).not.toContain(value)
    expect(exported.stdout).not.toContain(value)
    for (const bytes of files) expect(bytes.includes(value)).toBe(false)
  }
})

test('migration 0007 scrubs credential headers from rows stored before it, keeping the others', async () => {
  const db = s.ctx.db.$client
  const stored = JSON.stringify({ ...SECRETS, 'x-tenant': 'acme', accept: '*/*' })
  db.run(`UPDATE samples SET input = json_set(input, '$._http.headers', json(?))`, [stored])
  db.run(`UPDATE executions SET input = json_set(input, '$._http.headers', json(?))`, [stored])
  const scrub = migrations.find((m) => m.name === '0007_scrub_credential_headers')!
  for (const statement of scrub.sql.split('--> statement-breakpoint')) db.run(statement)
  for (const table of ['samples', 'executions']) {
    const rows = db.query(`SELECT json_extract(input, '$._http.headers') AS h FROM ${table}`).all() as {
      h: string
    }[]
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(JSON.parse(row.h)).toEqual({ 'x-tenant': 'acme', accept: '*/*' })
  }
})

test('a job may opt a credential header in: each call’s value is its secret, never stored with the call', async () => {
  const taught = await s.call('/tenants/report', {
    method: 'POST',
    headers: { 'x-tenant-token': 'TENANT-SECRET-ONE' },
    json: teachBody(
      { prompt: 'Download the tenant report', keepHeaders: ['X-Tenant-Token'] },
      { month: '2026-10' },
    ),
  })
  expect(taught.status).toBe(202)
  const { jobId } = (await taught.json()) as { jobId: string }
  expect(jobSecretValues(s.ctx, jobId)['x-tenant-token']).toBe('TENANT-SECRET-ONE')
  // A later call with another value replaces it.
  await s.call('/tenants/report', {
    method: 'POST',
    headers: { 'x-tenant-token': 'TENANT-SECRET-TWO' },
    json: teachBody({}, { month: '2026-11' }),
  })
  expect(jobSecretValues(s.ctx, jobId)['x-tenant-token']).toBe('TENANT-SECRET-TWO')
  const listed = await cli(['jobs', 'secret', 'list', 'POST', '/tenants/report', '--data', s.dataDir])
  expect(listed.stdout).toContain('x-tenant-token')
  s.ctx.db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
  for (const f of readdirSync(s.dataDir).filter((f) => f.startsWith('deskhook.db'))) {
    const bytes = readFileSync(join(s.dataDir, f)).toString('latin1')
    expect(bytes.includes('TENANT-SECRET')).toBe(false)
  }
  // A bad name is a clear 400.
  const bad = await s.call('/tenants/report', {
    method: 'POST',
    json: teachBody({ keepHeaders: ['x tenant'] }, { month: '2026-12' }),
  })
  expect(bad.status).toBe(400)
})

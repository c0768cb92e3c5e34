import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { DB_FILE } from '../../src/db/client.ts'
import { type AuditRowView, listAudit } from '../../src/modules/audit/list.ts'
import { createEnrollmentToken, enrollDesktop } from '../../src/modules/desktops/service.ts'
import { addJobVersion } from '../../src/modules/jobs/service.ts'
import { cli } from '../helpers/cli.ts'
import {
  type DashboardClient,
  launchBrowser,
  seriousViolations,
  signIn,
  signInPage,
} from '../helpers/dashboard.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

const MAIN = join(import.meta.dir, '../../src/main.ts')
const ADMIN_PASSWORD = 'correct-horse-battery'
const MEMBER_PASSWORD = 'member-password-1'
const CLI_PASSWORD = 'typed-at-the-cli-42'
const DASH_PASSWORD = 'typed-in-the-form-42'
const osUser = userInfo().username

let server: TestServer
let admin: DashboardClient
let member: DashboardClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
  member = await signIn(server, { email: 'member@example.com', password: MEMBER_PASSWORD, role: 'member' })
})
afterAll(() => server.close())

const rows = (action?: string): AuditRowView[] => listAudit(server.ctx, { action, limit: 1000 })
const latest = (action: string) => rows(action)[0]
const dataArgs = () => ['--data', server.dataDir]

/** `deskhook …` with a password piped to stdin, as an admin's script would. */
async function cliWithStdin(args: string[], stdin: string) {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    stdin: new TextEncoder().encode(stdin),
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
  })
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  return { code, stdout, stderr }
}

/** A job with a successful version but still learning, as the builder leaves one. */
async function learningJob(path: string): Promise<string> {
  const res = await server.call(path, { method: 'POST', json: teachBody({ prompt: `Job at ${path}` }) })
  expect(res.status).toBe(202)
  const { jobId } = await res.json()
  addJobVersion(server.ctx, jobId, noopAutomation())
  return jobId
}

describe('who did what', () => {
  test('first-run setup records the new admin as having created themselves', () => {
    const created = rows('user.created').find((r) => r.details.email === 'admin@example.com')!
    expect(created.actor).toMatchObject({ kind: 'user', label: 'admin@example.com' })
    expect(created.actor.id).toBe(created.target.id)
  })

  test('promote and demote from the dashboard record the signed-in person', async () => {
    const jobId = await learningJob('/audit/dash')
    expect((await admin.post(`/_/jobs/${jobId}/promote`)).status).toBe(303)
    const promoted = latest('job.promoted')!
    expect(promoted.actor).toMatchObject({ kind: 'user', label: 'admin@example.com' })
    expect(promoted.target).toEqual({ kind: 'job', id: jobId })
    expect(promoted.details).toMatchObject({
      method: 'POST',
      path: '/audit/dash',
      from: 'learning',
      to: 'live',
    })
    expect((await admin.post(`/_/jobs/${jobId}/demote`)).status).toBe(303)
    expect(latest('job.demoted')).toMatchObject({
      actor: { kind: 'user', label: 'admin@example.com' },
      target: { kind: 'job', id: jobId },
    })
  })

  test('promote and demote from the CLI record the OS user', async () => {
    const jobId = await learningJob('/audit/cli')
    const promoted = await cli(['jobs', 'promote', 'POST', '/audit/cli', ...dataArgs()])
    expect(promoted.code).toBe(0)
    expect(latest('job.promoted')).toMatchObject({
      actor: { kind: 'cli', id: osUser, label: `cli:${osUser}` },
      target: { kind: 'job', id: jobId },
    })
    expect((await cli(['jobs', 'demote', 'POST', '/audit/cli', ...dataArgs()])).code).toBe(0)
    expect(latest('job.demoted')!.actor.kind).toBe('cli')
  })

  test('enrolment records the agent; revocation records who revoked, from the dashboard or the CLI', async () => {
    const who = { name: 'audit-pc', platform: 'linux', driver: 'browser', agentVersion: '0.0.0' }
    const { desktop: one } = enrollDesktop(server.ctx, createEnrollmentToken(server.ctx).token, who)
    const { desktop: two } = enrollDesktop(server.ctx, createEnrollmentToken(server.ctx).token, {
      ...who,
      name: 'audit-pc-2',
    })
    expect(latest('desktop.enrolled')).toMatchObject({
      actor: { kind: 'agent', id: two.id, label: 'audit-pc-2' },
      target: { kind: 'desktop', id: two.id },
    })
    expect((await admin.post(`/_/desktops/${one.id}/revoke`)).status).toBe(303)
    expect(latest('desktop.revoked')).toMatchObject({
      actor: { kind: 'user', label: 'admin@example.com' },
      target: { kind: 'desktop', id: one.id },
    })
    expect((await cli(['desktops', 'revoke', two.id, ...dataArgs()])).code).toBe(0)
    expect(latest('desktop.revoked')).toMatchObject({
      actor: { kind: 'cli', id: osUser },
      target: { kind: 'desktop', id: two.id },
    })
  })

  test('people created, reset and removed from the dashboard and the CLI', async () => {
    const added = await admin.post('/_/settings/people', {
      email: 'dash@example.com',
      password: DASH_PASSWORD,
      role: 'member',
    })
    expect(added.status).toBe(303)
    expect(latest('user.created')).toMatchObject({
      actor: { kind: 'user', label: 'admin@example.com' },
      details: { email: 'dash@example.com', role: 'member' },
    })
    const made = await cliWithStdin(
      ['users', 'create', '--email', 'cli@example.com', '--password-stdin', ...dataArgs()],
      CLI_PASSWORD,
    )
    expect(made.code).toBe(0)
    const byCli = latest('user.created')!
    expect(byCli).toMatchObject({ actor: { kind: 'cli', id: osUser }, details: { email: 'cli@example.com' } })
    const reset = await cliWithStdin(
      ['users', 'reset-password', 'cli@example.com', '--password-stdin', ...dataArgs()],
      `${CLI_PASSWORD}-new`,
    )
    expect(reset.code).toBe(0)
    expect(latest('user.password_reset')).toMatchObject({
      actor: { kind: 'cli' },
      target: { kind: 'user', id: byCli.target.id },
    })
    expect((await cli(['users', 'remove', 'cli@example.com', '--yes', ...dataArgs()])).code).toBe(0)
    expect(latest('user.removed')).toMatchObject({
      actor: { kind: 'cli' },
      target: { kind: 'user', id: byCli.target.id },
    })
  })

  test('`deskhook audit` filters by action and prints JSON', async () => {
    const r = await cli(['audit', '--action', 'job', '--json', ...dataArgs()])
    expect(r.code).toBe(0)
    const { entries } = JSON.parse(r.stdout) as { entries: AuditRowView[] }
    expect(entries.length).toBeGreaterThanOrEqual(4)
    expect(entries.every((e) => e.action.startsWith('job.'))).toBe(true)
    // Newest first.
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a))
    const since = await cli(['audit', '--since', '2999-01-01', '--json', ...dataArgs()])
    expect(JSON.parse(since.stdout).entries).toEqual([])
    const table = await cli(['audit', '--action', 'desktop.revoked', ...dataArgs()])
    expect(table.stdout).toContain(`cli:${osUser}`)
    expect(table.stdout).toContain('user:admin@example.com')
  })
})

describe('never a secret', () => {
  test('a new key, passwords and the webhook secret appear nowhere in the audit table', async () => {
    const made = await cli(['keys', 'create', '--name', 'audited', '--json', ...dataArgs()])
    expect(made.code).toBe(0)
    const { key, prefix } = JSON.parse(made.stdout) as { key: string; prefix: string }
    const rotated = await cli(['webhooks', 'secret', '--rotate', '--json', ...dataArgs()])
    expect(rotated.code).toBe(0)
    const { secret } = JSON.parse(rotated.stdout) as { secret: string }
    expect(latest('key.created')).toMatchObject({
      target: { kind: 'key' },
      details: { name: 'audited', prefix },
    })
    expect(latest('settings.changed')).toMatchObject({
      actor: { kind: 'cli' },
      target: { kind: 'setting', id: 'webhook_secret' },
    })
    const table = server.ctx.db.$client
      .query<Record<string, unknown>, []>('SELECT * FROM _audit_log')
      .all()
      .map((r) => Object.values(r).join('\u0000'))
      .join('\n')
    for (const needle of [
      key,
      key.slice(prefix.length),
      secret,
      ADMIN_PASSWORD,
      MEMBER_PASSWORD,
      CLI_PASSWORD,
      DASH_PASSWORD,
    ])
      expect(table).not.toContain(needle)
    // The whole store, WAL included: the key is nowhere in it (the audit rows least of all).
    const files = ['', '-wal']
      .map((s) => join(server.dataDir, `${DB_FILE}${s}`))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('')
    expect(files).not.toContain(key)
  })
})

/** Opens the SQLite file the way someone with a copy of it would, beside the running server. */
function withFile(edit: (db: Database) => void): void {
  const db = new Database(join(server.dataDir, DB_FILE))
  try {
    db.run('PRAGMA busy_timeout = 10000')
    edit(db)
  } finally {
    db.close()
  }
}
const setLabel = (id: number, label: string) =>
  withFile((db) => db.query('UPDATE _audit_log SET actor_label = ? WHERE id = ?').run(label, id))

describe('tamper evidence', () => {
  test('editing one row makes `deskhook audit verify` name it', async () => {
    const ok = await cli(['audit', 'verify', '--json', ...dataArgs()])
    expect(ok.code).toBe(0)
    const verdict = JSON.parse(ok.stdout)
    expect(verdict).toMatchObject({ ok: true })
    expect(verdict.rows).toBeGreaterThan(5)
    const victim = rows('job.promoted').at(-1)!
    // Someone with the file rewrites who promoted the job, then puts it back.
    setLabel(victim.id, 'someone-else')
    const broken = await cli(['audit', 'verify', ...dataArgs()])
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain(`broken at row ${victim.id}`)
    const json = JSON.parse((await cli(['audit', 'verify', '--json', ...dataArgs()])).stdout)
    expect(json).toMatchObject({ ok: false, brokenAt: victim.id })
    setLabel(victim.id, victim.actor.label)
    expect((await cli(['audit', 'verify', ...dataArgs()])).code).toBe(0)
  })

  test('removing the newest row is caught too', async () => {
    const last = rows()[0]!
    withFile((db) => db.query('DELETE FROM _audit_log WHERE id = ?').run(last.id))
    const json = JSON.parse((await cli(['audit', 'verify', '--json', ...dataArgs()])).stdout)
    expect(json).toMatchObject({ ok: false, brokenAt: last.id })
    expect(json.reason).toContain('removed')
  })
})

describe('the dashboard page', () => {
  test('admins see it newest first; members get 403', async () => {
    const page = await admin.get('/_/settings/audit')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Audit log')
    expect(html).toContain('job.promoted')
    expect(html).toContain('is broken at row')
    expect((await admin.get('/_/settings/audit?action=desktop')).status).toBe(200)
    expect((await member.get('/_/settings/audit')).status).toBe(403)
    expect((await member.get('/_/settings/audit?action=job')).status).toBe(403)
  })

  test('axe finds nothing serious', async () => {
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await signInPage(page, server, { email: 'admin@example.com', password: ADMIN_PASSWORD })
      await page.goto(`${server.url}/_/settings/audit`)
      await page.getByRole('heading', { name: 'Audit log' }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
    } finally {
      await browser.close()
    }
  }, 30_000)
})

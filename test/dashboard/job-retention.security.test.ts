import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { listAudit } from '../../src/modules/audit/list.ts'
import { getJobRetention } from '../../src/modules/retention/job-overrides.ts'
import { cli } from '../helpers/cli.ts'
import { type DashboardClient, signIn } from '../helpers/dashboard.ts'
import { liveJob } from '../helpers/live-job.ts'
import { startTestServer, type TestServer } from '../helpers/test-server.ts'

/** Issue 23, N4: a job's retention is a setting: admins only, and every change is audited. */

let server: TestServer
let admin: DashboardClient
let member: DashboardClient
let jobId: string

beforeAll(async () => {
  server = await startTestServer()
  admin = await signIn(server)
  member = await signIn(server, { email: 'mo@example.com', password: 'member-password-1', role: 'member' })
  jobId = await liveJob(server, 'POST', '/kept')
})
afterAll(() => server.close())

const retentionRows = () =>
  listAudit(server.ctx, { action: 'settings.changed' }).filter(
    (r) => r.target.kind === 'job' && r.target.id === jobId,
  )

describe("a job's retention", () => {
  test('a member is refused (403, like the settings page), nothing changes and nothing is recorded', async () => {
    const res = await member.post(`/_/jobs/${jobId}/retention`, { screenshots: '1d', runs: '2d' })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('Only a workspace admin')
    expect(getJobRetention(server.ctx, jobId)).toEqual({})
    expect(retentionRows()).toEqual([])
    expect((await member.get('/_/settings/retention')).status).toBe(403)
  })

  test("a member's job page shows the ages without a form to change them", async () => {
    const html = await (await member.get(`/_/jobs/${jobId}`)).text()
    expect(html).toContain('Only a workspace admin can change this')
    expect(html).not.toContain(`action="/_/jobs/${jobId}/retention"`)
    const adminHtml = await (await admin.get(`/_/jobs/${jobId}`)).text()
    expect(adminHtml).toContain(`action="/_/jobs/${jobId}/retention"`)
  })

  test("an admin's change is saved with an audit row naming them and the ages before and after", async () => {
    const res = await admin.post(`/_/jobs/${jobId}/retention`, { screenshots: '7d', runs: '' })
    expect(res.status).toBe(303)
    expect(getJobRetention(server.ctx, jobId)).toEqual({ screenshotDays: 7 })
    const [row] = retentionRows()
    expect(row).toMatchObject({
      action: 'settings.changed',
      actor: { kind: 'user', label: 'admin@example.com' },
      target: { kind: 'job', id: jobId },
      details: {
        setting: 'retention',
        from: { screenshotDays: null, runDays: null },
        to: { screenshotDays: 7, runDays: null },
      },
    })
  })

  test('`deskhook jobs retention` records its change too, as the CLI user', async () => {
    const before = retentionRows().length
    const res = await cli(['jobs', 'retention', 'POST', '/kept', '--runs', '30d', '--data', server.dataDir])
    expect(res.code).toBe(0)
    const rows = retentionRows()
    expect(rows.length).toBe(before + 1)
    expect(rows[0]).toMatchObject({
      actor: { kind: 'cli' },
      target: { kind: 'job', id: jobId },
      details: {
        setting: 'retention',
        from: { screenshotDays: 7, runDays: null },
        to: { screenshotDays: 7, runDays: 30 },
      },
    })
    // Only showing the ages changes nothing and records nothing.
    const shown = await cli(['jobs', 'retention', 'POST', '/kept', '--data', server.dataDir])
    expect(shown.code).toBe(0)
    expect(retentionRows().length).toBe(before + 1)
    expect((await cli(['audit', 'verify', '--data', server.dataDir])).code).toBe(0)
  }, 30_000)
})

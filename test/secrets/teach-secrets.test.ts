import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BuildIO, BuildRequest, BuildResult, DesktopPort } from '../../src/builder/contract.ts'
import { getBuild } from '../../src/modules/builds/service.ts'
import { getJob } from '../../src/modules/jobs/service.ts'
import { listJobSecrets, setJobSecret } from '../../src/modules/secrets/service.ts'
import type { AgentHub } from '../../src/runtime/agent-hub/index.ts'
import { BuildWorker } from '../../src/runtime/build-worker/index.ts'
import { eventually } from '../helpers/cli.ts'
import { noopAutomation } from '../helpers/live-job.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * Job secrets named in the first teaching call (`deskhook.secrets` members the call does not
 * carry), set before the job exists, or set while a build waits: the build waits for them holding
 * no desktop, and sees one set mid-way.
 */
const PASSWORD = 'Heron-Tulip-93!'
let s: TestServer
let worker: BuildWorker
const held = new Map<string, string>()
/** What each build saw of its secrets, when it started and after its question was answered. */
const seen: { path: string; start: string[]; afterAnswer?: Record<string, string> }[] = []

const hub = {
  onlineDesktops: () => [{ id: 'desk-1', name: 'test-pc', busy: false }],
  reserve(desktopId: string, owner: string) {
    if (held.has(desktopId)) return false
    held.set(desktopId, owner)
    return true
  },
  release(desktopId: string, owner: string) {
    if (held.get(desktopId) === owner) held.delete(desktopId)
  },
} as unknown as AgentHub

async function builder(_port: DesktopPort, io: BuildIO, req: BuildRequest): Promise<BuildResult> {
  const entry: (typeof seen)[number] = { path: req.route?.path ?? '', start: [...(req.secretNames ?? [])] }
  seen.push(entry)
  if (entry.path.endsWith('/ask')) {
    await io.ask({
      kind: 'map_field',
      text: 'Where does "ref" go?',
      options: [{ value: 'a', label: 'A' }],
      multiple: false,
    })
    // Read when needed (at the sign-in form), as the builder does: not copied at the start.
    entry.afterAnswer = { ...req.secrets }
    io.progress('explore', `Signed in with ${req.secrets?.password}`)
  }
  return { ok: true, automation: noopAutomation(), scenario: 'main', outcome: 'success', reverified: [] }
}

beforeAll(async () => {
  s = await startTestServer()
  worker = new BuildWorker(s.ctx, hub, builder as never)
  worker.start()
})
afterAll(async () => {
  await worker.stop()
  await s.close()
})

const teach = async (
  path: string,
  envelope: Record<string, unknown>,
  sample: Record<string, unknown> = {},
) => {
  const res = await s.call(path, {
    method: 'POST',
    json: teachBody({ prompt: 'Open a ticket', ...envelope }, sample),
  })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; buildId: string }
}

describe('secrets for teaching', () => {
  test('named in the first call: recorded; the build waits, holding no desktop, until they are set', async () => {
    const t = await teach(
      '/portal/tickets',
      { secrets: ['username', 'password', 'pin'] },
      { subject: 'Printer', pin: '4821' },
    )
    const job = getJob(s.ctx, t.jobId)!
    expect(job.neededSecrets).toEqual(['username', 'password'])
    // `pin` is carried by the call: a secret input, as before.
    expect(job.secretInputs).toEqual(['pin'])

    const waiting = await eventually(async () =>
      getBuild(s.ctx, t.buildId).progress.find((p) => p.message.startsWith("Waiting for the job's secrets")),
    )
    expect(waiting.message).toBe(
      "Waiting for the job's secrets username, password: set them with `deskhook jobs secret set POST /portal/tickets username` (and likewise the others); the build starts as soon as they are set",
    )
    expect(getBuild(s.ctx, t.buildId).status).toBe('queued')
    expect(held.size).toBe(0)

    setJobSecret(s.ctx, 'POST', '/portal/tickets', 'username', 'ada')
    await eventually(async () =>
      getBuild(s.ctx, t.buildId).progress.find(
        (p) =>
          p.message ===
          "Waiting for the job's secret password: set it with `deskhook jobs secret set POST /portal/tickets password`; the build starts as soon as they are set",
      ),
    )
    expect(getBuild(s.ctx, t.buildId).status).toBe('queued')
    setJobSecret(s.ctx, 'POST', '/portal/tickets', 'password', PASSWORD)
    await eventually(async () => getBuild(s.ctx, t.buildId).status === 'succeeded')
    expect(seen.find((x) => x.path === '/portal/tickets')?.start).toEqual(['password', 'username'])

    // A later sample that carries `password` makes it a secret input: no longer waited for.
    await teach('/portal/tickets', { secrets: ['password'] }, { subject: 'Desk', password: 'x-caller-pw' })
    expect(getJob(s.ctx, t.jobId)).toMatchObject({
      neededSecrets: ['username'],
      secretInputs: ['pin', 'password'],
    })
    // One a sample leaves out after it was a secret input stays an input (a "missing password" case).
    await teach('/portal/tickets', { secrets: ['password'] }, { subject: 'No password' })
    expect(getJob(s.ctx, t.jobId)?.neededSecrets).toEqual(['username'])
  })

  test('set before the first teaching call: kept for the route, the job gets them', async () => {
    const before = setJobSecret(s.ctx, 'post', '/crm/notes', 'password', PASSWORD)
    expect(before).toEqual({ job: { method: 'POST', path: '/crm/notes' }, pending: true, replaced: false })
    expect(listJobSecrets(s.ctx, 'POST', '/crm/notes')).toMatchObject({
      pending: true,
      secrets: [{ name: 'password' }],
    })
    const t = await teach('/crm/notes', { secrets: ['password'] })
    expect(getJob(s.ctx, t.jobId)?.neededSecrets).toEqual(['password'])
    await eventually(async () => getBuild(s.ctx, t.buildId).status === 'succeeded')
    expect(seen.find((x) => x.path === '/crm/notes')?.start).toEqual(['password'])
    expect(listJobSecrets(s.ctx, 'POST', '/crm/notes')).toMatchObject({ pending: false })
  })

  test('set while a build waits for an answer: the build sees it, and masks it', async () => {
    const t = await teach('/helpdesk/ask', {})
    const q = await eventually(async () => getBuild(s.ctx, t.buildId).question ?? undefined)
    expect(seen.find((x) => x.path === '/helpdesk/ask')?.start).toEqual([])
    setJobSecret(s.ctx, 'POST', '/helpdesk/ask', 'password', PASSWORD)
    const res = await s.call(`/_builds/${t.buildId}/answers`, {
      method: 'POST',
      json: { questionId: q.id, answer: 'a' },
    })
    expect(res.status).toBe(200)
    await eventually(async () => getBuild(s.ctx, t.buildId).status === 'succeeded')
    expect(seen.find((x) => x.path === '/helpdesk/ask')?.afterAnswer).toEqual({ password: PASSWORD })
    const stored = JSON.stringify(getBuild(s.ctx, t.buildId))
    expect(stored).toContain('Signed in with •••')
    expect(stored).not.toContain(PASSWORD)
  })
})

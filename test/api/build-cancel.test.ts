import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { BuildIO, BuildResult, DesktopPort } from '../../src/builder/contract.ts'
import { samples } from '../../src/db/schema/index.ts'
import { createKey } from '../../src/modules/keys/service.ts'
import type { AgentHub } from '../../src/runtime/agent-hub/index.ts'
import { BuildWorker } from '../../src/runtime/build-worker/index.ts'
import { eventually } from '../helpers/cli.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

/**
 * Cancelling a build, and removing a sample whose build is under way: the build worker stops the
 * builder and frees the desktop at once (before the builder's pending desktop call returns), the
 * builder's later desktop calls fail, and the job keeps working.
 */
let s: TestServer
/** Who holds the one stand-in desktop (the test server's own worker sees no desktop online). */
const held = new Map<string, string>()
/** The desktop calls the stand-in builder made, and how each ended. */
const calls: string[] = []
/** While `hold` is set, desktop calls wait here until the test lets them return. */
const pending: (() => void)[] = []
let hold = false
let worker: BuildWorker

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
  rpc: (_desktop: string, method: string) =>
    new Promise((resolve) => {
      calls.push(method)
      const reply = () => resolve(method === 'snapshot' ? { window: { id: 'w', title: 'App' } } : {})
      if (hold) pending.push(reply)
      else reply()
    }),
  heldBy: (desktopId: string) => held.get(desktopId),
} as unknown as AgentHub

/** Per job path: `ask` asks a question and waits; `desktop` waits in a desktop call first. */
async function standInBuilder(
  port: DesktopPort,
  io: BuildIO,
  req: { route?: { path: string } },
): Promise<BuildResult> {
  const path = req.route?.path ?? ''
  try {
    if (path.includes('desktop')) await port.snapshot('w')
    if (path.includes('ask'))
      await io.ask({
        kind: 'map_field',
        text: 'Where does "ref" go?',
        options: [{ value: 'notes', label: 'Notes' }],
        multiple: false,
      })
    await port.snapshot('w')
    calls.push('after')
  } catch (err) {
    calls.push(`threw ${(err as Error).name}`)
    throw err
  }
  return { ok: false, code: 'NO_FORM_FOUND', message: 'stand-in' }
}

beforeAll(async () => {
  s = await startTestServer()
  worker = new BuildWorker(s.ctx, hub, standInBuilder as never)
  worker.start()
})
afterAll(async () => {
  for (const go of pending.splice(0)) go()
  await worker.stop()
  await s.close()
})

async function teach(path: string) {
  const res = await s.call(path, {
    method: 'POST',
    json: teachBody({ prompt: 'Create a customer' }, { name: 'Ada', ref: 'x' }),
  })
  expect(res.status).toBe(202)
  return (await res.json()) as { jobId: string; buildId: string; sampleId: string }
}

const view = async (id: string) => (await s.call(`/_builds/${id}`)).json()
const cancel = (id: string, key?: string) => s.call(`/_builds/${id}/cancel`, { method: 'POST', key })

describe('cancelling a build', () => {
  test('a build waiting for an answer: failed BUILD_CANCELLED, question closed, desktop freed, sample kept', async () => {
    const t = await teach('/cancel/ask')
    await eventually(async () => (await view(t.buildId)).status === 'waiting_for_answer')
    expect(held.get('desk-1')).toBe(t.buildId)

    const res = await cancel(t.buildId)
    expect(res.status).toBe(200)
    const b = await res.json()
    expect(b.status).toBe('failed')
    expect(b.error.code).toBe('BUILD_CANCELLED')
    expect(b.question).toBeNull()
    expect(b.progress.at(-1).message).toContain('Build cancelled')
    // Freed at once, not when the builder winds down.
    expect(held.has('desk-1')).toBe(false)
    await eventually(async () => calls.includes('threw BuildCancelled'))
    expect(calls).not.toContain('after')

    // Nothing the winding-down builder does is written; the sample stays, failing.
    expect((await view(t.buildId)).status).toBe('failed')
    const sample = s.ctx.db.select().from(samples).where(eq(samples.id, t.sampleId)).get()
    expect(sample?.status).toBe('failing')
    // Again: the same answer. An answer now: no open question.
    expect((await (await cancel(t.buildId)).json()).error).toMatchObject({ code: 'BUILD_CANCELLED' })
    const answer = await s.call(`/_builds/${t.buildId}/answers`, {
      method: 'POST',
      json: { questionId: b.answers[0]?.questionId ?? 'q', answer: 'notes' },
    })
    expect(answer.status).toBe(409)
    // The sample can be removed, and the job takes another sample.
    expect((await s.call(`/_jobs/${t.jobId}/samples/${t.sampleId}`, { method: 'DELETE' })).status).toBe(200)
    const next = await teach('/cancel/ask')
    expect(next.jobId).toBe(t.jobId)
    await eventually(async () => (await view(next.buildId)).status === 'waiting_for_answer')
    expect((await cancel(next.buildId)).status).toBe(200)
  })

  test('a build inside a desktop call: the call fails at once and the desktop is free', async () => {
    calls.length = 0
    hold = true
    const t = await teach('/cancel/desktop')
    await eventually(async () => calls.includes('snapshot'))
    expect((await cancel(t.buildId)).status).toBe(200)
    expect(held.has('desk-1')).toBe(false)
    await eventually(async () => calls.includes('threw BuildCancelled'))
    // The agent's late reply changes nothing.
    hold = false
    for (const go of pending.splice(0)) go()
    expect((await view(t.buildId)).error.code).toBe('BUILD_CANCELLED')
    expect(calls.filter((c) => c === 'snapshot')).toHaveLength(1)
  })

  test('a queued build; a finished build is 409 BUILD_FINISHED; unknown 404; key scopes apply', async () => {
    // The desktop is held by another build, so this one stays queued.
    held.set('desk-1', 'someone-else')
    const t = await teach('/cancel/queued')
    const readOnly = createKey(s.ctx, { name: 'reader', scopes: 'read' }).key
    const denied = await cancel(t.buildId, readOnly)
    expect(denied.status).toBe(403)
    expect((await denied.json()).error.code).toBe('FORBIDDEN_SCOPE')
    const otherJobs = createKey(s.ctx, { name: 'other', jobs: 'POST /elsewhere' }).key
    expect((await cancel(t.buildId, otherJobs)).status).toBe(404)

    expect((await (await cancel(t.buildId)).json()).status).toBe('failed')
    held.delete('desk-1')
    worker.notify()
    const finished = await teach('/cancel/finished')
    await eventually(async () => (await view(finished.buildId)).status === 'failed')
    const res = await cancel(finished.buildId)
    expect(res.status).toBe(409)
    expect((await res.json()).error.code).toBe('BUILD_FINISHED')
    expect((await cancel('nope')).status).toBe(404)
  })
})

describe('removing a sample while its build is under way', () => {
  test('waiting for an answer: 200, the build goes, the builder stops, the desktop is free', async () => {
    calls.length = 0
    const t = await teach('/remove/ask')
    await eventually(async () => (await view(t.buildId)).status === 'waiting_for_answer')
    const res = await s.call(`/_jobs/${t.jobId}/samples/${t.sampleId}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect((await s.call(`/_builds/${t.buildId}`)).status).toBe(404)
    expect(held.has('desk-1')).toBe(false)
    await eventually(async () => calls.includes('threw BuildCancelled'))
  })

  test('exploring (inside a desktop call): the same', async () => {
    calls.length = 0
    hold = true
    const t = await teach('/remove/desktop')
    await eventually(async () => (await view(t.buildId)).status === 'exploring' && calls.includes('snapshot'))
    const res = await s.call(`/_jobs/${t.jobId}/samples/${t.sampleId}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(held.has('desk-1')).toBe(false)
    await eventually(async () => calls.includes('threw BuildCancelled'))
    hold = false
    for (const go of pending.splice(0)) go()
  })
})

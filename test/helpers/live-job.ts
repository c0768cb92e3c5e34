import { eq } from 'drizzle-orm'
import { jobs } from '../../src/db/schema/index.ts'
import { addJobVersion, promoteJob } from '../../src/modules/jobs/service.ts'
import type { Automation } from '../../src/protocol/automation.ts'
import { type TestServer, teachBody } from './test-server.ts'

export const noopAutomation = (steps = 3): Automation => ({
  version: 1,
  app: {},
  steps: Array.from({ length: steps }, (_, i) => ({
    kind: 'wait' as const,
    name: `Step ${i + 1}`,
    until: { kind: 'text' as const, text: 'x' },
  })),
  scenarios: [],
})

/**
 * A live job the way the builder leaves one (a taught sample, a version) after "Promote to live".
 * Server-side services stand in for the builder, which these tests are not about.
 */
export async function liveJob(
  s: TestServer,
  method: string,
  path: string,
  automation: Automation = noopAutomation(),
  opts: { timeoutMs?: number } = {},
): Promise<string> {
  const res = await s.call(path, {
    method: 'POST',
    json: teachBody({ prompt: `Job at ${path}`, method }, {}),
  })
  if (res.status !== 202) throw new Error(`teach failed: ${res.status} ${await res.text()}`)
  const { jobId } = await res.json()
  addJobVersion(s.ctx, jobId, automation)
  if (opts.timeoutMs) s.ctx.db.update(jobs).set({ timeoutMs: opts.timeoutMs }).where(eq(jobs.id, jobId)).run()
  promoteJob(s.ctx, method, path)
  return jobId
}

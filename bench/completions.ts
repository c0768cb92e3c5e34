import type { FakeDesktops } from './fake-desktops.ts'
import type { DeskhookReady } from './server-process.ts'
import { CALL_BODY } from './sync-overhead.ts'

export interface Completions {
  submitted: number
  completed: number
  /** Time to get all the 202s. */
  submitS: number
  /** First call sent → last result sent by an agent. */
  elapsedS: number
  perSecond: number
  /** Executions sampled through `/_executions/<id>` that read `succeeded`. */
  verified: number
  sampled: number
  timedOut: boolean
}

/**
 * `count` async calls (50 in flight), run by the connected fake desktops; done when the agents
 * have sent `count` results (or at the deadline). A sample is then polled to check the server
 * recorded them as succeeded.
 */
export async function completions(
  server: DeskhookReady,
  desktops: FakeDesktops,
  opts: { count: number; concurrency: number; timeoutMs: number },
): Promise<Completions> {
  const url = `${server.url}${server.jobPath}?async=1`
  const headers = { 'x-api-key': server.key, 'content-type': 'application/json' }
  const ids: string[] = []
  const before = desktops.completed
  const t0 = performance.now()
  const allDone = desktops.whenCompleted(before + opts.count, opts.timeoutMs)
  let next = 0
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < opts.count) {
        next++
        const res = await fetch(url, { method: 'POST', headers, body: CALL_BODY })
        const body = (await res.json()) as { jobExecutionId?: string }
        if (res.status !== 202 || !body.jobExecutionId) throw new Error(`async call answered ${res.status}`)
        ids.push(body.jobExecutionId)
      }
    }),
  )
  const submitS = (performance.now() - t0) / 1000
  const finished = await allDone
  const elapsedS = (performance.now() - t0) / 1000
  const completed = desktops.completed - before
  const sample = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 50)) === 0)
  const verified = await countSucceeded(server, sample)
  return {
    submitted: ids.length,
    completed,
    submitS,
    elapsedS,
    perSecond: completed / elapsedS,
    verified,
    sampled: sample.length,
    timedOut: !finished,
  }
}

/** Polls each execution (briefly: the agents already reported) until it reads succeeded. */
async function countSucceeded(server: DeskhookReady, ids: string[]): Promise<number> {
  let ok = 0
  for (const id of ids) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const res = await fetch(`${server.url}/_executions/${id}`, { headers: { 'x-api-key': server.key } })
      const view = (await res.json()) as { status?: string }
      if (view.status === 'succeeded') {
        ok++
        break
      }
      await Bun.sleep(20)
    }
  }
  return ok
}

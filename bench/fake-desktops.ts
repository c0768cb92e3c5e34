import type { AgentMessage } from '../src/protocol/messages.ts'
import { FakeRunner } from '../test/helpers/fake-runner.ts'

/**
 * Desktops that answer every run at once (the tests' FakeRunner: three step events with a tiny
 * screenshot each, then the result), timed from the moment a run arrives to the moment its result
 * is handed to the socket: the agent's own time, which (b) subtracts from the round trip.
 */
export class FakeDesktops {
  /** runId → ms the agent spent on that run. */
  readonly agentMs = new Map<string, number>()
  completed = 0
  #runners: FakeRunner[] = []
  #target = Number.POSITIVE_INFINITY
  #reached?: () => void

  static async connect(serverUrl: string, tokens: string[]): Promise<FakeDesktops> {
    const desktops = new FakeDesktops()
    desktops.#runners = await Promise.all(
      tokens.map((token, i) => FakeRunner.connect(serverUrl, { token }, {}, `bench-desktop-${i + 1}`)),
    )
    for (const runner of desktops.#runners) desktops.#instrument(runner)
    return desktops
  }

  #instrument(runner: FakeRunner): void {
    const startedAt = new Map<string, number>()
    const handle = runner.agent.onMessage
    runner.agent.onMessage = (msg) => {
      if (msg.type === 'run') startedAt.set(msg.runId, performance.now())
      handle?.(msg)
    }
    const send = runner.agent.send.bind(runner.agent)
    runner.agent.send = (msg: AgentMessage | Record<string, unknown>) => {
      send(msg)
      if (msg.type !== 'run.result') return
      const runId = String(msg.runId)
      const t0 = startedAt.get(runId)
      startedAt.delete(runId)
      if (t0 !== undefined) this.agentMs.set(runId, performance.now() - t0)
      if (++this.completed >= this.#target) this.#reached?.()
    }
  }

  /** Resolves true once `total` results were sent since connecting, or false at the deadline. */
  whenCompleted(total: number, timeoutMs: number): Promise<boolean> {
    if (this.completed >= total) return Promise.resolve(true)
    this.#target = total
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs)
      this.#reached = () => {
        clearTimeout(timer)
        resolve(true)
      }
    })
  }

  close(): void {
    for (const runner of this.#runners) runner.close()
  }
}

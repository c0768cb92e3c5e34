import type { Automation } from '../../src/protocol/automation.ts'
import type { RunOutcome, RunRequest } from '../../src/protocol/messages.ts'
import { FakeAgent } from './fake-agent.ts'

/** A tiny valid JPEG (SOI … EOI) standing in for a step screenshot. */
export const TINY_JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9,
])

export interface FakeRunBehaviour {
  /** How the run ends; default: succeeded with `{ echo: input }`. */
  outcome?: (run: RunRequest) => Partial<RunOutcome>
  /** Resolves when the agent may report the result (default: at once). */
  hold?: (run: RunRequest) => Promise<void>
  /** Index of the step that fails (its error names it); default none. */
  failStep?: number
}

/**
 * A desktop that executes runs without a UI: it reports every top-level step as started and
 * finished (with a screenshot) and then the outcome. Stands in for a real agent where the test is
 * about the server (queues, restarts, timeouts, events), not about driving an app.
 */
export class FakeRunner {
  readonly agent: FakeAgent
  readonly runs: RunRequest[] = []
  desktopId = ''
  #heartbeat?: ReturnType<typeof setInterval>

  private constructor(
    serverUrl: string,
    /** How runs end; a test may change it between calls. */
    public behaviour: FakeRunBehaviour,
  ) {
    this.agent = new FakeAgent(serverUrl)
  }

  static async connect(
    serverUrl: string,
    auth: { token: string } | { desktopId: string; secret: string },
    behaviour: FakeRunBehaviour = {},
    name = 'fake-desktop',
  ): Promise<FakeRunner & { secret: string }> {
    const r = new FakeRunner(serverUrl, behaviour)
    await r.agent.opened
    r.agent.hello('token' in auth ? { kind: 'enroll', token: auth.token } : { kind: 'credential', ...auth }, {
      name,
    })
    const welcome = await r.agent.next('welcome')
    r.desktopId = welcome.desktopId
    r.#heartbeat = setInterval(() => r.agent.send({ type: 'heartbeat' }), welcome.heartbeatIntervalMs)
    r.agent.onMessage = (m) => {
      if (m.type === 'run') void r.#run(m)
    }
    const secret = welcome.credential?.secret ?? ('secret' in auth ? auth.secret : '')
    return Object.assign(r, { secret })
  }

  async #run(run: RunRequest): Promise<void> {
    this.runs.push(run)
    const steps = (run.automation as Automation).steps
    const total = Math.max(steps.length, 1)
    for (const [i, step] of steps.entries()) {
      const base = {
        flowName: step.name,
        executionOrder: i + 1,
        totalSteps: total,
        startedAt: new Date().toISOString(),
      }
      this.agent.send({
        type: 'run.step',
        runId: run.runId,
        lease: run.lease,
        event: 'started',
        step: { ...base, status: 'RUNNING' },
      })
      const failed = this.behaviour.failStep === i
      this.agent.send({
        type: 'run.step',
        runId: run.runId,
        lease: run.lease,
        event: 'finished',
        step: {
          ...base,
          status: failed ? 'FAILED' : 'SUCCESS',
          result: failed ? null : { done: step.name },
          finishedAt: new Date().toISOString(),
          screenshot: TINY_JPEG.toString('base64'),
          ...(failed
            ? {
                error: {
                  code: 'ELEMENT_NOT_FOUND',
                  message: `No element for "${step.name}"`,
                  step: step.name,
                },
              }
            : {}),
        },
      })
      if (failed) break
    }
    await this.behaviour.hold?.(run)
    const now = new Date().toISOString()
    const failedStep = this.behaviour.failStep !== undefined ? steps[this.behaviour.failStep] : undefined
    const outcome: RunOutcome = {
      status: failedStep ? 'failed' : 'succeeded',
      scenario: 'main',
      outcome: failedStep ? 'failure' : 'success',
      result: failedStep ? {} : { echo: run.input },
      ...(failedStep
        ? {
            error: {
              code: 'ELEMENT_NOT_FOUND' as const,
              message: `No element for "${failedStep.name}"`,
              step: failedStep.name,
            },
          }
        : {}),
      startedAt: now,
      finishedAt: now,
      ...this.behaviour.outcome?.(run),
    }
    this.agent.send({ type: 'run.result', runId: run.runId, lease: run.lease, outcome })
  }

  close(): void {
    clearInterval(this.#heartbeat)
    this.agent.close()
  }
}

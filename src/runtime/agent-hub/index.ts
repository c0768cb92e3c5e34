import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { getDesktop, markAllOffline, setDesktopStatus } from '../../modules/desktops/service.ts'
import type { Automation } from '../../protocol/automation.ts'
import {
  AgentMessage,
  CLOSE,
  decodeMessage,
  type Hello,
  PROTOCOL_VERSION,
  type RpcMethod,
  type RunOutcome,
  type RunResult,
  type RunStep,
  type StepRecord,
} from '../../protocol/messages.ts'
import { automationDigest, signRun } from '../../protocol/run-signature.ts'
import type { Service } from '../service.ts'
import { authenticateHello, claimedDesktop } from './hello-auth.ts'
import { PendingHellos } from './pending-hellos.ts'
import { AgentLostError, PendingRuns } from './pending-runs.ts'
import { type PreviewFrame, PreviewRelay } from './preview-relay.ts'
import { AgentSession, type AgentSocket } from './session.ts'

export { AgentLostError }

const MISSED_HEARTBEATS = 3

export { MAX_PENDING_HELLOS, MAX_PENDING_HELLOS_PER_ADDRESS } from './pending-hellos.ts'
/** Largest frame before hello: a hello is a few hundred bytes. */
export const MAX_HELLO_FRAME = 64 * 1024

export interface RunDispatch {
  runId: string
  /** Stored with the execution so a report replayed after a restart can be checked; default: new. */
  lease?: string
  automation: Automation
  input: Record<string, unknown>
  timeoutMs: number
  /** The automation's digest when the caller has it (cached per version); computed otherwise. */
  automationSha256?: string
}

/**
 * The live connections to agents: authenticates them, tracks online/busy/offline, carries the
 * builder's remote calls and the runner's runs, and drops agents that go quiet or are revoked.
 */
export class AgentHub implements Service {
  readonly name = 'agent hub'
  #sessions = new Map<string, AgentSession>()
  #pending: PendingHellos
  #orphanHandler?: (desktopId: string, runId: string, lease: string, outcome: RunOutcome) => boolean
  #resendHandler?: (runId: string) => void
  #runs = new PendingRuns()
  #previews: PreviewRelay
  #monitor: ReturnType<typeof setInterval> | undefined
  #unsubscribe: () => void = () => {}
  #stopped = false

  constructor(private readonly ctx: AppContext) {
    this.#previews = new PreviewRelay(ctx)
    this.#pending = new PendingHellos(ctx.log, ctx.config.helloTimeoutMs)
  }

  /** Marks every desktop offline (none is connected to a process that just started) and watches. */
  start(): void {
    const { ctx } = this
    markAllOffline(ctx)
    this.#monitor = setInterval(() => {
      try {
        this.#dropSilent()
      } catch (err) {
        ctx.log.error({ err }, 'agent heartbeat check failed; the loop goes on')
      }
    }, ctx.config.heartbeatIntervalMs)
    this.#monitor.unref()
    const recheck = () => this.#dropRevoked()
    ctx.events.on('desktop.revoked', recheck)
    ctx.events.on('db.external-change', recheck)
    this.#unsubscribe = () => {
      ctx.events.off('desktop.revoked', recheck)
      ctx.events.off('db.external-change', recheck)
    }
  }

  // ── socket lifecycle (called by the WebSocket route) ─────────────────────────
  open(socket: AgentSocket, claim?: string | null): AgentSession {
    const session = new AgentSession(socket)
    if (this.#stopped) {
      session.close(CLOSE.SHUTTING_DOWN, 'server shutting down')
      return session
    }
    // Until its hello, a socket is anonymous: its caps and deadline are in pending-hellos.ts.
    this.#pending.add(session, socket.remoteAddress ?? '', claimedDesktop(this.ctx, claim))
    return session
  }

  message(session: AgentSession, data: unknown, size = 0): void {
    session.lastSeen = Date.now()
    if (!session.desktopId) {
      // Before hello: one small text frame, the hello; anything else ends the socket.
      if (data instanceof Uint8Array || data instanceof ArrayBuffer)
        return session.close(CLOSE.PROTOCOL, 'binary frame before hello')
      if (size > MAX_HELLO_FRAME) return session.close(1009, 'frame too large before hello')
    }
    if (data instanceof Uint8Array || data instanceof ArrayBuffer)
      return this.#previews.receive(session, data)
    const decoded = decodeMessage(AgentMessage, data)
    if (!decoded.ok) {
      this.ctx.log.warn(
        { desktopId: session.desktopId, error: decoded.error },
        'invalid agent message; closing',
      )
      return session.close(CLOSE.PROTOCOL, decoded.error.slice(0, 120))
    }
    const msg = decoded.message
    if (msg.type === 'hello') return this.#hello(session, msg)
    if (!session.desktopId) return session.close(CLOSE.AUTH_FAILED, 'hello first')
    switch (msg.type) {
      case 'heartbeat':
        session.busyRunId = msg.busyRunId
        session.send({ type: 'heartbeat.ack' })
        return setDesktopStatus(
          this.ctx,
          session.desktopId,
          msg.busyRunId ? 'busy' : 'online',
          msg.session ? { sessionState: msg.session } : {},
        )
      case 'rpc.result': {
        const rpc = session.rpcs.get(msg.id)
        if (!rpc) return
        session.rpcs.delete(msg.id)
        clearTimeout(rpc.timer)
        if (msg.ok) rpc.resolve(msg.result)
        else
          rpc.reject(
            new AppError(
              'SERVICE_UNAVAILABLE',
              `${rpc.method} failed on the desktop: ${msg.error?.code}: ${msg.error?.message}`,
              { driverError: msg.error },
            ),
          )
        return
      }
      case 'run.step':
        return this.#runStep(session, msg)
      case 'run.result':
        return this.#runResult(session, msg)
    }
  }

  close(session: AgentSession, code: number, reason: string): void {
    this.#pending.delete(session)
    session.closed = true
    for (const rpc of session.rpcs.values()) {
      clearTimeout(rpc.timer)
      rpc.reject(new AppError('SERVICE_UNAVAILABLE', `The desktop disconnected during ${rpc.method}`))
    }
    session.rpcs.clear()
    const id = session.desktopId
    if (!id || this.#sessions.get(id) !== session) return
    this.#sessions.delete(id)
    setDesktopStatus(this.ctx, id, 'offline')
    this.#runs.startGrace(id, this.ctx.config.agentGraceMs)
    this.ctx.log.info({ desktopId: id, code, reason }, 'desktop disconnected')
    this.ctx.events.emit('desktop.offline', id)
  }

  // ── API for the builder and the scheduler ────────────────────────────────────
  onlineDesktops(): { id: string; name: string; busy: boolean }[] {
    return [...this.#sessions.values()].map((s) => ({
      id: s.desktopId!,
      name: s.name!,
      busy: Boolean(s.busyRunId || s.reservedBy),
    }))
  }

  /**
   * Holds a free desktop for `owner` (a build), so the scheduler sends it no live runs meanwhile.
   * Returns false if it is offline, busy or held by someone else.
   */
  reserve(desktopId: string, owner: string): boolean {
    const s = this.#sessions.get(desktopId)
    if (!s || s.busyRunId || (s.reservedBy && s.reservedBy !== owner)) return false
    s.reservedBy = owner
    return true
  }

  /** Ends a hold; the scheduler hears of the free desktop like of one coming online. */
  release(desktopId: string, owner: string): void {
    const s = this.#sessions.get(desktopId)
    if (s?.reservedBy !== owner) return
    s.reservedBy = undefined
    this.ctx.events.emit('desktop.online', desktopId)
  }

  /** The result is recorded (committed): the run is over here, and the agent may drop it from its journal. */
  acknowledge(desktopId: string, runId: string): void {
    this.#runs.forget(runId)
    this.#sessions.get(desktopId)?.send({ type: 'run.ack', runId })
  }

  /**
   * Who hears of a run's report sent again before the first was acknowledged (its write failed):
   * it may write it again at once.
   */
  setResendHandler(handler: (runId: string) => void): void {
    this.#resendHandler = handler
  }

  /**
   * Who takes results of runs nobody in this process dispatched (reported after a restart, from
   * the agent's journal). Returning true means "I record it and acknowledge it afterwards".
   */
  setOrphanHandler(
    handler: (desktopId: string, runId: string, lease: string, outcome: RunOutcome) => boolean,
  ): void {
    this.#orphanHandler = handler
  }

  /** The run the desktop's agent says it is in the middle of (from its hello or heartbeat). */
  busyRunOf(desktopId: string): string | undefined {
    return this.#sessions.get(desktopId)?.busyRunId
  }

  /** The build holding the desktop (see reserve), if any. */
  heldBy(desktopId: string): string | undefined {
    return this.#sessions.get(desktopId)?.reservedBy
  }

  isOnline(desktopId: string): boolean {
    return this.#sessions.has(desktopId)
  }

  /** Calls a driver method on the desktop (snapshot, act, …) and returns its result. */
  rpc<T = unknown>(desktopId: string, method: RpcMethod, params: unknown[], timeoutMs = 30_000): Promise<T> {
    const session = this.#require(desktopId)
    const id = newId()
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        session.rpcs.delete(id)
        reject(
          new AppError('SERVICE_UNAVAILABLE', `The desktop did not answer ${method} within ${timeoutMs} ms`),
        )
      }, timeoutMs)
      session.rpcs.set(id, { method, resolve: resolve as (v: unknown) => void, reject, timer })
      session.send({ type: 'rpc', id, method, params })
    })
  }

  /**
   * Hands a whole automation to the desktop's agent, signed with the connection's run-signing key,
   * and resolves with its report. Step events stream through `onStep`. If the agent vanishes, the
   * run waits the grace period for a report over a new connection, then rejects with
   * AgentLostError. Never re-sent. The run stays known until acknowledge() says its end is recorded.
   */
  run(
    desktopId: string,
    dispatch: RunDispatch,
    onStep?: (event: 'started' | 'finished', step: StepRecord) => void,
  ): Promise<RunOutcome> {
    const session = this.#require(desktopId)
    if (session.busyRunId)
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `Desktop ${session.name} is busy with run ${session.busyRunId}`,
      )
    const { automationSha256, ...fields } = dispatch
    const run = { ...fields, lease: dispatch.lease ?? newId() }
    const signature = signRun(session.runKey!, run, automationSha256 ?? automationDigest(run.automation))
    const outcome = new Promise<RunOutcome>((resolve, reject) =>
      this.#runs.add(run.runId, { desktopId, lease: run.lease, onStep, resolve, reject }),
    )
    session.busyRunId = run.runId
    setDesktopStatus(this.ctx, desktopId, 'busy')
    session.send({ type: 'run', ...run, signature })
    return outcome
  }

  cancel(desktopId: string, runId: string, reason: string): void {
    this.#sessions.get(desktopId)?.send({ type: 'cancel', runId, reason })
  }

  // Live previews (preview-relay.ts): the dashboard's watchers ask through the hub.
  startPreview(desktopId: string, intervalMs: number, windowId?: string): void {
    this.#previews.start(this.#require(desktopId), intervalMs, windowId)
  }

  stopPreview(desktopId: string): void {
    this.#previews.stop(this.#sessions.get(desktopId))
  }

  latestPreview(desktopId: string): PreviewFrame | undefined {
    return this.#previews.latest(this.#sessions.get(desktopId))
  }

  async stop(): Promise<void> {
    if (this.#stopped) return
    this.#stopped = true
    clearInterval(this.#monitor)
    this.#unsubscribe()
    this.#pending.stop()
    for (const s of this.#sessions.values()) s.close(CLOSE.SHUTTING_DOWN, 'server shutting down')
    this.#sessions.clear()
    this.#runs.failAll(new AgentLostError('The server shut down before the run was reported'))
  }

  // ── internals ───────────────────────────────────────────────────────────────
  #require(desktopId: string): AgentSession {
    const session = this.#sessions.get(desktopId)
    if (!session) throw new AppError('SERVICE_UNAVAILABLE', `Desktop ${desktopId} is not connected`)
    return session
  }

  #hello(session: AgentSession, hello: Hello): void {
    this.#pending.delete(session)
    if (session.desktopId) return session.close(CLOSE.PROTOCOL, 'hello sent twice')
    const verdict = authenticateHello(this.ctx, hello)
    if (!verdict.ok) return session.close(verdict.code, verdict.reason)
    const { desktop, credential } = verdict
    const previous = this.#sessions.get(desktop.id)
    if (previous) {
      this.#sessions.delete(desktop.id)
      previous.close(CLOSE.REPLACED, 'replaced by a newer connection of the same desktop')
    }
    session.desktopId = desktop.id
    session.name = hello.name
    session.runKey = verdict.runKey
    session.busyRunId = hello.busyRunId
    this.#sessions.set(desktop.id, session)
    setDesktopStatus(this.ctx, desktop.id, hello.busyRunId ? 'busy' : 'online', {
      name: hello.name,
      platform: hello.platform,
      driver: hello.driver,
      agentVersion: hello.agentVersion,
      // An agent that cannot tell clears what an earlier one said.
      sessionState: hello.session ?? null,
    })
    this.#runs.cancelGrace(desktop.id)
    session.send({
      type: 'welcome',
      protocol: PROTOCOL_VERSION,
      desktopId: desktop.id,
      name: hello.name,
      heartbeatIntervalMs: this.ctx.config.heartbeatIntervalMs,
      ...(credential ? { credential } : {}),
    })
    this.ctx.log.info(
      { desktopId: desktop.id, name: hello.name, enrolled: Boolean(credential) },
      'desktop connected',
    )
    this.ctx.events.emit('desktop.online', desktop.id)
  }

  #runStep(session: AgentSession, msg: RunStep): void {
    const run = this.#runs.get(msg.runId)
    if (!run || run.lease !== msg.lease || run.desktopId !== session.desktopId)
      return this.ctx.log.warn(
        { desktopId: session.desktopId, runId: msg.runId },
        'step event with a stale or unknown lease ignored',
      )
    run.onStep?.(msg.event, msg.step)
  }

  #runResult(session: AgentSession, msg: RunResult): void {
    const desktopId = session.desktopId!
    const run = this.#runs.get(msg.runId)
    if (run && (run.lease !== msg.lease || run.desktopId !== desktopId)) {
      return this.ctx.log.warn({ desktopId, runId: msg.runId }, 'run result with a stale lease ignored')
    }
    if (session.busyRunId === msg.runId) session.busyRunId = undefined
    setDesktopStatus(this.ctx, desktopId, session.busyRunId ? 'busy' : 'online')
    // The agent keeps a result in its journal until acknowledged, so the ack must wait until the
    // result is durable here: whoever records it calls acknowledge() after its commit.
    const verdict = this.#runs.report(msg.runId, msg.outcome)
    if (verdict === 'first') return
    // Sent again while its first copy is not recorded (that write failed, or is under way): still
    // no ack, and whoever records it may try again now (docs/reliability.md, P22).
    if (verdict === 'again') return this.#resendHandler?.(msg.runId)
    const adopted = this.#orphanHandler?.(desktopId, msg.runId, msg.lease, msg.outcome) ?? false
    this.ctx.events.emit('agent.run-result', desktopId, msg.runId, msg.lease, msg.outcome)
    // Nobody is waiting for it (already ended, or unknown): nothing to record, let the agent forget it.
    if (!adopted) session.send({ type: 'run.ack', runId: msg.runId })
  }

  #dropSilent(): void {
    const limit = this.ctx.config.heartbeatIntervalMs * MISSED_HEARTBEATS
    const now = Date.now()
    for (const s of this.#sessions.values()) {
      if (now - s.lastSeen > limit) s.close(CLOSE.HEARTBEAT_MISSED, `no heartbeat for ${now - s.lastSeen} ms`)
    }
  }

  #dropRevoked(): void {
    for (const [id, s] of this.#sessions) {
      if (getDesktop(this.ctx, id)?.revokedAt) s.close(CLOSE.REVOKED, 'this desktop was revoked')
    }
  }
}

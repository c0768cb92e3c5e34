import { hostname } from 'node:os'
import type {
  RunHooks,
  RunResult as RunnerResult,
  RunOptions,
  StepResult,
  StepStarted,
} from '../automation/run-types.ts'
import type { Logger } from '../lib/logger.ts'
import { runInputSecretTexts, scrubSecrets } from '../lib/scrub-secrets.ts'
import { splitEnrollmentToken } from '../lib/tls-pin.ts'
import type { Automation } from '../protocol/automation.ts'
import { type Driver, DriverError } from '../protocol/driver.ts'
import type {
  Hello,
  RunRequest,
  RunResult,
  ServerMessage,
  StepRecord,
  Welcome,
} from '../protocol/messages.ts'
import { PROTOCOL_VERSION } from '../protocol/messages.ts'
import { encodePreviewFrame } from '../protocol/preview-frame.ts'
import { automationDigest, checkRunSignature, runSigningKey } from '../protocol/run-signature.ts'
import { AgentConnection } from './connection.ts'
import { Recorder } from './recorder.ts'
import { redactedScreenshot } from './redacted-screenshot.ts'
import { watchSession } from './session-watch.ts'
import type { StateStore } from './state-store.ts'

export type RunAutomation = (
  driver: Driver,
  automation: Automation,
  input: Record<string, unknown>,
  hooks?: RunHooks,
  options?: RunOptions,
) => Promise<RunnerResult>

export interface AgentOptions {
  server: string
  /** `dhe_<secret>`, or `dhe_<secret>~<fingerprint>` to pin the server's certificate. */
  token?: string
  /** Pins this certificate (SHA-256 hex) instead of the saved one (after the server's CA changed). */
  pin?: string
  name?: string
  driver: Driver
  runAutomation: RunAutomation
  state: StateStore
  log: Logger
  version: string
  backoffBaseMs?: number
  backoffCapMs?: number
  /** How often the desktop's session is looked at (locked, disconnected…); default 5 s. */
  sessionPollMs?: number
  /** Called when the agent cannot go on (revoked, token refused): the CLI exits non-zero. */
  onFatal: (reason: string) => void
}

const platform = (): Hello['platform'] =>
  process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'darwin' : 'linux'

/** The longest one preview frame may take to capture. */
const PREVIEW_CAPTURE_MS = 3_000

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no frame within ${ms} ms`)), ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}

const RECORDER_METHODS = new Set(['recordStart', 'recordStatus', 'recordStop', 'input'])

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

/** A live preview being captured; `ended` drops a frame still being captured when it stops. */
interface Preview {
  timer: ReturnType<typeof setInterval>
  ended: boolean
}

/**
 * The agent: one connection to the server, one driver, one run at a time. Builder calls (snapshot,
 * act…) go straight to the driver; runs go through the automation runner; every run result is
 * journaled before it is sent and dropped only when the server acknowledges it.
 */
export class Agent {
  readonly connection: AgentConnection
  #name: string
  /** The certificate the server must present; saved with the credential at enrollment. */
  readonly #pin?: string
  #busy?: { runId: string; abort: AbortController }
  #preview?: Preview
  readonly #recorder: Recorder
  /** The credential secret the last hello carried (undefined when it enrolled with a token). */
  #helloSecret?: string
  /** Derived from the credential at each welcome: only runs signed with it are run. */
  #runKey?: Buffer
  #stopWatchingSession?: () => void

  constructor(private readonly opts: AgentOptions) {
    this.#recorder = new Recorder(opts.driver, opts.log)
    const saved = opts.state.loadCredential(opts.server)
    this.#name = opts.name ?? saved?.name ?? hostname()
    // The credential in use decides: an enrolled agent keeps the pin it enrolled with.
    this.#pin = opts.pin ?? (saved ? saved.pin : splitEnrollmentToken(opts.token ?? '').pin)
    this.connection = new AgentConnection({
      server: opts.server,
      pin: this.#pin,
      pinFrom: () => (opts.pin ? 'flag' : opts.state.loadCredential(opts.server) ? 'enrollment' : 'token'),
      onRefused: (reason) => opts.onFatal(reason),
      log: opts.log,
      backoffBaseMs: opts.backoffBaseMs,
      backoffCapMs: opts.backoffCapMs,
      hello: () => this.#hello(),
      onWelcome: (w) => this.#welcome(w),
      onMessage: (m) => void this.#handle(m),
      onFatal: (code, reason) => opts.onFatal(`the server closed the connection (${code}): ${reason}`),
    })
  }

  start(): void {
    if (!this.opts.state.loadCredential(this.opts.server) && !this.opts.token)
      return this.opts.onFatal(
        'this agent is not enrolled with that server yet: pass --token (from `deskhook desktops token`)',
      )
    this.connection.start()
    this.#stopWatchingSession = watchSession(
      this.opts.driver,
      this.connection,
      this.opts.log,
      this.opts.sessionPollMs ?? 5_000,
    )
  }

  async stop(): Promise<void> {
    this.#stopWatchingSession?.()
    this.#endPreview()
    await this.#recorder.discard()
    this.#busy?.abort.abort()
    this.connection.stop()
    await this.opts.driver.stop()
  }

  #hello(): Hello {
    const saved = this.opts.state.loadCredential(this.opts.server)
    const auth: Hello['auth'] = saved
      ? { kind: 'credential', desktopId: saved.desktopId, secret: saved.secret }
      : { kind: 'enroll', token: splitEnrollmentToken(this.opts.token ?? '').secret }
    this.#helloSecret = saved?.secret
    return {
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      agentVersion: this.opts.version,
      name: this.#name,
      platform: platform(),
      driver: this.opts.driver.kind,
      auth,
      ...(this.#busy ? { busyRunId: this.#busy.runId } : {}),
      ...(this.connection.session ? { session: this.connection.session } : {}),
    }
  }

  #welcome(welcome: Welcome): void {
    const pin = this.#pin ? { pin: this.#pin } : {}
    // The server derives the same key from the credential it just checked (or issued).
    const secret = welcome.credential?.secret ?? this.#helloSecret
    this.#runKey = secret ? runSigningKey(secret) : undefined
    if (welcome.credential) {
      this.opts.state.saveCredential({
        server: this.opts.server,
        ...welcome.credential,
        name: this.#name,
        ...pin,
      })
      this.opts.log.info({ desktopId: welcome.desktopId, pinned: !!this.#pin }, 'enrolled; credential saved')
    } else {
      // A pin given on the command line replaces the saved one once the server proved it holds it.
      const saved = this.opts.state.loadCredential(this.opts.server)
      if (saved && this.#pin && saved.pin !== this.#pin) this.opts.state.saveCredential({ ...saved, ...pin })
    }
    this.opts.log.info({ desktopId: welcome.desktopId, name: welcome.name }, 'online')
    // A build does not outlive the link it ran over: settings one was guarding go back now, so a
    // live run never starts from a dead build's guard (src/agent/drivers/native/settings-guard.ts).
    this.opts.driver
      .restoreSettings?.()
      .catch((err: Error) => this.opts.log.warn({ err: err.message }, 'settings not put back'))
    // Results that finished while the link was down go out first.
    for (const pending of this.opts.state.pending()) this.connection.send({ ...pending, replayed: true })
  }

  async #handle(msg: Exclude<ServerMessage, Welcome>): Promise<void> {
    switch (msg.type) {
      case 'rpc':
        return this.#rpc(msg.id, msg.method, msg.params)
      case 'run':
        return this.#run(msg)
      case 'cancel':
        if (this.#busy?.runId === msg.runId) this.#busy.abort.abort(new Error(msg.reason))
        return
      case 'run.ack':
        return this.opts.state.acknowledge(msg.runId)
      case 'preview.start':
        return this.#startPreview(msg.intervalMs, msg.windowId)
      case 'preview.stop':
        if (this.#endPreview()) this.opts.log.info('preview stopped')
        return
    }
  }

  async #rpc(id: string, method: string, params: unknown[]): Promise<void> {
    try {
      // "Show me" calls go to the recorder; the rest map onto the driver.
      const target = RECORDER_METHODS.has(method) ? this.#recorder : this.opts.driver
      const call = (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]
      if (typeof call !== 'function')
        throw new DriverError('UNSUPPORTED_ACTION', `the ${this.opts.driver.kind} driver has no ${method}`)
      // A picture that leaves the agent outside a run never shows a password field's content.
      let result =
        method === 'screenshot'
          ? await redactedScreenshot(this.opts.driver, String(params[0]))
          : await call.apply(target, params)
      if (result instanceof Uint8Array) result = b64(result)
      this.connection.send({ type: 'rpc.result', id, ok: true, result })
    } catch (err) {
      const code = err instanceof DriverError ? err.code : 'AGENT_ERROR'
      this.connection.send({
        type: 'rpc.result',
        id,
        ok: false,
        error: { code, message: (err as Error).message },
      })
    }
  }

  async #run(req: RunRequest): Promise<void> {
    const startedAt = new Date().toISOString()
    const automationSha256 = automationDigest(req.automation)
    const signature = checkRunSignature(this.#runKey, req)
    if (signature !== 'valid') return this.#refuse(req, startedAt, signature, automationSha256)
    if (this.#busy) {
      return this.#finish(req, startedAt, {
        status: 'failed',
        scenario: 'main',
        outcome: 'failure',
        result: {},
        error: { code: 'DRIVER_ERROR', message: `this desktop is busy with run ${this.#busy.runId}` },
        steps: [],
      })
    }
    const abort = new AbortController()
    const timer = setTimeout(
      () => abort.abort(new Error(`run timed out after ${req.timeoutMs} ms`)),
      req.timeoutMs,
    )
    this.#busy = { runId: req.runId, abort }
    this.connection.busyRunId = req.runId
    this.opts.log.info(
      { runId: req.runId, steps: req.automation.steps.length, automationSha256 },
      'run started',
    )
    // The job's secrets and the caller's secret inputs never leave this run in clear: not in a step
    // sent, not in the journal written to disk.
    const hide = runInputSecretTexts(req.input)
    const step = (event: 'started' | 'finished', s: StepStarted | StepResult) => {
      const { screenshot, ...rest } = s as StepResult
      const record: StepRecord = {
        ...scrubSecrets(rest, hide),
        status: event === 'started' ? 'RUNNING' : (s as StepResult).status,
        ...(screenshot ? { screenshot: b64(screenshot) } : {}),
      }
      this.connection.send({ type: 'run.step', runId: req.runId, lease: req.lease, event, step: record })
    }
    let result: RunnerResult
    try {
      result = await this.opts.runAutomation(
        this.opts.driver,
        req.automation,
        req.input,
        { onStepStarted: (s) => step('started', s), onStepFinished: (s) => step('finished', s) },
        { signal: abort.signal },
      )
    } catch (err) {
      result = {
        status: 'failed',
        scenario: 'main',
        outcome: 'failure',
        result: {},
        error: { code: 'DRIVER_ERROR', message: (err as Error).message },
        steps: [],
      }
    } finally {
      clearTimeout(timer)
      this.#busy = undefined
      this.connection.busyRunId = undefined
    }
    this.#finish(req, startedAt, result, hide)
  }

  /**
   * Only automations its server signed run here: anything else (unsigned, or altered after it was
   * signed) is refused before the driver is touched, logged, and reported back as a failed run.
   */
  #refuse(
    req: RunRequest,
    startedAt: string,
    check: 'unsigned' | 'mismatch',
    automationSha256: string,
  ): void {
    const message =
      check === 'unsigned'
        ? 'the run carries no signature: this agent runs only runs its server signed (is the server older than the agent?)'
        : "the run's signature does not match it: not signed by this desktop's server, or altered on the way"
    this.opts.log.error(
      { runId: req.runId, code: 'RUN_SIGNATURE_INVALID', reason: check, automationSha256 },
      'run refused: not signed by the server',
    )
    this.#finish(req, startedAt, {
      status: 'failed',
      scenario: 'main',
      outcome: 'failure',
      result: {},
      error: { code: 'RUN_SIGNATURE_INVALID', message },
      steps: [],
    })
  }

  #finish(req: RunRequest, startedAt: string, r: RunnerResult, hide: readonly string[] = []): void {
    const message: RunResult = {
      type: 'run.result',
      runId: req.runId,
      lease: req.lease,
      outcome: scrubSecrets(
        {
          status: r.status,
          scenario: r.scenario,
          outcome: r.outcome,
          result: r.result,
          ...(r.error ? { error: r.error } : {}),
          startedAt,
          finishedAt: new Date().toISOString(),
        },
        hide,
      ),
    }
    // Journal first: if the link is down now, the result goes out after the next welcome.
    this.opts.state.journal(message)
    const sent = this.connection.send(message)
    this.opts.log.info({ runId: req.runId, status: r.status, error: r.error?.code, sent }, 'run finished')
  }

  #startPreview(intervalMs: number, windowId?: string): void {
    this.#endPreview()
    let inFlight = false
    const preview: Preview = {
      ended: false,
      timer: setInterval(async () => {
        if (inFlight || !this.connection.connected) return
        inFlight = true
        try {
          // While a demonstration is recorded, the preview shows the window it records.
          const id = windowId ?? this.#recorder.windowId ?? (await this.opts.driver.listWindows())[0]?.id
          if (!id) return
          // A capture that hangs (a page between two documents) must not stop the stream: the
          // next tick tries again. Password fields are blacked out of every frame.
          const jpeg = await withDeadline(redactedScreenshot(this.opts.driver, id), PREVIEW_CAPTURE_MS)
          // A stop that arrived while this frame was captured wins: nothing follows "preview stopped".
          if (!preview.ended) this.connection.sendBinary(encodePreviewFrame(id, jpeg))
        } catch (err) {
          this.opts.log.debug({ err }, 'preview frame skipped')
        } finally {
          inFlight = false
        }
      }, intervalMs),
    }
    this.#preview = preview
    this.opts.log.info({ intervalMs, windowId }, 'preview started')
  }

  /** Stops capturing, a frame being captured included; false when no preview was on. */
  #endPreview(): boolean {
    const preview = this.#preview
    if (!preview) return false
    this.#preview = undefined
    preview.ended = true
    clearInterval(preview.timer)
    return true
  }
}

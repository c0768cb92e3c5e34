// Supervises one native helper process (protocol: protocol/helper.ts). Shared by every native
// backend: the Linux AT-SPI helper now, the Windows UI Automation helper next; only the command
// line differs. Every call has a deadline; a helper that hangs past it is killed with its process
// group, one that dies fails its calls, and either way the next helper is started at once.
// Besides answers, a helper writes event lines of the watches it was asked to run: routed by
// watch id to whoever subscribed (helper-events.ts).

import { TypeCompiler } from '@sinclair/typebox/compiler'
import type { Subprocess } from 'bun'
import type { Logger } from '../../../lib/logger.ts'
import { DriverError, type DriverErrorCode } from '../../../protocol/driver.ts'
import {
  HELPER_COMMANDS,
  HELPER_DRIVER_ERROR_CODES,
  HELPER_PROTOCOL_VERSION,
  type HelperArgs,
  type HelperCommand,
  type HelperEvent,
  type HelperEventName,
  HelperResponse,
  type HelperResult,
} from '../../../protocol/helper.ts'
import { HelperEvents, type HelperSubscription, isEventLine, schemaChecker } from './helper-events.ts'
import { parseLogLine } from './helper-log.ts'

export type { HelperSubscription } from './helper-events.ts'

export interface HelperHostOptions {
  /** The helper's command line, e.g. `['/usr/bin/python3', '<state dir>/atspi-helper.py']`. */
  command: string[]
  /** The helper's environment (default: the agent's). */
  env?: Record<string, string | undefined>
  log: Logger
  /** Deadline of a call that names none (ms). */
  callTimeoutMs?: number
  /** Deadline of starting the helper up to its `hello` answer (ms). */
  startTimeoutMs?: number
  /** The protocol version this host speaks (tests pretend to be an agent of another version). */
  protocolVersion?: number
}

export type HelloInfo = HelperResult<'hello'>

/** Helper error codes that mean the same to callers as the driver's own. */
const PASSED_ON = new Set<string>(HELPER_DRIVER_ERROR_CODES)

interface Pending {
  cmd: string
  resolve: (result: unknown) => void
  reject: (error: Error) => void
  timer: ReturnType<typeof setTimeout>
}

interface Running {
  proc: Subprocess<'pipe', 'pipe', 'pipe'>
  /** Counts helpers started by this host: refs and windows from an older one are stale. */
  instance: number
  pending: Map<string, Pending>
  /** The last stderr lines, for the message of a crash. */
  stderrTail: string[]
  /** Set once this helper is being ended on purpose (deadline, stop): its exit is no crash. */
  ending?: DriverError
}

const checkResponse = TypeCompiler.Compile(HelperResponse)

export class HelperHost {
  #running?: Running
  #starting?: Promise<Running>
  #instances = 0
  #nextId = 1
  #stopped = false
  #hello?: HelloInfo
  readonly #events: HelperEvents

  constructor(private readonly options: HelperHostOptions) {
    this.#events = new HelperEvents(options.log)
  }

  /** Which helper answers now (1 for the first, +1 per restart); undefined before the first start. */
  get instance(): number | undefined {
    return this.#running?.instance
  }

  get pid(): number | undefined {
    return this.#running?.proc.pid
  }

  /** Calls sent to the running helper and not answered yet. */
  get inFlight(): number {
    return this.#running?.pending.size ?? 0
  }

  /** What the running helper said at `hello`. */
  get hello(): HelloInfo | undefined {
    return this.#hello
  }

  /** Starts the helper if none runs; resolves once it answered `hello`. */
  async start(): Promise<HelloInfo> {
    this.#stopped = false
    await this.#ensure()
    return this.#hello as HelloInfo
  }

  /** A typed call: arguments and result as protocol/helper.ts declares them. */
  async call<C extends HelperCommand>(
    cmd: C,
    args: HelperArgs<C>,
    opts: { timeoutMs?: number } = {},
  ): Promise<HelperResult<C>> {
    const result = await this.request(cmd, args as Record<string, unknown>, opts)
    const schema = HELPER_COMMANDS[cmd].result
    const checker = schemaChecker(schema)
    if (!checker.Check(result)) {
      const first = checker.Errors(result).First()
      throw new DriverError(
        'PROTOCOL_ERROR',
        `The helper's ${cmd} result is malformed: ${first?.path || '/'} ${first?.message ?? ''}`.trim(),
      )
    }
    return result as HelperResult<C>
  }

  /** One request as it is, with no check of the result: for commands outside the table (tests). */
  async request(cmd: string, args: Record<string, unknown>, opts: { timeoutMs?: number } = {}) {
    if (this.#stopped) throw new DriverError('DISCONNECTED', 'The native driver is stopped')
    const running = await this.#ensure()
    return this.#send(running, cmd, args, opts.timeoutMs ?? this.options.callTimeoutMs ?? 15_000)
  }

  /**
   * Routes the running helper's `event` lines of a new watch id to `onEvent` (starts the helper
   * if none runs). Start the watch with `subscription.watch` afterwards, so no line of it can come
   * before there is someone to take it. `onLost` is told when the helper ends with the watch.
   */
  async subscribe<E extends HelperEventName>(
    event: E,
    onEvent: (event: HelperEvent<E>) => void,
    onLost?: (error: DriverError) => void,
  ): Promise<HelperSubscription> {
    if (this.#stopped) throw new DriverError('DISCONNECTED', 'The native driver is stopped')
    const running = await this.#ensure()
    return this.#events.subscribe(event, running.instance, onEvent, onLost)
  }

  /** Ends the helper: its stdin closes (it exits on EOF), then its process group is killed. */
  async stop(): Promise<void> {
    this.#stopped = true
    const running = this.#running ?? (await this.#starting?.catch(() => undefined))
    if (!running) return
    running.ending = new DriverError('DISCONNECTED', 'The native driver stopped')
    try {
      running.proc.stdin.end()
    } catch {}
    const exited = await Promise.race([
      running.proc.exited.then(() => true),
      Bun.sleep(2000).then(() => false),
    ])
    if (!exited) killGroup(running.proc.pid)
    await running.proc.exited
  }

  async #ensure(): Promise<Running> {
    if (this.#running) return this.#running
    this.#starting ??= this.#spawn().finally(() => {
      this.#starting = undefined
    })
    return this.#starting
  }

  async #spawn(): Promise<Running> {
    const { command, env, log } = this.options
    let proc: Subprocess<'pipe', 'pipe', 'pipe'>
    try {
      proc = Bun.spawn(command, {
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'pipe',
        // Its own process group, so a hung helper is killed with anything it started on its own.
        detached: true,
        env: env ?? process.env,
      })
    } catch (error) {
      throw new DriverError(
        'HELPER_CRASHED',
        `Cannot start the helper ${command[0]}: ${(error as Error).message}`,
      )
    }
    const running: Running = {
      proc,
      instance: ++this.#instances,
      pending: new Map(),
      stderrTail: [],
    }
    log.debug({ pid: proc.pid, instance: running.instance }, 'native helper started')
    void this.#readStdout(running)
    void this.#readStderr(running)
    void proc.exited.then((code) => this.#exited(running, code))
    const timeoutMs = this.options.startTimeoutMs ?? 20_000
    const spoken = this.options.protocolVersion ?? HELPER_PROTOCOL_VERSION
    let hello: HelloInfo
    try {
      const result = await this.#send(running, 'hello', { protocol: spoken }, timeoutMs).catch((error) => {
        // The helper's own refusal says which version it speaks.
        if (error instanceof DriverError && error.message.startsWith('PROTOCOL_MISMATCH'))
          throw new DriverError('PROTOCOL_ERROR', `Helper and agent do not match: ${error.message.slice(19)}`)
        throw error
      })
      if (!schemaChecker(HELPER_COMMANDS.hello.result).Check(result))
        throw new DriverError('PROTOCOL_ERROR', `The helper's hello is malformed: ${JSON.stringify(result)}`)
      hello = result as HelloInfo
      if (hello.protocol !== spoken)
        throw new DriverError(
          'PROTOCOL_ERROR',
          `Helper and agent do not match: the helper speaks protocol ${hello.protocol}, this agent ${spoken}`,
        )
    } catch (error) {
      running.ending = error instanceof DriverError ? error : new DriverError('HELPER_CRASHED', String(error))
      killGroup(proc.pid)
      await proc.exited
      throw error
    }
    this.#hello = hello
    this.#running = running
    log.info({ ...hello, instance: running.instance }, 'native helper ready')
    return running
  }

  #send(running: Running, cmd: string, args: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    const id = String(this.#nextId++)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#deadlineMissed(running, id), timeoutMs)
      running.pending.set(id, { cmd, resolve, reject, timer })
      try {
        running.proc.stdin.write(`${JSON.stringify({ id, cmd, args })}\n`)
        running.proc.stdin.flush()
      } catch (error) {
        clearTimeout(timer)
        running.pending.delete(id)
        reject(
          new DriverError('HELPER_CRASHED', `The helper does not take requests: ${(error as Error).message}`),
        )
      }
    })
  }

  /** A call past its deadline: the helper is stuck (or the app it waits on is); end it and start anew. */
  #deadlineMissed(running: Running, id: string): void {
    const call = running.pending.get(id)
    if (!call) return
    running.pending.delete(id)
    const message = `The helper did not answer ${call.cmd} in time; it was killed and is restarted`
    this.options.log.warn({ pid: running.proc.pid, cmd: call.cmd }, 'native helper hung: killing it')
    call.reject(new DriverError('HELPER_TIMEOUT', message))
    running.ending = new DriverError(
      'HELPER_CRASHED',
      `The helper was restarted because ${call.cmd} hung; call again`,
    )
    killGroup(running.proc.pid)
    // The next call goes to a new helper at once, not to the one still dying.
    if (this.#running === running) {
      this.#running = undefined
      if (!this.#stopped)
        void this.#ensure().catch((error: Error) =>
          this.options.log.error({ err: error.message }, 'native helper does not start'),
        )
    }
  }

  #exited(running: Running, code: number | null): void {
    const signal = running.proc.signalCode
    const failure =
      running.ending ??
      new DriverError(
        'HELPER_CRASHED',
        `The helper exited (${signal ? `signal ${signal}` : `code ${code}`}) during the call` +
          (running.stderrTail.length ? `: ${running.stderrTail.slice(-3).join(' | ')}` : ''),
      )
    for (const call of running.pending.values()) {
      clearTimeout(call.timer)
      call.reject(failure)
    }
    running.pending.clear()
    this.#events.lost(running.instance, failure)
    if (this.#running !== running) return
    this.#running = undefined
    if (!running.ending)
      this.options.log.warn({ pid: running.proc.pid, code, signal }, 'native helper exited unexpectedly')
    // Restarted now, so the next call finds it ready (a helper that cannot start fails that call).
    if (!this.#stopped)
      void this.#ensure().catch((error: Error) =>
        this.options.log.error({ err: error.message }, 'native helper does not start'),
      )
  }

  async #readStdout(running: Running): Promise<void> {
    for await (const line of lines(running.proc.stdout)) {
      let parsed: unknown
      try {
        parsed = JSON.parse(line)
      } catch {
        this.options.log.warn(
          { line: line.slice(0, 300) },
          'native helper wrote a line that is not JSON (ignored)',
        )
        continue
      }
      if (isEventLine(parsed)) {
        this.#events.dispatch(running.instance, parsed)
        continue
      }
      if (!checkResponse.Check(parsed)) {
        this.options.log.warn(
          { line: line.slice(0, 300) },
          'native helper wrote a line that is no response (ignored)',
        )
        continue
      }
      const response = parsed as HelperResponse
      if (response.id === null) {
        this.options.log.warn(
          { error: response.ok ? undefined : response.error },
          'native helper refused a line',
        )
        continue
      }
      const call = running.pending.get(response.id)
      if (!call) continue
      running.pending.delete(response.id)
      clearTimeout(call.timer)
      if (response.ok) call.resolve(response.result)
      else call.reject(toDriverError(response.error))
    }
  }

  async #readStderr(running: Running): Promise<void> {
    const { log } = this.options
    for await (const line of lines(running.proc.stderr)) {
      running.stderrTail = [...running.stderrTail.slice(-9), line]
      const entry = parseLogLine(line)
      const fields = { helperPid: running.proc.pid, ...entry.fields }
      log[entry.level](fields, entry.msg)
    }
  }
}

/** ACCESS_DENIED reasons that pass by themselves (src/protocol/helper.ts HELPER_ACCESS_REASONS). */
const PASSING = new Set<string>(['SESSION_LOCKED', 'SESSION_DISCONNECTED', 'SECURE_DESKTOP'])

function toDriverError(error: { code: string; message: string; reason?: string }): DriverError {
  if (error.code === 'ACCESS_DENIED' && error.reason && PASSING.has(error.reason))
    return new DriverError('DESKTOP_LOCKED', error.message)
  if (PASSED_ON.has(error.code)) return new DriverError(error.code as DriverErrorCode, error.message)
  return new DriverError('PROTOCOL_ERROR', `${error.code}: ${error.message}`)
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let buffered = ''
  const reader = stream.getReader()
  for (;;) {
    const { value: chunk, done } = await reader.read()
    if (done) break
    buffered += decoder.decode(chunk, { stream: true })
    let newline = buffered.indexOf('\n')
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim()
      buffered = buffered.slice(newline + 1)
      if (line) yield line
      newline = buffered.indexOf('\n')
    }
  }
  if (buffered.trim()) yield buffered.trim()
}

// Agent ⇄ server messages over one WebSocket (`/_agent/ws`). JSON text frames, each validated on
// both sides against these schemas; preview frames are binary (see preview-frame.ts).
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Automation, Outcome, RunError, RunStatus, StepStatus } from './automation.ts'
import { DESKTOP_STATES } from './driver.ts'
import { Bounds } from './elements.ts'

/**
 * An agent that holds a credential names it on the socket's upgrade ("<desktopId> <secret>", over
 * the same TLS as its hello), so its socket waits for the hello in its desktop's own share, which
 * no one without the secret can fill (src/runtime/agent-hub/pending-hellos.ts). Never logged.
 */
export const AGENT_CLAIM_HEADER = 'x-deskhook-agent'

/**
 * Bumped on any incompatible change; a mismatch closes the socket with CLOSE.PROTOCOL. Signed runs
 * (RunRequest.signature) kept it at 1: older agents ignore the field, newer ones require it. 2:
 * selectors may carry a `within` scope (docs/builder.md, "What a name is"), which an older agent
 * would ignore and so could click a control of the same name outside the menu meant.
 */
export const PROTOCOL_VERSION = 2

/** WebSocket close codes (4000–4999 are the application's). */
export const CLOSE = {
  PROTOCOL: 4000,
  AUTH_FAILED: 4001,
  REVOKED: 4003,
  REPLACED: 4004,
  HEARTBEAT_MISSED: 4008,
  SHUTTING_DOWN: 4009,
} as const
/** Close codes after which reconnecting with the same credentials cannot help. */
export const FATAL_CLOSE_CODES: readonly number[] = [CLOSE.PROTOCOL, CLOSE.AUTH_FAILED, CLOSE.REVOKED]

export const Platform = Type.Union([Type.Literal('windows'), Type.Literal('linux'), Type.Literal('darwin')])
/** Which driver an agent runs: a browser over CDP, or a native accessibility driver (Linux AT-SPI, Windows UIA). */
export const DriverKind = Type.Union([
  Type.Literal('browser'),
  Type.Literal('desktop'),
  Type.Literal('windows'),
])
export type DriverKind = Static<typeof DriverKind>

export const StepRecord = Type.Object({
  flowName: Type.String(),
  executionOrder: Type.Integer({ minimum: 1 }),
  totalSteps: Type.Integer({ minimum: 1 }),
  /** RUNNING on step_started; SUCCESS / FAILED / SKIPPED once finished. */
  status: Type.Union([StepStatus, Type.Literal('RUNNING')]),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(RunError),
  startedAt: Type.String(),
  finishedAt: Type.Optional(Type.String()),
  /** JPEG of the window after the step, base64. */
  screenshot: Type.Optional(Type.String()),
  /**
   * Where the element the step acted on or read is in that screenshot (its pixels), for the
   * replay's outline. Optional: agents older than it send none.
   */
  target: Type.Optional(Bounds),
})
export type StepRecord = Static<typeof StepRecord>

export const RunOutcome = Type.Object({
  status: RunStatus,
  scenario: Type.String(),
  outcome: Outcome,
  result: Type.Record(Type.String(), Type.Unknown()),
  error: Type.Optional(RunError),
  startedAt: Type.String(),
  finishedAt: Type.String(),
})
export type RunOutcome = Static<typeof RunOutcome>

/** The remote procedures the builder uses to explore a desktop (they map onto the Driver). */
export const RPC_METHODS = [
  'listWindows',
  'launch',
  'navigate',
  'focusWindow',
  'snapshot',
  'act',
  'screenshot',
  'waitForChange',
  'clearSession',
  // A build's exploring leaves the app's saved settings as it found them (native drivers only).
  'guardSettings',
  'restoreSettings',
  // "Show me" (src/protocol/recording.ts): served by the agent's Recorder, not the driver.
  'recordStart',
  'recordStatus',
  'recordStop',
  'input',
] as const
export const RpcMethod = Type.Union(RPC_METHODS.map((m) => Type.Literal(m)))
export type RpcMethod = Static<typeof RpcMethod>

/** Whether the agent can reach its desktop now (src/protocol/driver.ts DESKTOP_STATES). */
export const SessionState = Type.Union(DESKTOP_STATES.map((state) => Type.Literal(state)))

// ── agent → server ────────────────────────────────────────────────────────────
export const Hello = Type.Object({
  type: Type.Literal('hello'),
  protocol: Type.Integer(),
  agentVersion: Type.String(),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  platform: Platform,
  driver: DriverKind,
  auth: Type.Union([
    Type.Object({ kind: Type.Literal('enroll'), token: Type.String({ maxLength: 200 }) }),
    Type.Object({
      kind: Type.Literal('credential'),
      desktopId: Type.String({ maxLength: 100 }),
      secret: Type.String({ maxLength: 200 }),
    }),
  ]),
  /** The run in progress, if the agent is in the middle of one (after a reconnect). */
  busyRunId: Type.Optional(Type.String()),
  /** Whether its desktop can be reached (a locked Windows session cannot); absent: the driver cannot tell. */
  session: Type.Optional(SessionState),
})
export type Hello = Static<typeof Hello>

export const Heartbeat = Type.Object({
  type: Type.Literal('heartbeat'),
  busyRunId: Type.Optional(Type.String()),
  session: Type.Optional(SessionState),
})

export const RpcResult = Type.Object({
  type: Type.Literal('rpc.result'),
  id: Type.String(),
  ok: Type.Boolean(),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
})
export type RpcResult = Static<typeof RpcResult>

export const RunStep = Type.Object({
  type: Type.Literal('run.step'),
  runId: Type.String(),
  lease: Type.String(),
  event: Type.Union([Type.Literal('started'), Type.Literal('finished')]),
  step: StepRecord,
})
export type RunStep = Static<typeof RunStep>

export const RunResult = Type.Object({
  type: Type.Literal('run.result'),
  runId: Type.String(),
  lease: Type.String(),
  outcome: RunOutcome,
  /** Sent again from the agent's journal after a reconnect. */
  replayed: Type.Optional(Type.Boolean()),
})
export type RunResult = Static<typeof RunResult>

export const AgentMessage = Type.Union([Hello, Heartbeat, RpcResult, RunStep, RunResult])
export type AgentMessage = Static<typeof AgentMessage>

// ── server → agent ────────────────────────────────────────────────────────────
export const Welcome = Type.Object({
  type: Type.Literal('welcome'),
  protocol: Type.Integer(),
  desktopId: Type.String(),
  name: Type.String(),
  heartbeatIntervalMs: Type.Integer({ minimum: 10 }),
  /** Only on enrollment: the credential to save and use from now on. */
  credential: Type.Optional(Type.Object({ desktopId: Type.String(), secret: Type.String() })),
})
export type Welcome = Static<typeof Welcome>

export const Rpc = Type.Object({
  type: Type.Literal('rpc'),
  id: Type.String(),
  method: RpcMethod,
  params: Type.Array(Type.Unknown()),
})
export type Rpc = Static<typeof Rpc>

export const RunRequest = Type.Object({
  type: Type.Literal('run'),
  runId: Type.String(),
  /** Echoed on every message about this run; the server ignores messages with a stale lease. */
  lease: Type.String(),
  automation: Automation,
  input: Type.Record(Type.String(), Type.Unknown()),
  timeoutMs: Type.Integer({ minimum: 1 }),
  /**
   * HMAC of the run under the connection's run-signing key (run-signature.ts). Optional in the
   * schema so that the agent itself refuses a run without one, and says so (RUN_SIGNATURE_INVALID);
   * agents older than it ignore the field.
   */
  signature: Type.Optional(Type.String({ maxLength: 128 })),
})
export type RunRequest = Static<typeof RunRequest>

export const Cancel = Type.Object({
  type: Type.Literal('cancel'),
  runId: Type.String(),
  reason: Type.String(),
})
/** The server stored the result: the agent may drop it from its journal. */
export const RunAck = Type.Object({ type: Type.Literal('run.ack'), runId: Type.String() })
export const PreviewStart = Type.Object({
  type: Type.Literal('preview.start'),
  windowId: Type.Optional(Type.String()),
  intervalMs: Type.Integer({ minimum: 100, maximum: 60_000 }),
})
export const PreviewStop = Type.Object({ type: Type.Literal('preview.stop') })
/** Answers every heartbeat, so an agent notices a half-open connection and reconnects. */
export const HeartbeatAck = Type.Object({ type: Type.Literal('heartbeat.ack') })

export const ServerMessage = Type.Union([
  Welcome,
  Rpc,
  RunRequest,
  Cancel,
  RunAck,
  PreviewStart,
  PreviewStop,
  HeartbeatAck,
])
export type ServerMessage = Static<typeof ServerMessage>

const compiled = new Map<TSchema, ReturnType<typeof TypeCompiler.Compile>>()
function checker(schema: TSchema) {
  let c = compiled.get(schema)
  if (!c) {
    c = TypeCompiler.Compile(schema)
    compiled.set(schema, c)
  }
  return c
}

/** Parses (when given text) and validates one message; the error names the first problem. */
export function decodeMessage<T extends TSchema>(
  schema: T,
  raw: unknown,
): { ok: true; message: Static<T> } | { ok: false; error: string } {
  let data: unknown = raw
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw)
    } catch {
      return { ok: false, error: 'not JSON' }
    }
  }
  const c = checker(schema)
  if (c.Check(data)) return { ok: true, message: data as Static<T> }
  const first = c.Errors(data).First()
  const type = (data as { type?: unknown } | null)?.type
  return {
    ok: false,
    error: `invalid ${String(type ?? 'message')}: ${first?.path || '/'} ${first?.message ?? ''}`.trim(),
  }
}

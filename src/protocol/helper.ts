// The native helper protocol: the agent's native driver host (agent/drivers/native/helper-host.ts)
// and an accessibility helper process (Linux: AT-SPI in Python; Windows: UI Automation in C#)
// speak JSON lines over the helper's stdin/stdout. Every line is one request, one response or (from
// the helper, unasked) one event of a watch the host started (HELPER_EVENTS); the first request is
// `hello`, which both sides use to check they speak the same version.
// Typebox only: the host validates every response against these schemas.
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import type { DriverErrorCode } from './driver.ts'
import { Bounds, ElementAction } from './elements.ts'
import { RemoteInput } from './recording.ts'

/**
 * Bumped on any incompatible change; a helper of another version is refused at `hello`.
 * 2: watchInput / unwatchInput / input, and `input` event lines.
 * 3: `session` (whether the desktop can be reached now), and `reason` on ACCESS_DENIED failures.
 */
export const HELPER_PROTOCOL_VERSION = 3

export const HelperRequest = Type.Object({
  /** Unique per request on this helper; its response carries the same id. */
  id: Type.String(),
  cmd: Type.String(),
  args: Type.Record(Type.String(), Type.Unknown()),
})
export type HelperRequest = Static<typeof HelperRequest>

/**
 * Error codes a helper answers with that mean the same to callers as the DriverErrorCode of that
 * name: the host passes them on as they are.
 */
export const HELPER_DRIVER_ERROR_CODES = [
  'STALE_REF',
  'ELEMENT_OBSCURED',
  'ELEMENT_DISABLED',
  'UNSUPPORTED_ACTION',
  'OPTION_NOT_FOUND',
  'WINDOW_NOT_FOUND',
  'BLOCKED_BY_DIALOG',
  'LAUNCH_FAILED',
  'TIMEOUT',
  'DISCONNECTED',
  /** The OS refused: a process of another user, an elevated window (Windows UIPI). */
  'ACCESS_DENIED',
] as const satisfies readonly DriverErrorCode[]

/**
 * Every error code a helper answers with. BAD_REQUEST, UNKNOWN_COMMAND, PROTOCOL_MISMATCH and
 * INTERNAL are the host's or helper's fault and reach callers as PROTOCOL_ERROR.
 */
export const HELPER_ERROR_CODES = [
  ...HELPER_DRIVER_ERROR_CODES,
  'BAD_REQUEST',
  'UNKNOWN_COMMAND',
  'PROTOCOL_MISMATCH',
  'INTERNAL',
] as const
export type HelperErrorCode = (typeof HELPER_ERROR_CODES)[number]

export const HelperFailure = Type.Object({
  code: Type.String(),
  message: Type.String(),
  /** ACCESS_DENIED only: why the OS refused (HELPER_ACCESS_REASONS), machine-readable. */
  reason: Type.Optional(Type.String()),
})

/**
 * Why a helper answered ACCESS_DENIED. The first three are passing states of the PC's session
 * (someone unlocks it, reconnects, answers the prompt): the host turns them into DESKTOP_LOCKED,
 * which a run waits out (docs/windows.md, "Locked and disconnected sessions"). The others need an
 * admin.
 */
export const HELPER_ACCESS_REASONS = [
  /** The Windows session is locked (the lock screen shows). */
  'SESSION_LOCKED',
  /** The session is disconnected (a closed Remote Desktop window): nothing is drawn, no input. */
  'SESSION_DISCONNECTED',
  /** The secure desktop shows: a UAC prompt or the Ctrl+Alt+Del screen. */
  'SECURE_DESKTOP',
  /** The agent runs in session 0 (as a service), which has no desktop. */
  'SESSION_0',
  /** The window belongs to an elevated process and the agent is not (UIPI). */
  'ELEVATED',
] as const

/** The session as the helper's `session` command reports it. */
export const HelperSessionState = Type.Union([
  /** Input and screenshots reach the user's desktop. */
  Type.Literal('active'),
  Type.Literal('locked'),
  Type.Literal('disconnected'),
  Type.Literal('secure_desktop'),
  /** Session 0: no desktop at all (the agent was started as a service). */
  Type.Literal('no_desktop'),
])
export type HelperSessionState = Static<typeof HelperSessionState>

export const HelperResponse = Type.Union([
  Type.Object({ id: Type.String(), ok: Type.Literal(true), result: Type.Unknown() }),
  /** `id` is null when the request line itself could not be read. */
  Type.Object({
    id: Type.Union([Type.String(), Type.Null()]),
    ok: Type.Literal(false),
    error: HelperFailure,
  }),
])
export type HelperResponse = Static<typeof HelperResponse>

/** A top-level window as the helper sees it; modal dialogs are windows too. */
export const HelperWindow = Type.Object({
  /** Stable while the window lives (Linux: the app's bus name and the window's object path). */
  id: Type.String(),
  title: Type.String(),
  /** The executable's name (a script's app name for interpreters). */
  app: Type.String(),
  pid: Type.Integer(),
  /** The toolkit's own role (frame, dialog, alert…). */
  role: Type.String(),
  modal: Type.Boolean(),
  /** Screen pixels. */
  bounds: Type.Optional(Bounds),
  /** How the window's process was started (argv and working directory), when the OS tells. */
  command: Type.Optional(Type.Object({ argv: Type.Array(Type.String()), cwd: Type.Optional(Type.String()) })),
})
export type HelperWindow = Static<typeof HelperWindow>

/**
 * One element as the toolkit names it; agent/drivers/native/element-mapping.ts turns these into
 * the shared element model. Roles and states are the backend's own vocabulary.
 */
export const HelperNode = Type.Recursive(
  (This) =>
    Type.Object({
      /** `<generation>:<index>`: valid for the latest snapshot of the window only. */
      ref: Type.String(),
      role: Type.String(),
      name: Type.String(),
      states: Type.Array(Type.String()),
      /** Screen pixels. */
      bounds: Type.Optional(Bounds),
      /** What an editable or ranged control holds (entry text, spin value, combo selection). */
      value: Type.Optional(Type.String()),
      /** Text shown by a non-editable element when it differs from its name. */
      text: Type.Optional(Type.String()),
      description: Type.Optional(Type.String()),
      placeholder: Type.Optional(Type.String()),
      automationId: Type.Optional(Type.String()),
      /** Names of the elements a labelled-by / described-by relation points at. */
      labelledBy: Type.Optional(Type.String()),
      describedBy: Type.Optional(Type.String()),
      actions: Type.Optional(Type.Array(Type.String())),
      /** Table cells: position and the header of their column. */
      row: Type.Optional(Type.Integer()),
      column: Type.Optional(Type.Integer()),
      columnHeader: Type.Optional(Type.String()),
      /** Tables: the column headers in column order. */
      columns: Type.Optional(Type.Array(Type.String())),
      children: Type.Array(This),
    }),
  { $id: 'HelperNode' },
)
export type HelperNode = Static<typeof HelperNode>

const WindowArgs = Type.Object({ windowId: Type.String() })
const Point = Type.Object({ x: Type.Number(), y: Type.Number() })

/**
 * The element an input event happened on, as the helper read it: its node (with what a snapshot
 * reads of it, values left out) under a stand-in for its parent, whose role decides some of the
 * model's roles. The host maps `tree` as it maps snapshots and takes the element of ref `ref`.
 */
export const HelperEventTarget = Type.Object({
  tree: HelperNode,
  ref: Type.String(),
  /** Window-relative pixels: the click's point, else the element's centre. */
  point: Type.Optional(Point),
})
export type HelperEventTarget = Static<typeof HelperEventTarget>

/** Lines the helper writes unasked, each for a watch the host started (`watch`: its id). */
export const HELPER_EVENTS = {
  /** What a person did in a watched window (see protocol/recording.ts InputEvent). */
  input: Type.Object({
    event: Type.Literal('input'),
    watch: Type.String(),
    kind: Type.Union([
      Type.Literal('click'),
      Type.Literal('input'),
      Type.Literal('select'),
      Type.Literal('check'),
      Type.Literal('key'),
    ]),
    target: Type.Optional(HelperEventTarget),
    /** Never set with `secret`. */
    value: Type.Optional(Type.String()),
    secret: Type.Optional(Type.Boolean()),
    key: Type.Optional(Type.String()),
  }),
} satisfies Record<string, TSchema>

export type HelperEventName = keyof typeof HELPER_EVENTS
export type HelperEvent<E extends HelperEventName = HelperEventName> = Static<(typeof HELPER_EVENTS)[E]>

/** Each command's arguments and result; `call(cmd, args)` is typed by this table. */
export const HELPER_COMMANDS = {
  hello: {
    args: Type.Object({ protocol: Type.Integer() }),
    result: Type.Object({
      protocol: Type.Integer(),
      /** Which accessibility API the helper speaks: decides the role table. */
      backend: Type.Union([Type.Literal('atspi'), Type.Literal('uia')]),
      platform: Type.String(),
      helperVersion: Type.String(),
      pid: Type.Integer(),
      runtime: Type.Optional(Type.String()),
    }),
  },
  /**
   * Whether the desktop can be reached now (a locked, disconnected or secure-desktop session takes
   * input and screenshots away from every app). Cheap: the agent asks at every heartbeat.
   */
  session: {
    args: Type.Object({}),
    result: Type.Object({
      state: HelperSessionState,
      /** The sentence an ACCESS_DENIED of this state would carry; absent when active. */
      message: Type.Optional(Type.String()),
    }),
  },
  listWindows: {
    args: Type.Object({}),
    result: Type.Object({ windows: Type.Array(HelperWindow) }),
  },
  snapshot: {
    args: Type.Object({ windowId: Type.String(), maxElements: Type.Integer({ minimum: 1 }) }),
    result: Type.Object({
      window: HelperWindow,
      /** The window; the app's open dialogs follow its own content as extra children. */
      root: HelperNode,
      /** The element budget ran out: the tree is cut short. */
      truncated: Type.Boolean(),
      elementCount: Type.Integer(),
      tookMs: Type.Optional(Type.Number()),
    }),
  },
  act: {
    args: Type.Object({ windowId: Type.String(), action: ElementAction }),
    result: Type.Object({
      text: Type.Optional(Type.String()),
      value: Type.Optional(Type.String()),
      checked: Type.Optional(Type.Boolean()),
    }),
  },
  waitForChange: {
    args: Type.Object({ windowId: Type.String(), timeoutMs: Type.Integer({ minimum: 0 }) }),
    result: Type.Object({ result: Type.Union([Type.Literal('changed'), Type.Literal('timeout')]) }),
  },
  screenshot: {
    args: Type.Object({ windowId: Type.String(), quality: Type.Optional(Type.Integer()) }),
    result: Type.Object({ jpeg: Type.String(), width: Type.Integer(), height: Type.Integer() }),
  },
  launch: {
    args: Type.Object({
      executable: Type.String(),
      args: Type.Optional(Type.Array(Type.String())),
      cwd: Type.Optional(Type.String()),
      titleContains: Type.Optional(Type.String()),
      timeoutMs: Type.Integer({ minimum: 1 }),
    }),
    result: Type.Object({ window: HelperWindow, pid: Type.Integer() }),
  },
  /** Ends the app's processes (its windows go with them): by executable (and script), name or pid. */
  close: {
    args: Type.Object({
      executable: Type.Optional(Type.String()),
      args: Type.Optional(Type.Array(Type.String())),
      cwd: Type.Optional(Type.String()),
      processName: Type.Optional(Type.String()),
      pids: Type.Optional(Type.Array(Type.Integer())),
      timeoutMs: Type.Optional(Type.Integer()),
    }),
    result: Type.Object({
      closed: Type.Integer(),
      /** Ended with SIGKILL (did not end on SIGTERM either). */
      killed: Type.Integer(),
      /** Did not close its windows when asked within the grace period: ended with a signal. */
      ended: Type.Optional(Type.Integer()),
      /** Lock files the ended app left behind (reported, never removed). */
      staleLocks: Type.Optional(Type.Array(Type.String())),
      /** The processes that were ended (all of them are gone when the call answers). */
      pids: Type.Optional(Type.Array(Type.Integer())),
    }),
  },
  focus: {
    args: WindowArgs,
    result: Type.Object({}),
  },
  /** Starts reporting a person's input in the window as `input` event lines tagged `watch`. */
  watchInput: {
    args: Type.Object({ windowId: Type.String(), watch: Type.String() }),
    result: Type.Object({
      watch: Type.String(),
      /** Clicks and keys made at the PC itself are seen too (X RECORD); else only `input`'s and the app's events. */
      deviceInput: Type.Boolean(),
      /** Why they are not. */
      reason: Type.Optional(Type.String()),
    }),
  },
  /** Ends a watch: no event line of it follows the answer. Unknown watches are no error. */
  unwatchInput: {
    args: Type.Object({ watch: Type.String() }),
    result: Type.Object({}),
  },
  /** A remote viewer's input as real X input at window-relative pixels; answers once the app settled. */
  input: {
    args: Type.Object({ windowId: Type.String(), input: RemoteInput }),
    result: Type.Object({}),
  },
} satisfies Record<string, { args: TSchema; result: TSchema }>

export type HelperCommand = keyof typeof HELPER_COMMANDS
export type HelperArgs<C extends HelperCommand> = Static<(typeof HELPER_COMMANDS)[C]['args']>
export type HelperResult<C extends HelperCommand> = Static<(typeof HELPER_COMMANDS)[C]['result']>

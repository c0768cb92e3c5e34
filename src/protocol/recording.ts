// "Show me": what a person does on a desktop while a build's `demonstrate` question is open,
// recorded by the agent and turned into steps by the builder (src/builder/demonstrate/demonstration.ts).
//
// Three layers, from the desktop up:
//  - a driver reports raw InputEvents as the person acts (Driver.watchInput): a click on an
//    element, the value a field holds after typing, an option chosen, a key, a navigation;
//  - the agent's Recorder (src/agent/recorder.ts) numbers them, keeps the screen each one was
//    made on (a snapshot taken once the window settled) and a screenshot after it;
//  - the server stores the Recording and hands it to the builder as the answer.
// Passwords never leave the page: a secret field's event carries `secret: true` and no value.
import { type Static, Type } from '@sinclair/typebox'
import { Snapshot, UiRole, WindowInfo } from './elements.ts'

/** The element an event happened on, described the way the element model names things. */
export const RecordedTarget = Type.Object({
  role: UiRole,
  /** Its accessible name (label, aria-label, text of a button or link). */
  name: Type.String(),
  /**
   * Its centre at the moment of the event, in the same space as snapshot `bounds` and RemoteInput
   * clicks (browser: viewport device px, CSS px times the pixel ratio; native: window-relative screen px).
   */
  point: Type.Optional(Type.Object({ x: Type.Number(), y: Type.Number() })),
  automationId: Type.Optional(Type.String()),
  inputType: Type.Optional(Type.String()),
  placeholder: Type.Optional(Type.String()),
})
export type RecordedTarget = Static<typeof RecordedTarget>

/** One thing the person did, as the driver saw it. */
export const InputEvent = Type.Object({
  kind: Type.Union([
    /**
     * A click (or tap) on the target. Clicks on check boxes, radios and drop-downs are not
     * reported: the `check` or `select` that follows says what happened.
     */
    Type.Literal('click'),
    /** The target field now holds `value` (one event per change; the builder keeps the last). */
    Type.Literal('input'),
    /** An option was chosen in the target (a select, a combo box, a list): `value` is its text. */
    Type.Literal('select'),
    /** A check box or radio was set: `value` is "true" or "false". */
    Type.Literal('check'),
    /**
     * A key that is not text (Enter, Escape, Tab, arrows, Home/End, PageUp/Down) as a keyboard.ts
     * chord ("Shift+Tab"), on the focused `target` if any. Space, Backspace and Delete are never
     * reported: they show in the field's value.
     */
    Type.Literal('key'),
    /**
     * The window went to `url`: every main-frame navigation is reported, also those a click or
     * Enter caused (the builder drops those); query parameters named like a secret are removed.
     */
    Type.Literal('navigate'),
  ]),
  target: Type.Optional(RecordedTarget),
  value: Type.Optional(Type.String()),
  /** The target is a secret field (a password, a one-time code): no value is ever recorded. */
  secret: Type.Optional(Type.Boolean()),
  key: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
})
export type InputEvent = Static<typeof InputEvent>

export const RecordedAction = Type.Intersect([
  InputEvent,
  Type.Object({
    /** 1, 2, 3… in the order the person acted. */
    seq: Type.Integer({ minimum: 1 }),
    /** Milliseconds since the recording started. */
    atMs: Type.Integer({ minimum: 0 }),
    /** Index into Recording.snapshots: the screen the action was made on. */
    before: Type.Integer({ minimum: 0 }),
    /** JPEG (base64) of the window once it settled after the action, when one could be taken. */
    screenshot: Type.Optional(Type.String()),
  }),
])
export type RecordedAction = Static<typeof RecordedAction>

export const Recording = Type.Object({
  window: WindowInfo,
  startedAt: Type.String(),
  endedAt: Type.String(),
  actions: Type.Array(RecordedAction),
  /**
   * The screens, in order: the first is the window when recording started, the last the window
   * once it settled after the last action. Each action names the one it was made on.
   */
  snapshots: Type.Array(Snapshot),
})
export type Recording = Static<typeof Recording>

/** What `recordStatus` says while a recording runs (the dashboard's "3 actions recorded"). */
export const RecordingStatus = Type.Object({
  recording: Type.Boolean(),
  windowId: Type.Optional(Type.String()),
  actions: Type.Integer({ minimum: 0 }),
  /** How many different screens have been read so far (the first is the window when recording started). */
  screens: Type.Optional(Type.Integer({ minimum: 0 })),
  /** The last few actions in words ("Clicked the “Save” button"), newest last. */
  recent: Type.Array(Type.String()),
})
export type RecordingStatus = Static<typeof RecordingStatus>

/**
 * Input from a remote viewer (the dashboard's live preview, or `POST …/recordings/<r>/input`
 * while demonstrating): performed as a person's would be, with real pointer and keyboard events,
 * so the page and the recorder see exactly what they would see at the PC. Points (`x`, `y`) are
 * in the pixels of the window's screenshot (`GET /_builds/<id>/screen`, the recording's
 * screenshots), which are also the space of its element boxes.
 */
const Point = { x: Type.Number({ minimum: 0 }), y: Type.Number({ minimum: 0 }) }
export const RemoteInput = Type.Union([
  Type.Object({ kind: Type.Literal('click'), ...Point }),
  /**
   * Text typed into the element that has focus (a click put it there); with a point, that spot is
   * clicked first. Refused when nothing that takes text has focus: it would go nowhere.
   */
  Type.Object({
    kind: Type.Literal('type'),
    text: Type.String({ minLength: 1, maxLength: 2000 }),
    x: Type.Optional(Type.Number({ minimum: 0 })),
    y: Type.Optional(Type.Number({ minimum: 0 })),
  }),
  /**
   * A named key or a chord with modifiers: Enter, Tab, Escape, Backspace, Delete,
   * ArrowUp/Down/Left/Right, Home, End, PageUp/Down, Space, F1–F12, one character; "Ctrl+A",
   * "Shift+Tab", "Ctrl+Shift+End". It goes to the focused element, else the window.
   */
  Type.Object({ kind: Type.Literal('key'), key: Type.String({ minLength: 1, maxLength: 40 }) }),
  Type.Object({ kind: Type.Literal('scroll'), x: Type.Number(), y: Type.Number(), deltaY: Type.Number() }),
  /**
   * The pointer comes to rest at the point without pressing (a menu that opens while the pointer
   * is over its entry). Not recorded itself: the click on what it revealed is.
   */
  Type.Object({ kind: Type.Literal('hover'), ...Point }),
  /** Chooses `option` (its text as shown) in the drop-down or list at the point. */
  Type.Object({
    kind: Type.Literal('select'),
    ...Point,
    option: Type.String({ minLength: 1, maxLength: 500 }),
  }),
  /** Ticks (`checked: true`), clears (`false`) or toggles (no `checked`) the box or radio at the point. */
  Type.Object({ kind: Type.Literal('check'), ...Point, checked: Type.Optional(Type.Boolean()) }),
])
export type RemoteInput = Static<typeof RemoteInput>

export { REMOTE_KEYS, remoteKeyProblem } from './remote-keys.ts'

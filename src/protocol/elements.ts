// The element model every driver produces (browser over CDP, Windows over UI Automation), so the
// builder and the runner never know which driver they talk to. Typebox only: these schemas also
// validate what crosses the agent ⇄ server WebSocket.
import { type Static, Type } from '@sinclair/typebox'

// Static<TLiteral<'a' | 'b'>> is 'a' | 'b', so a mapped union keeps the precise TypeScript type.
const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((value) => Type.Literal(value)))

/**
 * A deliberately small, normalized role set. Drivers map their native vocabulary (ARIA roles,
 * UIA control types) onto it; anything without a better match is `generic`.
 */
export const UI_ROLES = [
  'window',
  'dialog',
  'alertdialog',
  'button',
  'link',
  'textbox',
  'spinbutton',
  'checkbox',
  'radio',
  'switch',
  'combobox',
  'listbox',
  'option',
  'heading',
  'text',
  'table',
  'row',
  'cell',
  'columnheader',
  'rowheader',
  'list',
  'listitem',
  'tree',
  'treeitem',
  'group',
  'form',
  'menu',
  'menubar',
  'menuitem',
  'toolbar',
  'tablist',
  'tab',
  'tabpanel',
  'image',
  'status',
  'alert',
  'progressbar',
  'slider',
  'generic',
] as const
export const UiRole = literals(UI_ROLES)
export type UiRole = Static<typeof UiRole>

export const UI_STATES = [
  'focused',
  'disabled',
  'checked',
  'mixed',
  'pressed',
  'selected',
  'required',
  'invalid',
  'expanded',
  /** Can be expanded and is not: a drop-down menu or a section that hides what it holds until pressed. */
  'collapsed',
  'readonly',
  'modal',
  'busy',
  /**
   * A menu item or button that switches something on and off (a check or radio menu item, a
   * toggle button): a setting, which exploring never switches (src/builder/explore/explore-moves.ts).
   */
  'checkable',
] as const
export const UiState = literals(UI_STATES)
export type UiState = Static<typeof UiState>

/** Viewport (browser) or screen (Windows) pixels, so they line up with the window's screenshot. */
export const Bounds = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
})
export type Bounds = Static<typeof Bounds>

export const UiElement = Type.Recursive(
  (This) =>
    Type.Object({
      /** Handle for `act`; valid for the snapshot that produced it only. */
      ref: Type.String(),
      role: UiRole,
      /** Accessible name (label, alt text, or the text content of text-only elements), whitespace-collapsed. */
      name: Type.String(),
      /** Current value of editable/selectable controls (text in a textbox, selected option of a combobox). */
      value: Type.Optional(Type.String()),
      /** DOM id / UIA AutomationId: the most stable fingerprint an app offers. */
      automationId: Type.Optional(Type.String()),
      bounds: Type.Optional(Bounds),
      states: Type.Array(UiState),
      /** Accessible description, e.g. a validation message linked by aria-describedby. */
      description: Type.Optional(Type.String()),
      /** Hint text shown in an empty field (HTML placeholder, UIA HelpText): how users find unlabelled boxes. */
      placeholder: Type.Optional(Type.String()),
      /**
       * What a text-like control takes, when the technology says: email, date, time, datetime-local,
       * month, number, password, tel, url, search (HTML input types; native drivers map theirs).
       */
      inputType: Type.Optional(Type.String()),
      /** Where a link leads (absolute URL), so ids shown only in links can be read and URL patterns seen. */
      href: Type.Optional(Type.String()),
      children: Type.Array(This),
    }),
  { $id: 'UiElement' },
)
export type UiElement = Static<typeof UiElement>

export const WindowInfo = Type.Object({
  id: Type.String(),
  title: Type.String(),
  /** What the window belongs to: a URL origin for browser tabs, a process name for desktop windows. */
  app: Type.String(),
  kind: Type.Union([Type.Literal('window'), Type.Literal('tab')]),
  url: Type.Optional(Type.String()),
  /** Where the app in this window starts (the address it was launched at), when the driver knows. */
  startUrl: Type.Optional(Type.String()),
  /**
   * Native apps: the command line the window's process was started with, when the driver knows
   * it: how a build or run starts the app afresh (the native counterpart of `startUrl`).
   */
  launchCommand: Type.Optional(
    Type.Object({
      executable: Type.String(),
      args: Type.Optional(Type.Array(Type.String())),
      cwd: Type.Optional(Type.String()),
    }),
  ),
  /**
   * What starting the app had to do that a person should know, in words: the earlier instance
   * did not close when asked and was ended, and the lock files it left (never removed).
   */
  notice: Type.Optional(Type.String()),
})
export type WindowInfo = Static<typeof WindowInfo>

export const Snapshot = Type.Object({
  window: WindowInfo,
  /** Role `window`; its children are the window's content (and any open dialog). */
  root: UiElement,
  capturedAt: Type.String({ format: 'date-time' }),
})
export type Snapshot = Static<typeof Snapshot>

/**
 * What `act` can do to one element of the latest snapshot. `keys` may omit the ref to type into
 * whatever has focus. Keys are chords separated by spaces, modifiers joined with `+`
 * (`"Control+A Delete"`, `"Tab Tab Enter"`).
 */
export const ElementAction = Type.Union([
  Type.Object({
    kind: Type.Literal('click'),
    ref: Type.String(),
    button: Type.Optional(Type.Union([Type.Literal('left'), Type.Literal('right')])),
    clickCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  }),
  Type.Object({ kind: Type.Literal('fill'), ref: Type.String(), value: Type.String() }),
  /** Picks options by value first, then by visible label. */
  Type.Object({ kind: Type.Literal('select'), ref: Type.String(), values: Type.Array(Type.String()) }),
  Type.Object({ kind: Type.Literal('check'), ref: Type.String(), checked: Type.Boolean() }),
  Type.Object({ kind: Type.Literal('keys'), ref: Type.Optional(Type.String()), keys: Type.String() }),
  Type.Object({ kind: Type.Literal('focus'), ref: Type.String() }),
  Type.Object({ kind: Type.Literal('read'), ref: Type.String() }),
])
export type ElementAction = Static<typeof ElementAction>

/** What an action observed afterwards; `read` fills text/value, `check` reports the final state. */
export const ActionResult = Type.Object({
  text: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  checked: Type.Optional(Type.Boolean()),
})
export type ActionResult = Static<typeof ActionResult>

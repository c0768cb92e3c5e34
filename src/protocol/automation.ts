// Automations are data (DESIGN §3): the builder writes them, the dashboard shows and exports them,
// the runner executes them on the agent. Typebox only, so every side validates the same shape.
import { type Static, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { UiRole } from './elements.ts'

/**
 * A string with `{{path.to.value}}` placeholders over the run's input (and the values read so
 * far); `{{x ?? "fallback"}}` supplies a default. A template that is exactly one placeholder
 * keeps the value's JSON type (a boolean stays a boolean).
 */
export const Template = Type.String({ description: 'Template over the input, e.g. "{{customer.email}}"' })
export type Template = Static<typeof Template>

/** Exact compares whitespace-collapsed text; contains is case-insensitive; regex is a JS pattern. */
/**
 * exact: the same text; same: the same words as a person reads them (no case, no accents: "Paid"
 * for "paid"); contains: a case-insensitive part; regex: a match anywhere.
 */
export const TextMatch = Type.Union([
  Type.Literal('exact'),
  Type.Literal('same'),
  Type.Literal('contains'),
  Type.Literal('regex'),
])
export type TextMatch = Static<typeof TextMatch>

export const PathSegment = Type.Object({
  role: UiRole,
  /** Position among the siblings that have the same role (0-based). */
  index: Type.Integer({ minimum: 0 }),
})
export type PathSegment = Static<typeof PathSegment>

/**
 * Where a row or item of a collection shows one value: with `cell`, that cell of a row (1-based,
 * in screen order); then, with `role` and/or `nth`, the nth text part (heading, link, text, cell…)
 * of that cell or item, counting only parts of that role when given. `href` reads the address of
 * the part's link instead of its text.
 */
export const RowPart = Type.Object({
  cell: Type.Optional(Type.Integer({ minimum: 1 })),
  role: Type.Optional(UiRole),
  nth: Type.Optional(Type.Integer({ minimum: 1 })),
  href: Type.Optional(Type.Boolean()),
})
export type RowPart = Static<typeof RowPart>

/**
 * Cards: each child of the target with this role is one item (an <article> per post, a div per
 * record); with `flat`, the target's children are the cards' parts side by side and each card
 * starts at a child with this role (a heading, then its text and links).
 */
export const CardRun = Type.Object({ role: UiRole, flat: Type.Optional(Type.Boolean()) })
export type CardRun = Static<typeof CardRun>

/**
 * One way to recognise an element. String fields are templates, so a selector can point at
 * e.g. the link named after the id the caller passed.
 */
export const Fingerprint = Type.Union([
  /** AutomationIds from outer to inner; each one must be a descendant of the previous. */
  Type.Object({ by: Type.Literal('automationId'), ids: Type.Array(Template, { minItems: 1 }) }),
  Type.Object({
    by: Type.Literal('role'),
    role: UiRole,
    name: Template,
    match: Type.Optional(TextMatch),
    /** Only inside an element of this role: the menu or dialog that opened ("Suppliers" in it). */
    within: Type.Optional(UiRole),
  }),
  /**
   * A visible label text and the first control after it (same container, up to two levels up):
   * for UIs whose controls carry no accessible name of their own.
   */
  Type.Object({ by: Type.Literal('label'), label: Template, role: Type.Optional(UiRole) }),
  /** Role/index steps from the window root through the normalized tree. */
  Type.Object({ by: Type.Literal('path'), path: Type.Array(PathSegment, { minItems: 1 }) }),
  /** Text an element shows (its name or value): mostly for read targets such as status messages. */
  Type.Object({
    by: Type.Literal('text'),
    text: Template,
    match: Type.Optional(TextMatch),
    role: Type.Optional(UiRole),
  }),
  /**
   * A control in the table row (or list item) that shows a value: "the Edit button of the row
   * whose e-mail is {{email}}". `rowText` matches any text in the row (contains, by default);
   * `rowAlso`, a text the row also shows whole (a field's label: "E-Mail"). With `column`, only
   * what sits in that column counts, the column found by its header's text.
   */
  Type.Object({
    by: Type.Literal('inRow'),
    rowText: Template,
    rowMatch: Type.Optional(TextMatch),
    rowAlso: Type.Optional(Template),
    role: UiRole,
    name: Template,
    match: Type.Optional(TextMatch),
    column: Type.Optional(Template),
    /** Only rows inside an element of this role, as for `role`. */
    within: Type.Optional(UiRole),
  }),
])
export type Fingerprint = Static<typeof Fingerprint>

/** Fingerprints are tried in order, the first that matches decides; two matches are an error. */
export const Selector = Type.Object({
  fingerprints: Type.Array(Fingerprint, { minItems: 1 }),
  /** Human wording for error messages ("the Email field"). */
  description: Type.Optional(Type.String()),
})
export type Selector = Static<typeof Selector>

export const Condition = Type.Recursive(
  (This) =>
    Type.Union([
      Type.Object({ kind: Type.Literal('appears'), target: Selector }),
      Type.Object({ kind: Type.Literal('disappears'), target: Selector }),
      /** A modal dialog or alert (native alert/confirm/prompt included), optionally containing text. */
      Type.Object({
        kind: Type.Literal('dialog'),
        text: Type.Optional(Template),
        match: Type.Optional(TextMatch),
      }),
      Type.Object({ kind: Type.Literal('text'), text: Template, match: Type.Optional(TextMatch) }),
      Type.Object({ kind: Type.Literal('anyOf'), conditions: Type.Array(This, { minItems: 1 }) }),
    ]),
  { $id: 'Condition' },
)
export type Condition = Static<typeof Condition>

/** How to find or start the app. All strings are templates. */
export const AppSpec = Type.Object({
  url: Type.Optional(Template),
  titleContains: Type.Optional(Template),
  processName: Type.Optional(Type.String()),
  /** Native apps: the program to start (a path, or a name looked up on PATH) and its arguments. */
  executable: Type.Optional(Type.String()),
  args: Type.Optional(Type.Array(Type.String())),
  /** Native apps: the working directory to start the program in. */
  cwd: Type.Optional(Type.String()),
  /**
   * Web apps: origins (scheme://host:port) the browser may load besides the start URL's own.
   * Everything else is blocked while the app is driven (builds never leave the app).
   */
  allowOrigins: Type.Optional(Type.Array(Type.String())),
})
export type AppSpec = Static<typeof AppSpec>

const stepBase = {
  /** Human name; becomes `flowName` in status events. */
  name: Type.String({ minLength: 1 }),
  /** Deadline for this step (finding its element, waiting for its condition). */
  timeoutMs: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * The step runs only when this holds on the screen as it is (one look); otherwise it is
   * SKIPPED. For steps a desktop may not need, such as a sign-in form that a signed-in profile
   * never shows.
   */
  onlyIf: Type.Optional(Condition),
}
/** When the input lacks the value, skip the step (SKIPPED) instead of failing. */
const optional = { optional: Type.Optional(Type.Boolean()) }

export const Step = Type.Union([
  Type.Object({ kind: Type.Literal('launch'), ...stepBase, app: Type.Optional(AppSpec) }),
  /** Focus an element, or (without target) bring a window matching `window` (default: the app) forward. */
  Type.Object({
    kind: Type.Literal('focus'),
    ...stepBase,
    target: Type.Optional(Selector),
    window: Type.Optional(AppSpec),
  }),
  Type.Object({
    kind: Type.Literal('click'),
    ...stepBase,
    target: Selector,
    /**
     * The target sits in a paged list (a row on page 3 of a table): while it is not on the page
     * shown, this control ("Next page") is clicked to show the next one, until the target shows
     * or there is no next page.
     */
    pageWith: Type.Optional(Selector),
    button: Type.Optional(Type.Union([Type.Literal('left'), Type.Literal('right')])),
    clickCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  }),
  Type.Object({ kind: Type.Literal('fill'), ...stepBase, ...optional, target: Selector, value: Template }),
  /**
   * `value` renders to an option value or label; a list (JSON array input) selects several.
   * `valueMap` translates the caller's words to the app's option first ("defect" → "Code_Defect"),
   * compared without case or accents; options are then matched by value or label the same way.
   */
  Type.Object({
    kind: Type.Literal('select'),
    ...stepBase,
    ...optional,
    target: Selector,
    value: Template,
    valueMap: Type.Optional(Type.Record(Type.String(), Type.String())),
  }),
  /** Opens a URL in the app's window; relative URLs resolve against the current page ("/tickets/{{id}}"). */
  Type.Object({ kind: Type.Literal('navigate'), ...stepBase, url: Template }),
  Type.Object({
    kind: Type.Literal('check'),
    ...stepBase,
    ...optional,
    target: Selector,
    checked: Type.Union([Type.Boolean(), Template]),
    /** For a radio picked by the input: the caller's word → the radio's name ("yes" → "Oui"). */
    valueMap: Type.Optional(Type.Record(Type.String(), Type.String())),
  }),
  Type.Object({
    kind: Type.Literal('keys'),
    ...stepBase,
    target: Type.Optional(Selector),
    keys: Type.String(),
  }),
  Type.Object({ kind: Type.Literal('wait'), ...stepBase, until: Condition }),
  Type.Object({
    kind: Type.Literal('read'),
    ...stepBase,
    /** Required unless `source` is `url`. */
    target: Type.Optional(Selector),
    /**
     * `element` (default): the target's value or text. `url`: the page's address (no target).
     * `rows`: the target is a table, grid, list or run of cards; the value is an array of
     * objects, one per row or item (data rows only), keyed by `columns` (output key → column
     * header text) and `parts` or, without them, by the headers themselves; list items give
     * `{text, href?}`, cards `{title, href?, text}`.
     */
    source: Type.Optional(Type.Union([Type.Literal('element'), Type.Literal('url'), Type.Literal('rows')])),
    columns: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** Output key → where each row or item shows it (a table without headers, a card's parts). */
    parts: Type.Optional(Type.Record(Type.String(), RowPart)),
    /** The target holds repeated cards rather than a table or list (see `CardRun`). */
    cards: Type.Optional(CardRun),
    /** Each row gives the value of this key alone: a list of strings, not of objects. */
    pluck: Type.Optional(Type.String()),
    /** Output key the value is stored under (and a template variable for later steps). */
    into: Type.String({ minLength: 1 }),
    /** `auto`: the value of a control, else its text. */
    property: Type.Optional(Type.Union([Type.Literal('auto'), Type.Literal('text'), Type.Literal('value')])),
    /** Regex; the first capturing group (or the whole match) becomes the value. */
    extract: Type.Optional(Type.String()),
    /**
     * `element` reads only: the text is a list written out in one place ("Invoices, Scans"),
     * its items separated by this; the value is the list of items, trimmed, empty ones left out.
     */
    split: Type.Optional(Type.String({ minLength: 1 })),
  }),
  /**
   * If the condition (default: the scenario's `when`) holds, run that scenario's steps and end the
   * run there. Evaluated once, unless `timeoutMs` asks to wait for it; put a `wait` with `anyOf`
   * before it when the UI needs time to show either outcome.
   */
  Type.Object({
    kind: Type.Literal('branch'),
    ...stepBase,
    scenario: Type.String({ minLength: 1 }),
    when: Type.Optional(Condition),
  }),
  /** Fails with ASSERTION_FAILED unless the condition holds within the step's deadline. */
  Type.Object({
    kind: Type.Literal('assert'),
    ...stepBase,
    that: Condition,
    message: Type.Optional(Type.String()),
  }),
])
export type Step = Static<typeof Step>
export type StepKind = Step['kind']

export const Outcome = Type.Union([
  Type.Literal('success'),
  Type.Literal('alternate'),
  Type.Literal('failure'),
])
export type Outcome = Static<typeof Outcome>

export const Scenario = Type.Object({
  name: Type.String({ minLength: 1 }),
  outcome: Outcome,
  /** The UI signature that identifies this scenario; the default condition of branches to it. */
  when: Type.Optional(Condition),
  steps: Type.Array(Step),
  outputs: Type.Optional(Type.Record(Type.String(), Template)),
})
export type Scenario = Static<typeof Scenario>

/**
 * How the job signs in, kept apart from its steps: whenever `when` holds (the app shows its
 * sign-in form), the runner performs `steps` (they fill `{{$secrets.NAME}}`, never values). It
 * looks once before the first step that acts on the app, and again when a step cannot find its
 * target or a wait runs out (a session that expired mid-run): then it signs in, opens the last
 * address a `navigate` step opened again, and retries the step. At most twice per run.
 */
export const SignIn = Type.Object({
  when: Condition,
  steps: Type.Array(Step, { minItems: 1 }),
})
export type SignIn = Static<typeof SignIn>

export const Automation = Type.Object({
  version: Type.Literal(1),
  app: AppSpec,
  /** The guarded sign-in prelude (absent: the app needs none, or the job predates it). */
  signIn: Type.Optional(SignIn),
  /** Name reported when the main steps run to their end (outcome success). */
  mainScenario: Type.Optional(Type.String({ minLength: 1 })),
  steps: Type.Array(Step),
  scenarios: Type.Array(Scenario),
  /** Outputs of the main path, added to the values `read` steps stored. */
  outputs: Type.Optional(Type.Record(Type.String(), Template)),
})
export type Automation = Static<typeof Automation>

export const DEFAULT_MAIN_SCENARIO = 'main'

export const RUN_ERROR_CODES = [
  'ELEMENT_NOT_FOUND',
  'AMBIGUOUS_SELECTOR',
  'ELEMENT_DISABLED',
  'ELEMENT_OBSCURED',
  'ACTION_FAILED',
  'WAIT_TIMEOUT',
  'ASSERTION_FAILED',
  'EXTRACT_NO_MATCH',
  'INPUT_MISSING',
  'TEMPLATE_INVALID',
  'WINDOW_NOT_FOUND',
  'UNKNOWN_SCENARIO',
  'FAILURE_SCENARIO',
  'INVALID_AUTOMATION',
  'DRIVER_ERROR',
  'CANCELLED',
  /** No option of the drop-down, combobox or radio group matches the value (the message lists them). */
  'OPTION_NOT_FOUND',
  /** The step would leave the app: a link or navigation to an origin outside the app's allowed ones. */
  'NAVIGATION_BLOCKED',
  /** The app (its URL or program) could not be opened: connection refused, unknown host, HTTP error. */
  'LAUNCH_FAILED',
  /**
   * The agent refused the run: it carried no signature, or one that does not match the run under
   * the key derived from this desktop's credential (not sent by its server, or altered on the way).
   */
  'RUN_SIGNATURE_INVALID',
  /**
   * The app shows its sign-in form and the run cannot get past it: the job has no credentials
   * (`$secrets`) for it, no sign-in steps, or the stored ones are refused.
   */
  'SIGN_IN_REQUIRED',
  /**
   * The PC's session stayed locked, disconnected or on the secure desktop (a UAC prompt) until
   * the run's timeout: the run waited for it to come back (docs/windows.md).
   */
  'DESKTOP_LOCKED',
] as const
export const RunErrorCode = Type.Union(RUN_ERROR_CODES.map((code) => Type.Literal(code)))
export type RunErrorCode = Static<typeof RunErrorCode>

export const Candidate = Type.Object({
  role: UiRole,
  name: Type.String(),
  automationId: Type.Optional(Type.String()),
  /** A path fingerprint that would pick exactly this element. */
  path: Type.Array(PathSegment),
  /** One line for people: `button "Delete" #del-2 at table[0] > row[2] > cell[1] > button[0]`. */
  text: Type.String(),
})
export type Candidate = Static<typeof Candidate>

export const RunError = Type.Object({
  code: RunErrorCode,
  message: Type.String(),
  /** flowName of the failing step. */
  step: Type.Optional(Type.String()),
  selector: Type.Optional(Selector),
  candidates: Type.Optional(Type.Array(Candidate)),
})
export type RunError = Static<typeof RunError>

export const StepStatus = Type.Union([
  Type.Literal('SUCCESS'),
  Type.Literal('FAILED'),
  Type.Literal('SKIPPED'),
])
export type StepStatus = Static<typeof StepStatus>

export const RunStatus = Type.Union([
  Type.Literal('succeeded'),
  Type.Literal('partial'),
  Type.Literal('failed'),
])
export type RunStatus = Static<typeof RunStatus>

/** Validates untrusted JSON (an import, a builder result) and lists every problem with its path. */
export function parseAutomation(
  data: unknown,
): { ok: true; automation: Automation } | { ok: false; errors: string[] } {
  if (Value.Check(Automation, data)) return { ok: true, automation: data }
  const errors = [...Value.Errors(Automation, data)].slice(0, 20).map((e) => `${e.path || '/'}: ${e.message}`)
  return { ok: false, errors }
}

// The gauntlet's shapes: third-party apps started by the harness, and the jobs a user would want
// from each, with the answers the app's owner would give and the checks of the app's real state.
import type { ScreenElement } from '../../src/modules/screen/service.ts'
import type { Question } from '../../src/protocol/questions.ts'

export interface RunningApp {
  name: string
  /** Where the app starts (the agent's browser opens it there). */
  url: string
  /**
   * Ends every signed-in session the app holds (its session store emptied), so a job behind a
   * sign-in must sign in again: the bench calls it before the live calls of a job with secrets.
   */
  clearSessions?(): Promise<void>
  stop(): Promise<void>
}

export interface GauntletJob<A extends RunningApp = RunningApp> {
  app: string
  name: string
  method: 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  prompt: string
  /** The first teaching call asks to be shown how (`demonstrate: true`); `answer` gives the `show`. */
  demonstrate?: boolean
  /** Job secrets stored with the CLI before teaching (a sign-in screen in front of the app). */
  secrets?: Record<string, string>
  /** Teaching samples; `expect` where a user would give one. Test data they need is made by `before`. */
  samples: (app: A) => { input: Record<string, unknown>; expect?: Record<string, unknown> }[]
  /**
   * The app owner's answer to a question, or undefined for a question the owner would not expect.
   * `{pointAt}` points at the element it accepts on the build's screen (GET /_builds/<id>/screen),
   * as the owner would click on the thing itself. `{show}` answers a request to be shown: the
   * owner records a demonstration on the build's live screen (clicks and typing, as in the
   * dashboard's preview) and hands it over.
   */
  answer?: (question: Question) => string | string[] | PointAt | ShowHow | undefined
  /** Two live calls with new inputs, each with a check of the answer and of the app's real state. */
  live: (
    app: A,
  ) => { input: Record<string, unknown>; check: (result: Record<string, unknown>) => string | undefined }[]
}

/** An answer by pointing: the first element of the build's screen the test accepts. */
export interface PointAt {
  pointAt: (element: ScreenElement, all: ScreenElement[]) => boolean
  /** When nothing on the screen is that, the owner says it is not on this screen (else the job fails). */
  elseNotHere?: boolean
}

/** An element of the build's live screen (GET /_builds/<id>/screen), with its box in the picture's pixels. */
export type { ScreenElement } from '../../src/modules/screen/service.ts'

/** Which element of the screen a step acts on (all: the whole screen, for finding it by what is beside it). */
export type Pick = (element: ScreenElement, all: ScreenElement[]) => boolean

/** One thing the owner does while showing how: a click, a hover, typing into a box, a key, a choice in a drop-down. */
export type ShowStep =
  | { click: Pick }
  /** The pointer rests on it (a menu entry whose submenu shows on hover), as on the live preview. */
  | { hover: Pick }
  | { type: string; into: Pick }
  | { key: string }
  | { choose: string; in: Pick }

/** A demonstration, made when the builder asks to be shown (question kind `demonstrate`). */
export interface ShowHow {
  show: ShowStep[]
  /** Steps the owner does first only when the screen asks for them (a sign-in the app may or may not show). */
  signIn?: { when: Pick; steps: ShowStep[] }
}

/**
 * The box a person would call by this caption: right of it and level with it (the nearest top
 * edge first, then the nearest to the left), as a person reads a form laid out in rows.
 */
export const beside =
  (caption: RegExp, role = 'textbox'): Pick =>
  (e, all) => {
    if (e.role !== role) return false
    // The first caption so named that has a box beside it (a tree may list the same word elsewhere).
    for (const label of all.filter((c) => c.role !== role && caption.test(c.name.trim()))) {
      const l = label.bounds
      const level = (b: ScreenElement['bounds']) => b.y < l.y + l.height && b.y + b.height > l.y
      const nearest = all
        .filter((x) => x.role === role && level(x.bounds) && x.bounds.x >= l.x + l.width - 2)
        .sort((a, b) => Math.abs(a.bounds.y - l.y) - Math.abs(b.bounds.y - l.y) || a.bounds.x - b.bounds.x)[0]
      if (nearest) return nearest === e
    }
    return false
  }

/** Whether box `outer` holds the top-left corner of box `inner`. */
const holds = (outer: ScreenElement['bounds'], inner: ScreenElement['bounds']) =>
  inner.x >= outer.x - 4 &&
  inner.y >= outer.y - 4 &&
  inner.x <= outer.x + outer.width &&
  inner.y <= outer.y + outer.height

/** The box whose hint (a caption drawn inside it, as a placeholder is) reads like this. */
export const hinted =
  (hint: RegExp, role = 'textbox'): Pick =>
  (e, all) =>
    e.role === role &&
    all.some((c) => c !== e && c.role === 'text' && hint.test(c.name.trim()) && holds(e.bounds, c.bounds))

/** An element named exactly `name` (any role of `roles`) inside an element whose name matches `container`. */
export const inside =
  (name: string, container: RegExp, roles = /^(text|option|menuitem|listitem|link)$/): Pick =>
  (e, all) =>
    roles.test(e.role) &&
    e.name.trim() === name &&
    all.some((c) => c !== e && container.test(c.name) && holds(c.bounds, e.bounds))

// The gauntlet's shapes: third-party apps started by the harness, and the jobs a user would want
// from each, with the answers the app's owner would give and the checks of the app's real state.
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
  /** Job secrets stored with the CLI before teaching (a sign-in screen in front of the app). */
  secrets?: Record<string, string>
  /** Teaching samples; `expect` where a user would give one. Test data they need is made by `before`. */
  samples: (app: A) => { input: Record<string, unknown>; expect?: Record<string, unknown> }[]
  /**
   * The app owner's answer to a question, or undefined for a question the owner would not expect.
   * `{pointAt}` points at the element it accepts on the build's screen (GET /_builds/<id>/screen),
   * as the owner would click on the thing itself.
   */
  answer?: (question: Question) => string | string[] | PointAt | undefined
  /** Two live calls with new inputs, each with a check of the answer and of the app's real state. */
  live: (
    app: A,
  ) => { input: Record<string, unknown>; check: (result: Record<string, unknown>) => string | undefined }[]
}

/** An answer by pointing: the first element of the build's screen the test accepts. */
export interface PointAt {
  pointAt: (element: { role: string; name: string; value?: string }) => boolean
}

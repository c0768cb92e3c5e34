// The builder's boundary: it explores a desktop through DesktopPort, talks to the person teaching
// through BuildIO, and returns an automation. No HTTP, no SQL here: the build worker
// (src/runtime/build-worker.ts) connects these to the agent hub and the builds table.
import type { AppSpec, Automation, Outcome } from '../protocol/automation.ts'
import type { ActionResult, ElementAction, Snapshot, WindowInfo } from '../protocol/elements.ts'
import type { RunOutcome, StepRecord } from '../protocol/messages.ts'
import type { Question, QuestionKind } from '../protocol/questions.ts'
import type { Recording } from '../protocol/recording.ts'

/** The desktop as the builder sees it: the Driver's calls plus "run this automation for real". */
export interface DesktopPort {
  readonly name: string
  listWindows(): Promise<WindowInfo[]>
  launch(app: AppSpec): Promise<WindowInfo>
  /** Opens an absolute URL in the window (same tab), resolving once loaded. */
  navigate(windowId: string, url: string): Promise<WindowInfo>
  snapshot(windowId: string): Promise<Snapshot>
  act(windowId: string, action: ElementAction): Promise<ActionResult>
  waitForChange(windowId: string, timeoutMs: number): Promise<'changed' | 'timeout'>
  /**
   * Signs the desktop's browser out of the app in the window: the stored cookies and site data of
   * the window's current origin only. False (or absent) where nothing may be cleared: a browser
   * the agent only attached to, native apps.
   */
  clearSession?(windowId: string): Promise<boolean>
  /** Runs the automation with the real runner on the desktop (verification); steps without screenshots. */
  run(automation: Automation, input: Record<string, unknown>): Promise<RunOutcome & { steps: StepRecord[] }>
}

export type { Question, QuestionKind }

export interface BuildIO {
  /** Records what the builder looked at, tried, decided and why (shown in `progress`). */
  progress(stage: string, message: string, data?: Record<string, unknown>): void
  /** Asks the person teaching and waits for the answer (already validated against the options). */
  ask(question: Question): Promise<string | string[]>
  /** A finished recording submitted as the answer to a `demonstrate` question (absent: the build cannot be shown). */
  recording?(recordingId: string): Promise<Recording>
}

export interface SampleSpec {
  id: string
  /** The job input as a live call sees it (query + body, `_http` with method, path, params, headers). */
  input: Record<string, unknown>
  /** Expected output; `{"$type": "string"}` stands for a value the app generates. */
  expect?: Record<string, unknown> | null
  /** A scenario name the caller gave this sample (envelope `scenario`), if any. */
  scenarioName?: string | null
  /**
   * An earlier build of this job already pressed this sample's submit (it failed later), so the
   * app may now hold its record: a complaint about it is the builder's own doing, not a scenario.
   */
  submittedBefore?: boolean
}

export interface BuildRequest {
  prompt: string
  /** The sample this build is for. */
  sample: SampleSpec
  /** Earlier samples that passed, with the scenario each ended in: they are re-verified. */
  previous: (SampleSpec & { scenario: string })[]
  /** The job's current draft automation, when this build extends a job. */
  automation?: Automation | null
  /**
   * The job says its app can be reset (`deskhook.resettable: true`): verification may submit
   * samples again. Otherwise each sample's side effect happens once, in exploration.
   */
  resettable?: boolean
  /** Names of the job's stored secrets (never their values): what the builder may sign in with. */
  secretNames?: string[]
  /** The secrets' values, in memory for this build only: `{{$secrets.NAME}}` in the builder's own steps. */
  secrets?: Record<string, string>
  /** The job's route, for messages that tell the person which command to run. */
  route?: { method: string; path: string }
  /** The teach call asked to be shown (`"deskhook": {"demonstrate": true}`): ask `demonstrate` up front. */
  demonstrate?: boolean
}

export type BuildResult =
  | {
      ok: true
      automation: Automation
      /** The scenario the new sample ended in (existing or new). */
      scenario: string
      outcome: Outcome
      /** Every earlier sample re-run against the new automation, and where it ended. */
      reverified: { sampleId: string; scenario: string; passed: boolean }[]
    }
  | { ok: false; code: BuildFailureCode; message: string }

export type BuildFailureCode =
  | 'APP_NOT_FOUND'
  | 'NO_FORM_FOUND'
  | 'FIELD_NOT_MAPPED'
  | 'NO_SUBMIT'
  | 'NO_OUTCOME'
  | 'OUTPUT_NOT_FOUND'
  | 'VERIFY_FAILED'
  | 'REGRESSION'
  | 'DESKTOP_ERROR'
  /** The sample's record was created by an earlier build of the job; its complaint is not a scenario. */
  | 'ALREADY_SUBMITTED'
  /** The app shows a sign-in screen and the job has no way to sign in. */
  | 'SIGN_IN_REQUIRED'

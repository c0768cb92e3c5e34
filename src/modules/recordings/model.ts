import { type Static, t } from 'elysia'
import type { RecordingState } from '../../db/schema/index.ts'
import type { RecordedTarget } from '../../protocol/recording.ts'

export { RemoteInput } from '../../protocol/recording.ts'

/** The answer to a `demonstrate` question: the recording that shows the task. */
export const DemonstrateAnswer = t.Object(
  { recordingId: t.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
)
export type DemonstrateAnswer = Static<typeof DemonstrateAnswer>

/** Who acts on a recording: a person's email (dashboard) or an API key's prefix (HTTP API). */
export type RecordingActor = string

export interface RecordingActionView {
  seq: number
  atMs: number
  kind: 'click' | 'input' | 'select' | 'check' | 'key' | 'navigate'
  target: RecordedTarget | null
  value?: string
  /** A password (or secret) field: its value was never recorded. */
  secret?: boolean
  key?: string
  url?: string
  /** The window once it had settled after this action (shared by a burst of actions), or null. */
  screenshotUrl: string | null
}

export interface RecordingView {
  id: string
  buildId: string
  desktopId: string
  windowId: string
  status: RecordingState
  startedBy: string
  startedAt: string
  endedAt: string | null
  window: { title: string; url?: string } | null
  /** Empty while recording: the actions arrive with the stop. */
  actions: RecordingActionView[]
  /** While recording, the agent's live count; afterwards, the number of actions kept. */
  actionCount: number
  /** While recording, the last few actions in words ("Clicked the “Save” button"); else empty. */
  recent: string[]
  /** While recording, how many different screens the agent has read so far (each settled screen is one); else absent. */
  screensRead?: number
  error: string | null
  /**
   * While recording: the window as it is now, a screenshot with every element's box
   * (`GET /_builds/<id>/screen`), to see where to click before the first action and after each.
   */
  screenUrl: string | null
}

/** Answer of `POST /_builds/:id/recordings`. */
export interface RecordingStarted {
  recordingId: string
  status: RecordingState
  windowId: string
  /** The window now, to see where to click: `GET /_builds/<id>/screen` (picture and element boxes). */
  screenUrl: string
}
